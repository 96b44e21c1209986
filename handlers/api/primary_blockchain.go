package api

import "github.com/avadata/avadata/indexer/netinfo"

// ResolvePrimaryBlockchain resolves a primary-network chain named in a
// request body (an alias, p-chain, x-chain, c-chain, or its blockchain ID)
// among allowed, with the errors of {blockchainId}.
func ResolvePrimaryBlockchain(segment string, node netinfo.Info, allowed []netinfo.Chain) (netinfo.Chain, error) {
	return resolveBlockchain(segment, node, allowed)
}
