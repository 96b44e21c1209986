package handlers

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

	"github.com/avadata/avadata/indexer/netinfo"
)

// The Data API endpoints of the spec (1-17) are registered in the routes_*.go
// files, one file per domain; the EVM ones are served by evm_*.go. Each
// endpoint has a request struct holding its validated input and a parse
// function that builds it from the request,
// checking path parameters first (network, then blockchainId/chainId, then
// address/nodeId/txHash), then query parameters, then the body. Until an
// endpoint is implemented its handler is stub(parse): bad input gets the 400
// the real endpoint will give, valid input gets notServedYet's 404. A real
// handler replaces the stub and starts from the same parse function.

// Parameter names used by several Data API endpoints (see also params.go and
// chains.go).
const (
	paramAddress          = "address"
	paramAddresses        = "addresses"
	paramNodeID           = "nodeId"
	paramNodeIDs          = "nodeIds"
	paramRewardAddresses  = "rewardAddresses"
	paramTxTypes          = "txTypes"
	paramTxHash           = "txHash"
	paramValidationStatus = "validationStatus"
	paramDelegationStatus = "delegationStatus"
)

// maxListEntries caps the address and node ID lists of a query (an avadata
// limit; the spec names none), so one request cannot ask for unbounded work.
const maxListEntries = 64

// maxIDLength bounds ID-like path and query values before they are decoded:
// cb58 costs quadratic time in the input length, and no valid ID, node ID or
// hex ID comes close to this length.
const maxIDLength = 100

// notServedYet is the reply of every recognised endpoint this version does
// not serve yet: a 404 that names the endpoint and the version, so clients
// can tell it from a mistyped URL.
func (c *Core) notServedYet(r *http.Request) error {
	path := r.URL.Path
	if route := mux.CurrentRoute(r); route != nil {
		if tpl, err := route.GetPathTemplate(); err == nil {
			path = tpl
		}
	}
	return newAPIError(http.StatusNotFound, "%s %s is not served by avadata %s yet", r.Method, path, c.version)
}

// pathVar returns the path variable name of r's route.
func pathVar(r *http.Request, name string) string { return mux.Vars(r)[name] }

// resolvePrimaryPath checks {network} and resolves {blockchainId} among the
// chains the endpoint allows; the request reads that chain's index. The
// X-chain's txs and UTXOs include the DAG-era ones, which the vertex
// follower writes: an X-chain request reads both streams.
func (c *Core) resolvePrimaryPath(r *http.Request, heights *indexedView, allowed []netinfo.Chain) (netinfo.Chain, error) {
	chain, err := c.resolvePrimaryChain(r, allowed)
	if err == nil {
		c.readsChain(heights, chain)
		if chain == netinfo.X {
			c.readsStream(heights, vertexStream)
		}
	}
	return chain, err
}

// resolvePrimaryChain is resolvePrimaryPath for endpoints that read another
// stream of the chain than its blocks (the X-chain's vertices).
func (c *Core) resolvePrimaryChain(r *http.Request, allowed []netinfo.Chain) (netinfo.Chain, error) {
	node := c.Network()
	if err := resolveNetwork(pathVar(r, paramNetwork), node); err != nil {
		return 0, err
	}
	return resolveBlockchain(pathVar(r, paramBlockchainID), node, allowed)
}

// parseNodeID parses a primary-network node ID ("NodeID-" + cb58).
func parseNodeID(param, s string) (ids.NodeID, error) {
	if err := validateNodeID(s); err != nil {
		return ids.EmptyNodeID, badRequest("invalid %s '%s': %v", param, truncate(s), err)
	}
	return ids.NodeIDFromString(s)
}

// validateNodeID is the parseList validator of node IDs.
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

// parseNodeIDList reads a comma-separated list of node IDs.
func parseNodeIDList(q url.Values, name string) ([]ids.NodeID, error) {
	items, err := parseList(q, name, maxListEntries, validateNodeID)
	if err != nil {
		return nil, err
	}
	nodeIDs := make([]ids.NodeID, len(items))
	for i, item := range items {
		nodeIDs[i], _ = ids.NodeIDFromString(item) // validated above
	}
	return nodeIDs, nil
}

