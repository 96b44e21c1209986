package handlers

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Path parameter names.
const (
	paramNetwork      = "network"
	paramBlockchainID = "blockchainId"
	paramChainID      = "chainId"
)

// networkNames maps the {network} names of the spec, plus "local", to network
// IDs. "testnet" is the spec's second name for fuji.
func networkNames() map[string]uint32 {
	return map[string]uint32{
		"mainnet": constants.MainnetID,
		"fuji":    constants.FujiID,
		"testnet": constants.FujiID,
		"local":   constants.LocalID,
	}
}

// resolveNetwork checks the {network} path segment against the node's
// network. The node serves exactly one network; asking it about another one
// is a client mistake worth spelling out, not an empty result.
func resolveNetwork(segment string, node netinfo.Info) error {
	name := strings.ToLower(segment)
	if name == node.Name() {
		return nil // also covers custom networks, e.g. "network-88888"
	}
	networkID, known := networkNames()[name]
	switch {
	case !known:
		valid := []string{"mainnet", "fuji", "testnet", "local"}
		if !slices.Contains(valid, node.Name()) {
			valid = append(valid, node.Name())
		}
		return badRequest("invalid %s '%s': must be one of %s", paramNetwork, segment, quoteList(valid))
	case networkID != node.NetworkID:
		return badRequest("this node serves network '%s'; request was for '%s'", node.Name(), segment)
	default:
		return nil
	}
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

// chainByAlias resolves p-chain, x-chain, c-chain (case-insensitive).
func chainByAlias(s string) (netinfo.Chain, bool) {
	for _, c := range netinfo.Chains {
		if strings.EqualFold(s, c.DataAPIAlias()) {
			return c, true
		}
	}
	return 0, false
}

// chainByBlockchainID resolves a cb58 blockchain ID of the node's network.
func chainByBlockchainID(s string, node netinfo.Info) (netinfo.Chain, bool) {
	for _, c := range netinfo.Chains {
		if node.ChainID(c).String() == s {
			return c, true
		}
	}
	return 0, false
}

// foreignChainError explains a well-known chain ID of another network, or
// returns nil if s is not one.
func foreignChainError(param, s string, node netinfo.Info) *apiError {
	for _, f := range wellKnownChainIDs() {
		if f.id == s {
			return badRequest("%s '%s' is the %s of %s; this node serves network '%s', whose %s is '%s' (or use the alias '%s')",
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
		parts[i] = "'" + c.DataAPIAlias() + "' (" + node.ChainID(c).String() + ")"
	}
	return strings.Join(parts, ", ")
}

// resolveBlockchain resolves the {blockchainId} path segment: a cb58 chain
// ID of the node's network or an alias, restricted to the chains the endpoint
// serves (allowed).
func resolveBlockchain(segment string, node netinfo.Info, allowed []netinfo.Chain) (netinfo.Chain, error) {
	chain, ok := chainByAlias(segment)
	if !ok {
		chain, ok = chainByBlockchainID(segment, node)
	}
	if !ok {
		if err := foreignChainError(paramBlockchainID, segment, node); err != nil {
			return 0, err
		}
		return 0, badRequest("invalid %s '%s': must be one of %s", paramBlockchainID, segment, describeChains(allowed, node))
	}
	if !slices.Contains(allowed, chain) {
		return 0, badRequest("%s '%s' (%s) is not supported by this endpoint; allowed: %s",
			paramBlockchainID, segment, chain.DataAPIAlias(), describeChains(allowed, node))
	}
	return chain, nil
}

// wellKnownEVMChainIDs maps the C-chain EVM chain IDs of the public networks
// to their names, to explain requests for another network's C-chain.
func wellKnownEVMChainIDs() map[uint64]string {
	return map[uint64]string{43114: "mainnet", 43113: "fuji", 43112: "local"}
}

// resolveEVMChain resolves an EVM {chainId}: the C-chain's numeric EVM chain
// ID or its cb58 blockchain ID. The C-chain is the only EVM chain avadata
// follows.
func resolveEVMChain(segment string, node netinfo.Info) (netinfo.Chain, error) {
	if chain, ok := resolveEVMChainID(segment, node); ok {
		return chain, nil
	}
	return 0, unsupportedEVMChain(segment, node)
}

func resolveEVMChainID(segment string, node netinfo.Info) (netinfo.Chain, bool) {
	if n, err := strconv.ParseUint(segment, 10, 64); err == nil && n == node.EVMChainID {
		return netinfo.C, true
	}
	if segment == node.ChainID(netinfo.C).String() {
		return netinfo.C, true
	}
	return 0, false
}

func unsupportedEVMChain(segment string, node netinfo.Info) *apiError {
	if n, err := strconv.ParseUint(segment, 10, 64); err == nil {
		if network, ok := wellKnownEVMChainIDs()[n]; ok {
			return badRequest("%s %d is the C-chain of %s; this node serves network '%s', whose C-chain is %d",
				paramChainID, n, network, node.Name(), node.EVMChainID)
		}
	}
	if err := foreignChainError(paramChainID, segment, node); err != nil {
		return err
	}
	return badRequest("unsupported %s '%s': this node serves the C-chain only, as EVM chain id %d or blockchain id '%s'",
		paramChainID, segment, node.EVMChainID, node.ChainID(netinfo.C))
}

// resolveMetricsChain resolves the {chainId} of the metrics endpoints that
// cover all three primary-network chains (avg TPS): any form
// resolveEVMChain accepts, plus the P/X/C blockchain IDs and aliases.
func resolveMetricsChain(segment string, node netinfo.Info) (netinfo.Chain, error) {
	if chain, ok := resolveEVMChainID(segment, node); ok {
		return chain, nil
	}
	if chain, ok := chainByAlias(segment); ok {
		return chain, nil
	}
	if chain, ok := chainByBlockchainID(segment, node); ok {
		return chain, nil
	}
	if n, err := strconv.ParseUint(segment, 10, 64); err == nil {
		if _, known := wellKnownEVMChainIDs()[n]; known {
			return 0, unsupportedEVMChain(segment, node)
		}
	}
	if err := foreignChainError(paramChainID, segment, node); err != nil {
		return 0, err
	}
	return 0, badRequest("unsupported %s '%s': must be one of %s, or the C-chain's EVM chain id %d",
		paramChainID, segment, describeChains(netinfo.Chains, node), node.EVMChainID)
}
