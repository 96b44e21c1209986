package api

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Path parameter names.
const (
	ParamNetwork      = "network"
	paramBlockchainID = "blockchainId"
	ParamChainID      = "chainId"
)

// testnetName is the SDK's name for a test network (see IsNodeNetwork).
const testnetName = "testnet"

// networkNames maps the {network} names of the spec, plus "local", to network
// IDs. "testnet" is the spec's second name for fuji.
func networkNames() map[string]uint32 {
	return map[string]uint32{
		"mainnet":   constants.MainnetID,
		"fuji":      constants.FujiID,
		testnetName: constants.FujiID,
		"local":     constants.LocalID,
	}
}

// ResolveNetwork checks the {network} path segment against the node's
// network. The node serves exactly one network; asking it about another one
// is a client mistake worth spelling out, not an empty result.
func ResolveNetwork(segment string, node netinfo.Info) error {
	same, err := IsNodeNetwork(ParamNetwork, segment, node)
	if err != nil {
		return err
	}
	if !same {
		return BadRequest("this node serves network '%s'; request was for '%s'", node.Name(), segment)
	}
	return nil
}

// IsNodeNetwork reports whether the network name s (parameter param) is
// the node's network; a name that is no network at all is a 400.
//
// On a network other than mainnet and Fuji (a local or custom one),
// "testnet" names the node's own network too. The hosted API's clients,
// the official SDK among them, accept only mainnet, fuji and testnet as a
// network, so without it a local network could not be asked at all; and on
// such a node "testnet" cannot mean Fuji, whose data the node does not have.
// On a Fuji node it stays Fuji's second name, on mainnet another network.
func IsNodeNetwork(param, s string, node netinfo.Info) (bool, error) {
	name := strings.ToLower(s)
	if name == node.Name() {
		return true, nil // also covers custom networks, e.g. "network-88888"
	}
	if name == testnetName && !node.IsPublic() {
		return true, nil
	}
	networkID, known := networkNames()[name]
	if !known {
		valid := []string{"mainnet", "fuji", "testnet", "local"}
		if !slices.Contains(valid, node.Name()) {
			valid = append(valid, node.Name())
		}
		return false, BadRequest("invalid %s '%s': must be one of %s", param, Truncate(s), QuoteList(valid))
	}
	return networkID == node.NetworkID, nil
}

// foreignChainID is a well-known primary-network chain ID of another network.
type foreignChainID struct {
	id      string
	network string
	chain   netinfo.Chain
}

