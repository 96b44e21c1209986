package webhooks

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/avadata/avadata/handlers/api"
)

// Bounds of the request's free-text members and the URL.
const (
	maxNameChars        = 256
	maxDescriptionChars = 1024
	maxURLBytes         = 2048
)

// maxBodyBytes bounds a request body: maxAddresses addresses of the
// longest kind (bech32 with a chain prefix, quoted) take well under 1 MiB
// at the default bound, which the node's request body bound also is.
const maxBodyBytes = 1 << 20

// textField returns a free-text member of at most maxChars characters.
func textField(fields map[string]json.RawMessage, name string, maxChars int) (string, error) {
	s, err := api.StringFieldAt(fields, "", name)
	if err != nil {
		return "", err
	}
	if n := utf8.RuneCountInString(s); n > maxChars {
		return "", api.BadRequest("invalid %s: has %d characters, at most %d are allowed", name, n, maxChars)
	}
	return s, nil
}

// boolField returns a boolean member and whether it was given.
func boolField(fields map[string]json.RawMessage, name string) (value, given bool, err error) {
	raw := fields[name]
	if api.IsNull(raw) {
		return false, false, nil
	}
	if err := json.Unmarshal(raw, &value); err != nil {
		return false, false, api.BadRequest("invalid %s: must be true or false", name)
	}
	return value, true, nil
}

// stringList returns an array-of-strings member, nil when absent or null.
func stringList(fields map[string]json.RawMessage, where, name string) ([]string, error) {
	raw := fields[name]
	if api.IsNull(raw) {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, api.BadRequest("invalid %s: must be an array of strings", where+name)
	}
	return list, nil
}

// object returns an object member's members; required says whether it
// may be absent (then nil).
func object(fields map[string]json.RawMessage, where, name string, required bool, allowed []string) (map[string]json.RawMessage, error) {
	raw := fields[name]
	if api.IsNull(raw) {
		if required {
			return nil, api.BadRequest("%s is required: an object with %s", where+name, api.QuoteList(allowed))
		}
		return nil, nil
	}
	return api.DecodeJSONObject(raw, where+name, allowed)
}

// amountField returns a member that is an amount (nAVAX) as a decimal
// integer string, "" when absent.
func amountField(fields map[string]json.RawMessage, where, name string) (string, error) {
	s, err := api.StringFieldAt(fields, where, name)
	if err != nil || s == "" {
		return "", err
	}
	if _, perr := strconv.ParseUint(s, 10, 64); perr != nil {
		return "", api.BadRequest("invalid %s '%s': must be a non-negative integer in nAVAX, as a decimal string",
			where+name, api.Truncate(s))
	}
	return s, nil
}

// maxEventSignatures bounds metadata.eventSignatures: a webhook filters
// on a few events (an ERC-20's Transfer and Approval), and the writers
// look every matching tx's logs up in the set.
const maxEventSignatures = 100

// eventSignatureRE is a topic0: 0x and 32 bytes of hex.
var eventSignatureRE = regexp.MustCompile(`^0[xX][0-9a-fA-F]{64}$`)

// eventSignatures returns metadata.eventSignatures, lower case and each
// once, at most maxEventSignatures.
func eventSignatures(meta map[string]json.RawMessage) ([]string, error) {
	list, err := stringList(meta, whereMetadata, fieldEventSignatures)
	if err != nil {
		return nil, err
	}
	if len(list) > maxEventSignatures {
		return nil, api.BadRequest("invalid %s%s: has %d entries, at most %d are allowed",
			whereMetadata, fieldEventSignatures, len(list), maxEventSignatures)
	}
	var out []string
	for _, sig := range list {
		if !eventSignatureRE.MatchString(sig) {
			return nil, api.BadRequest("invalid %s%s entry '%s': an event signature is 0x and 64 hex digits (a log's topic0)",
				whereMetadata, fieldEventSignatures, api.Truncate(sig))
		}
		out = appendOnce(out, strings.ToLower(sig))
	}
	return out, nil
}

func appendOnce(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}