// parseCB58ID parses a cb58 32-byte ID (transaction hash, blockchain ID).
func parseCB58ID(param, s string) (ids.ID, error) {
	if len(s) <= maxIDLength {
		if id, err := ids.FromString(s); err == nil {
			return id, nil
		}
	}
	return ids.Empty, badRequest("invalid %s '%s': must be a cb58-encoded 32-byte ID, e.g. 3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP",
		param, truncate(s))
}

// parseHexOrCB58ID parses a 32-byte ID given as hex (64 digits, optional 0x)
// or cb58.
func parseHexOrCB58ID(param, s string) (ids.ID, error) {
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
	return ids.Empty, badRequest("invalid %s '%s': must be a 32-byte ID, cb58-encoded or as 64 hex digits (optional 0x prefix)",
		param, truncate(s))
}

// primaryNetworkTxTypes is the PrimaryNetworkTxType enum of the hosted API,
// in its order.
func primaryNetworkTxTypes() []string {
	return []string{
		"AddValidatorTx", "AddSubnetValidatorTx", "AddDelegatorTx", "CreateChainTx", "CreateSubnetTx",
		"ImportTx", "ExportTx", "AdvanceTimeTx", "RewardValidatorTx", "RemoveSubnetValidatorTx",
		"TransformSubnetTx", "AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx", "BaseTx",
		"TransferSubnetOwnershipTx", "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx",
		"DisableL1ValidatorTx", "IncreaseL1ValidatorBalanceTx", "UNKNOWN", "CreateAssetTx", "OperationTx",
	}
}

// parseTxTypes reads txTypes, given as repeated keys (the SDK's form),
// comma-separated, or both. Names match case-insensitively and come back in
// their canonical spelling, without duplicates, in the order given.
func parseTxTypes(q url.Values) ([]string, error) {
	var out []string
	for _, raw := range q[paramTxTypes] {
		for item := range strings.SplitSeq(raw, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			i := slices.IndexFunc(primaryNetworkTxTypes(), func(t string) bool { return strings.EqualFold(t, item) })
			if i < 0 {
				return nil, badRequest("invalid %s '%s': each must be one of %s",
					paramTxTypes, truncate(item), quoteList(primaryNetworkTxTypes()))
			}
			if canonical := primaryNetworkTxTypes()[i]; !slices.Contains(out, canonical) {
				out = append(out, canonical)
			}
		}
	}
	return out, nil
}

// parseEnum reads an optional enum parameter (case-insensitive) and returns
// its canonical value, or "" when absent.
func parseEnum(q url.Values, name string, allowed []string) (string, error) {
	raw := q.Get(name)
	if raw == "" {
		return "", nil
	}
	i := slices.IndexFunc(allowed, func(v string) bool { return strings.EqualFold(v, raw) })
	if i < 0 {
		return "", badRequest("invalid %s '%s': must be one of %s", name, truncate(raw), quoteList(allowed))
	}
	return allowed[i], nil
}

// parseRequiredUint reads a required non-negative integer parameter.
func parseRequiredUint(q url.Values, name string) (uint64, error) {
	raw := q.Get(name)
	if raw == "" {
		return 0, badRequest("%s is required: an integer >= 0", name)
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return 0, badRequest("invalid %s '%s': must be an integer >= 0", name, truncate(raw))
	}
	return v, nil
}

// truncate shortens a client value for an error message.
func truncate(s string) string {
	const limit = 80
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "..."
}

// formatBound renders an optional bound for a filter hash.
func formatBound[T int64 | uint64](b bound[T]) string {
	if !b.Set {
		return ""
	}
	return fmt.Sprint(b.Value)
}

// joinNodeIDs renders node IDs for a filter hash.
func joinNodeIDs(nodeIDs []ids.NodeID) string {
	parts := make([]string, len(nodeIDs))
	for i, id := range nodeIDs {
		parts[i] = id.String()
	}
	return strings.Join(parts, ",")
}
