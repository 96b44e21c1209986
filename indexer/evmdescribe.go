package indexer

import (
	"context"
	"fmt"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/evmmeta"
	"github.com/avadata/avadata/indexer/netinfo"
)

// DescribeContract reads a contract's name, symbol, decimals (and its
// standard, when c's is unknown) from the node now, without storing them:
// the background describer stores them when it reaches the contract.
func (ix *Indexer) DescribeContract(ctx context.Context, chain netinfo.Chain, c evmdata.Contract) (evmdata.Contract, error) {
	ix.mu.Lock()
	node, ok := ix.evm[chain]
	ix.mu.Unlock()
	if !ok {
		return c, fmt.Errorf("chain %s is not a followed EVM chain", chain)
	}
	return evmmeta.Describe(ctx, node, c)
}
