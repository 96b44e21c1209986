package replies

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
)

// Normalisation replaces, in a reply, only the values that cannot be the
// same in two runs over the same data; every other byte is compared as it
// came. Each replacement is a fixed placeholder (one member is dropped
// instead, see tracesAvailable), so a value that is present in one run and
// absent in the other still shows as a difference.
//
// Page tokens (every reply): a token carries the second it was issued at
// and is signed with the node's page token key, so two runs never issue the
// same bytes for the same page. Its value is replaced wherever a body has a
// "nextPageToken" member; what it leads to is compared instead, since
// replay follows the live token to the next page.
//
// Follower status (the replies the request set marks "status": GET
// /v1/status and the avadata.status JSON-RPC method), in each chain's
// entry:
//   - blocksPerSecond is a rate measured over the follower's recent
//     batches, and so depends on when they ran;
//   - etaSeconds is derived from that rate;
//   - lastProgress is the wall-clock time the follower last polled the node
//     and found itself caught up, which it does many times a second;
//   - tracesAvailable is dropped, not replaced: the follower sets it when it
//     indexes a batch, in memory only, so a node that has indexed no block
//     since it started leaves it out while the run that indexed the block
//     shows it (the seeding run, say, against every run after a restart).
//
// lastApplied, the wall-clock time of the follower's last write, is not
// normalised: it is read from the index, so it stays the same as long as no
// block arrives (avg TPS's lastRun is the same value).
//
// Validator uptime (the replies the request set marks "uptime": GET
// .../validators/{nodeId}): uptimePerformance is the node's live measure of
// an active validator's uptime (platform.getCurrentValidators), which moves
// with the wall clock: every second the node does not see a validator
// connected lowers it. On the one-node local network no genesis validator
// ever connects, so it falls between any two runs.

// Placeholders that replace normalised values.
const (
	pageTokenPlaceholder = `"<page token>"`
	ratePlaceholder      = `"<rate>"`
	clockPlaceholder     = `"<wall clock>"`
	uptimePlaceholder    = `"<live uptime>"`
)

// Names of the normalisers a request may list in Normalise, in the request
// set and in records.
const (
	normaliserStatus = "status"
	normaliserUptime = "uptime"
)

// knownNormalisers are the names a request may list in Normalise.
func knownNormalisers() []string { return []string{normaliserStatus, normaliserUptime} }

// jsonMemberRule replaces the value of every JSON member with a given name,
// or drops the member.
type jsonMemberRule struct {
	pattern     *regexp.Regexp
	placeholder string
	// drop removes the member instead (see newDropRule).
	drop bool
}

// newMemberRule matches `"name": value`, where value is a JSON string or
// number (the only kinds the normalised members have).
func newMemberRule(name, placeholder string) jsonMemberRule {
	return jsonMemberRule{
		pattern:     regexp.MustCompile(`("` + regexp.QuoteMeta(name) + `"\s*:\s*)("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*)`),
		placeholder: placeholder,
	}
}

// newDropRule matches `, "name": true|false`: a boolean member that is not
// the first of its object, with the comma before it, so that dropping it
// leaves valid JSON.
func newDropRule(name string) jsonMemberRule {
	return jsonMemberRule{pattern: regexp.MustCompile(`\s*,\s*"` + regexp.QuoteMeta(name) + `"\s*:\s*(?:true|false)`), drop: true}
}

func (r jsonMemberRule) apply(body []byte) []byte {
	if r.drop {
		return r.pattern.ReplaceAll(body, nil)
	}
	return r.pattern.ReplaceAll(body, []byte("${1}"+r.placeholder))
}

// Normaliser holds the compiled rules; build it once with NewNormaliser.
type Normaliser struct {
	pageToken jsonMemberRule
	// named are the rules of each normaliser a request may ask for.
	named map[string][]jsonMemberRule
}

// NewNormaliser compiles the rules above.
func NewNormaliser() *Normaliser {
	return &Normaliser{
		pageToken: newMemberRule("nextPageToken", pageTokenPlaceholder),
		named: map[string][]jsonMemberRule{
			normaliserStatus: {
				newMemberRule("blocksPerSecond", ratePlaceholder),
				newMemberRule("etaSeconds", ratePlaceholder),
				newMemberRule("lastProgress", clockPlaceholder),
				newDropRule("tracesAvailable"),
			},
			normaliserUptime: {
				newMemberRule("uptimePerformance", uptimePlaceholder),
			},
		},
	}
}

// checkNormalisers rejects normaliser names the tool does not know.
func checkNormalisers(names []string) error {
	for _, n := range names {
		if !slices.Contains(knownNormalisers(), n) {
			return fmt.Errorf("unknown normaliser %q (known: %v)", n, knownNormalisers())
		}
	}
	return nil
}

// Body returns body with the page tokens and, for each named normaliser,
// its members replaced.
func (n *Normaliser) Body(body []byte, normalisers []string) []byte {
	out := n.pageToken.apply(body)
	for _, name := range normalisers {
		for _, rule := range n.named[name] {
			out = rule.apply(out)
		}
	}
	return out
}

// recordedHeaders returns the reply headers kept in a record: all of them
// but two.
//   - Date is the node's wall clock.
//   - Content-Length is the length of the raw body. The body is compared
//     itself, after normalisation, which is exactly where the length may
//     legitimately change (a rate's digits).
func recordedHeaders(h http.Header) map[string][]string {
	out := make(map[string][]string, len(h))
	for name, values := range h {
		switch http.CanonicalHeaderKey(name) {
		case "Date", "Content-Length":
			continue
		}
		out[http.CanonicalHeaderKey(name)] = slices.Clone(values)
	}
	return out
}