// wellKnownChainIDs lists the X- and C-chain IDs of mainnet and fuji (the
// BlockchainIds enum of the hosted API). The P-chain ID is the same on every
// network, so it is always the node's own.
func wellKnownChainIDs() []foreignChainID {
	return []foreignChainID{
		{id: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", network: "mainnet", chain: netinfo.X},
		{id: "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", network: "mainnet", chain: netinfo.C},
		{id: "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm", network: "fuji", chain: netinfo.X},
		{id: "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp", network: "fuji", chain: netinfo.C},
	}
}

// ChainByAlias resolves p-chain, x-chain, c-chain (case-insensitive).
func ChainByAlias(s string) (netinfo.Chain, bool) {
	for _, c := range netinfo.PrimaryChains() {
		if strings.EqualFold(s, c.DataAPIAlias()) {
			return c, true
		}
	}
	return 0, false
}

// chainByBlockchainID resolves the cb58 blockchain ID of any chain the node
// follows.
func chainByBlockchainID(s string, node netinfo.Info) (netinfo.ChainInfo, bool) {
	for _, ci := range node.Chains {
		if ci.BlockchainID.String() == s {
			return ci, true
		}
	}
	return netinfo.ChainInfo{}, false
}

// ChainLabel names a chain in messages: its Data API alias for P, X and C,
// its name on the P-chain for any other.
func ChainLabel(ci netinfo.ChainInfo) string {
	if ci.Chain.IsPrimary() || ci.Name == "" {
		return ci.Chain.DataAPIAlias()
	}
	return ci.Name
}

// foreignChainError explains a well-known chain ID of another network, or
// returns nil if s is not one.
func foreignChainError(param, s string, node netinfo.Info) *Error {
	for _, f := range wellKnownChainIDs() {
		if f.id == s {
			return BadRequest("%s '%s' is the %s of %s; this node serves network '%s', whose %s is '%s' (or use the alias '%s')",
				param, s, f.chain.DataAPIAlias(), f.network, node.Name(),
				f.chain.DataAPIAlias(), node.ChainID(f.chain), f.chain.DataAPIAlias())
		}
	}
	return nil
}

// describeChains renders chains as "'p-chain' (<id>), ..." for messages.
func describeChains(chains []netinfo.Chain, node netinfo.Info) string {
	parts := make([]string, len(chains))
	for i, c := range chains {
		ci, _ := node.Chain(c)
		ci.Chain = c
		parts[i] = "'" + ChainLabel(ci) + "' (" + ci.BlockchainID.String() + ")"
	}
	return strings.Join(parts, ", ")
}

// resolveBlockchain resolves the {blockchainId} path segment: a cb58 chain
// ID of the node's network or an alias, restricted to the chains the endpoint
// serves (allowed).
func resolveBlockchain(segment string, node netinfo.Info, allowed []netinfo.Chain) (netinfo.Chain, error) {
	chain, ok := ChainByAlias(segment)
	if !ok {
		var ci netinfo.ChainInfo
		ci, ok = chainByBlockchainID(segment, node)
		chain = ci.Chain
	}
	if !ok {
		if err := foreignChainError(paramBlockchainID, segment, node); err != nil {
			return 0, err
		}
		return 0, BadRequest("invalid %s '%s': must be one of %s", paramBlockchainID, Truncate(segment), describeChains(allowed, node))
	}
	if !slices.Contains(allowed, chain) {
		ci, _ := node.Chain(chain)
		ci.Chain = chain
		return 0, BadRequest("%s '%s' (%s) is not supported by this endpoint; allowed: %s",
			paramBlockchainID, segment, ChainLabel(ci), describeChains(allowed, node))
	}
	return chain, nil
}

// ResolveEVMChain resolves an EVM {chainId}: the EVM chain id number of any
// EVM chain the node follows, its cb58 blockchain ID, or, for the C-chain,
// the alias c-chain (the hosted API's GlobalParamChainId takes "a supported
// EVM chain id, chain alias, or blockchain id").
func ResolveEVMChain(segment string, node netinfo.Info) (netinfo.ChainInfo, error) {
	ci, ok := lookupEVMChain(segment, node)
	if !ok {
		return netinfo.ChainInfo{}, unsupportedEVMChain(segment, node)
	}
	if ci.EVMChainID == 0 {
		// Found by blockchain ID before the follower read eth_chainId: every
		// response carries the EVM chain id, so there is nothing to serve yet.
		return netinfo.ChainInfo{}, NewError(http.StatusServiceUnavailable,
			"the EVM chain id of '%s' (%s) is not known yet: its follower has not read it from the node; try again shortly",
			ChainLabel(ci), ci.BlockchainID)
	}
	return ci, nil
}

// lookupEVMChain finds the EVM chain segment names, if the node follows it.
func lookupEVMChain(segment string, node netinfo.Info) (netinfo.ChainInfo, bool) {
	if n, err := strconv.ParseUint(segment, 10, 64); err == nil {
		return node.EVMChainByNumber(n)
	}
	for _, ci := range node.EVMChains() {
		if ci.BlockchainID.String() == segment ||
			(ci.Chain == netinfo.C && strings.EqualFold(segment, ci.Chain.DataAPIAlias())) {
			return ci, true
		}
	}
	return netinfo.ChainInfo{}, false
}

// unsupportedEVMChain explains why segment names no EVM chain of the node:
// another network's C-chain, a chain that is not EVM, or nothing known.
func unsupportedEVMChain(segment string, node netinfo.Info) *Error {
	if n, err := strconv.ParseUint(segment, 10, 64); err == nil {
		if known, ok := wellKnownCChain(n); ok && known.NetworkID != node.NetworkID {
			return BadRequest("%s %d is the C-chain of %s; this node serves network '%s', whose C-chain is %d",
				ParamChainID, n, known.Name, node.Name(), node.CChainEVMID())
		}
	}
	if ci, ok := chainByBlockchainID(segment, node); ok {
		return BadRequest("%s '%s' is the %s, which is not an EVM chain; supported EVM chains: %s",
			ParamChainID, segment, ChainLabel(ci), describeEVMChains(node))
	}
	if err := foreignChainError(ParamChainID, segment, node); err != nil {
		return err
	}
	return BadRequest("unsupported %s '%s': supported EVM chains: %s", ParamChainID, Truncate(segment), describeEVMChains(node))
}

// wellKnownCChain returns the named network whose C-chain has EVM chain id n.
func wellKnownCChain(n uint64) (netinfo.WellKnownCChain, bool) {
	for _, known := range netinfo.WellKnownCChains() {
		if known.EVMChainID == n {
			return known, true
		}
	}
	return netinfo.WellKnownCChain{}, false
}

// describeEVMChains renders the node's EVM chains for messages:
// "43112 ('c-chain', blockchain id '...'), ...".
func describeEVMChains(node netinfo.Info) string {
	var parts []string
	for _, ci := range node.EVMChains() {
		id := strconv.FormatUint(ci.EVMChainID, 10)
		if ci.EVMChainID == 0 {
			id = "(EVM chain id not read yet)"
		}
		parts = append(parts, fmt.Sprintf("%s ('%s', blockchain id '%s')", id, ChainLabel(ci), ci.BlockchainID))
	}
	if len(parts) == 0 {
		return "none (this node follows no EVM chain)"
	}
	return strings.Join(parts, ", ")
}

// ResolveEVMChainNumber resolves a {chainId} that must be an EVM chain id
// number (NFT holders: the spec rules out blockchain ids there).
func ResolveEVMChainNumber(segment string, node netinfo.Info) (netinfo.ChainInfo, error) {
	if _, err := strconv.ParseUint(segment, 10, 64); err != nil {
		return netinfo.ChainInfo{}, BadRequest("invalid %s '%s': must be an EVM chain id number, not a blockchain id or alias; supported: %s",
			ParamChainID, Truncate(segment), describeEVMChains(node))
	}
	return ResolveEVMChain(segment, node)
}

// ResolveMetricsChain resolves the {chainId} of the metrics endpoints that
// cover every followed chain (avg TPS): any form ResolveEVMChain accepts,
// plus the aliases and blockchain IDs of the P- and X-chains.
func ResolveMetricsChain(segment string, node netinfo.Info) (netinfo.Chain, error) {
	if ci, ok := lookupEVMChain(segment, node); ok {
		return ci.Chain, nil
	}
	if chain, ok := ChainByAlias(segment); ok {
		return chain, nil
	}
	if ci, ok := chainByBlockchainID(segment, node); ok {
		return ci.Chain, nil
	}
	if n, err := strconv.ParseUint(segment, 10, 64); err == nil {
		if _, known := wellKnownCChain(n); known {
			return 0, unsupportedEVMChain(segment, node)
		}
	}
	if err := foreignChainError(ParamChainID, segment, node); err != nil {
		return 0, err
	}
	return 0, BadRequest("unsupported %s '%s': must be one of %s; or an EVM chain id: %s",
		ParamChainID, Truncate(segment), describeChains(netinfo.PrimaryChains(), node), describeEVMChains(node))
}

// ResolvePrimaryPath checks {network} and resolves {blockchainId} among the
// chains the endpoint allows; the request reads that chain's index. The
// X-chain's txs and UTXOs include the DAG-era ones, which the vertex
// follower writes: an X-chain request reads both streams.
func (c *Core) ResolvePrimaryPath(r *http.Request, heights *Heights, allowed []netinfo.Chain) (netinfo.Chain, error) {
	chain, err := c.ResolvePrimaryChain(r, allowed)
	if err == nil {
		c.ReadsChain(heights, chain)
		if chain == netinfo.X {
			c.ReadsStream(heights, VertexStream)
		}
	}
	return chain, err
}

// ResolvePrimaryChain is ResolvePrimaryPath for endpoints that read another
// stream of the chain than its blocks (the X-chain's vertices).
func (c *Core) ResolvePrimaryChain(r *http.Request, allowed []netinfo.Chain) (netinfo.Chain, error) {
	node := c.Network()
	if err := ResolveNetwork(PathVar(r, ParamNetwork), node); err != nil {
		return 0, err
	}
	return resolveBlockchain(PathVar(r, paramBlockchainID), node, allowed)
}
