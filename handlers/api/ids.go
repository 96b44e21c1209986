package api

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/gorilla/mux"
)

// Every operation has a request struct holding its validated input and a
// parse function that builds it from the request, checking path parameters
// first (network, then blockchainId/chainId, then address/nodeId/txHash),
// then query parameters, then the body. The parsers of values that several
// domains take live here.

// Parameter names used by several operations (see also params.go and
// chains.go).
const (
	ParamAddress          = "address"
	ParamAddresses        = "addresses"
	ParamNodeID           = "nodeId"
	ParamNodeIDs          = "nodeIds"
	ParamRewardAddresses  = "rewardAddresses"
	ParamTxTypes          = "txTypes"
	ParamTxHash           = "txHash"
	ParamValidationStatus = "validationStatus"
	ParamDelegationStatus = "delegationStatus"
)

// MaxListEntries caps the address and node ID lists of a query (an avadata
// limit; the spec names none), so one request cannot ask for unbounded work.
const MaxListEntries = 64

// maxIDLength bounds ID-like path and query values before they are decoded:
// cb58 costs quadratic time in the input length, and no valid ID, node ID or
// hex ID comes close to this length.
const maxIDLength = 100

// PathVar returns the path variable name of r's route.
func PathVar(r *http.Request, name string) string { return mux.Vars(r)[name] }

// ParseNodeID parses a primary-network node ID ("NodeID-" + cb58).
func ParseNodeID(param, s string) (ids.NodeID, error) {
	if err := validateNodeID(s); err != nil {
		return ids.EmptyNodeID, BadRequest("invalid %s '%s': %v", param, Truncate(s), err)
	}
	return ids.NodeIDFromString(s)
}

// validateNodeID is the ParseList validator of node IDs.
func validateNodeID(s string) error {
	const want = "want NodeID- followed by a cb58 node ID, e.g. NodeID-111111111111111111116DBWJs"
	if !strings.HasPrefix(s, ids.NodeIDPrefix) {
		return fmt.Errorf("is not a node ID: %s", want)
	}
	if len(s) > maxIDLength {
		return fmt.Errorf("is too long for a node ID: %s", want)
	}
	if _, err := ids.NodeIDFromString(s); err != nil {
		return fmt.Errorf("is not a valid node ID (%v): %s", err, want)
	}
	return nil
}

// ParseNodeIDList reads a comma-separated list of node IDs.
func ParseNodeIDList(q url.Values, name string) ([]ids.NodeID, error) {
	items, err := ParseList(q, name, MaxListEntries, validateNodeID)
	if err != nil {
		return nil, err
	}
	nodeIDs := make([]ids.NodeID, len(items))
	for i, item := range items {
		nodeIDs[i], _ = ids.NodeIDFromString(item) // validated above
	}
	return nodeIDs, nil
}

// ParseCB58ID parses a cb58 32-byte ID (transaction hash, blockchain ID).
func ParseCB58ID(param, s string) (ids.ID, error) {
	if len(s) <= maxIDLength {
		if id, err := ids.FromString(s); err == nil {
			return id, nil
		}
	}
	return ids.Empty, BadRequest("invalid %s '%s': must be a cb58-encoded 32-byte ID, e.g. 3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP",
		param, Truncate(s))
}

// ParseHexOrCB58ID parses a 32-byte ID given as hex (64 digits, optional 0x)
// or cb58.
func ParseHexOrCB58ID(param, s string) (ids.ID, error) {
	hexPart := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if len(hexPart) == 2*ids.IDLen {
		if b, err := hex.DecodeString(hexPart); err == nil {
			return ids.ID(b), nil
		}
	}
	if hexPart == s && len(s) <= maxIDLength {
		if id, err := ids.FromString(s); err == nil {
			return id, nil
		}
	}
	return ids.Empty, BadRequest("invalid %s '%s': must be a 32-byte ID, cb58-encoded or as 64 hex digits (optional 0x prefix)",
		param, Truncate(s))
}

// ParseEnum reads an optional enum parameter (case-insensitive) and returns
// its canonical value, or "" when absent.
func ParseEnum(q url.Values, name string, allowed []string) (string, error) {
	raw := q.Get(name)
	if raw == "" {
		return "", nil
	}
	i := slices.IndexFunc(allowed, func(v string) bool { return strings.EqualFold(v, raw) })
	if i < 0 {
		return "", BadRequest("invalid %s '%s': must be one of %s", name, Truncate(raw), QuoteList(allowed))
	}
	return allowed[i], nil
}

// ParseRequiredUint reads a required non-negative integer parameter.
func ParseRequiredUint(q url.Values, name string) (uint64, error) {
	raw := q.Get(name)
	if raw == "" {
		return 0, BadRequest("%s is required: an integer >= 0", name)
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return 0, BadRequest("invalid %s '%s': must be an integer >= 0", name, Truncate(raw))
	}
	return v, nil
}

// Truncate shortens a client value for an error message.
func Truncate(s string) string {
	const limit = 80
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "..."
}

// FormatBound renders an optional bound for a filter hash.
func FormatBound[T int64 | uint64](b Bound[T]) string {
	if !b.Set {
		return ""
	}
	return fmt.Sprint(b.Value)
}
