package api

import "github.com/avadata/avadata/indexer/netinfo"

// EVMChainName is the name an EVM chain is listed by (the Data API's
// ChainInfo.chainName and the Metrics API's Chain.chainName): the C-chain's
// display name, any other chain's name on the P-chain.
func EVMChainName(chain netinfo.ChainInfo) string {
	if chain.Chain == netinfo.C {
		return "Avalanche (C-Chain)"
	}
	return ChainLabel(chain)
}
