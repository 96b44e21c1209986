package explorer

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The search box takes anything a person may paste: it guesses what the
// text can be from its shape (search_query.go), asks the API whether each
// guess exists (search_probe.go, concurrently and bounded), and then
// redirects to the one match, lists several (an ambiguous query), or says
// what it tried.

// searchMaxLen bounds a query: nothing the search finds is longer (a
// bech32 address with its chain prefix is under 60 characters, a token
// name at most a few dozen).
const searchMaxLen = 120

// searchCandidate is one thing a query names.
type searchCandidate struct {
	// Kind says what it is ("transaction", "block", "address", "token",
	// ...), Chain where, Label its name for people, URL its page.
	Kind, Chain, Label, URL string
}

// searchData is what the search page shows: a query's candidates.
type searchData struct {
	Query      string
	Candidates []searchCandidate
}

// serveSearch answers /search?q=: 303 to the one match, the list of
// several, 404 saying what was tried, 400 for a query that can name
// nothing.
func (s *server) serveSearch(r *http.Request, req *request) (view, error) {
	q := strings.TrimSpace(req.Query.Get("q"))
	if err := checkQuery(q); err != nil {
		return view{}, err
	}
	plan, err := s.planSearch(r, req, q)
	if err != nil {
		return view{}, err
	}
	found, err := s.runSearch(r, req, plan)
	if err != nil {
		return view{}, err
	}
	switch len(found) {
	case 0:
		return view{}, api.NewError(http.StatusNotFound, "nothing on this node matches '%s': searched %s",
			api.Truncate(q), strings.Join(plan.tried, ", "))
	case 1:
		return view{}, &redirect{URL: found[0].URL}
	}
	return view{Template: "search", Title: "Search: " + q, Data: searchData{Query: q, Candidates: found}}, nil
}

// checkQuery refuses a query that can name nothing: empty, too long, or
// holding control characters.
func checkQuery(q string) error {
	switch {
	case q == "":
		return api.BadRequest("type something to search for: an address, a transaction or block hash or ID, a block number, a node ID, an asset, subnet, blockchain or L1 validation ID, or a token's name or symbol")
	case utf8.RuneCountInString(q) > searchMaxLen:
		return api.BadRequest("the search text is %d characters long; nothing the explorer finds is longer than %d",
			utf8.RuneCountInString(q), searchMaxLen)
	}
	for _, c := range q {
		if unicode.IsControl(c) {
			return api.BadRequest("the search text holds a control character (%U)", c)
		}
	}
	return nil
}

// searchPlan is what a query may be: the candidates its shape alone
// decides, the probes that ask the API, and what was tried, for the 404.
type searchPlan struct {
	sure   []searchCandidate
	probes []searchProbe
	// tokens, when set, is the text to look for among token names.
	tokens string
	tried  []string
}

// runSearch runs the plan's probes and token search and returns every
// candidate found, in the plan's order.
func (s *server) runSearch(r *http.Request, req *request, plan searchPlan) ([]searchCandidate, error) {
	found := append([]searchCandidate(nil), plan.sure...)
	hits, err := s.probe(r, plan.probes)
	if err != nil {
		return nil, err
	}
	found = append(found, hits...)
	if plan.tokens != "" {
		tokens, err := s.searchTokens(r, req, plan.tokens)
		if err != nil {
			return nil, err
		}
		found = append(found, tokens...)
	}
	return preferCreated(found), nil
}

// preferCreated drops the transaction that created a subnet, a blockchain
// or an asset found by the same ID: the ID of a CreateSubnetTx is the
// subnet's, of a CreateChainTx the blockchain's, of a CreateAssetTx the
// asset's, and a person pasting it means the thing (whose page links to
// the transaction).
func preferCreated(found []searchCandidate) []searchCandidate {
	created := false
	for _, c := range found {
		switch c.Kind {
		case kindSubnet, kindBlockchain, kindAsset:
			created = true
		}
	}
	if !created {
		return found
	}
	out := found[:0]
	for _, c := range found {
		if c.Kind != kindTx {
			out = append(out, c)
		}
	}
	return out
}

// evmChainLabel names an EVM chain for people: its name (a primary
// chain's, its letter in the API's status, as its label) and its EVM chain
// id.
func evmChainLabel(name string, id uint64) string {
	for _, c := range netinfo.PrimaryChains() {
		if name == c.String() {
			name = primaryChainLabel(c)
		}
	}
	return fmt.Sprintf("%s (EVM chain %d)", name, id)
}
