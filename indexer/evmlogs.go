package indexer

import (
	"context"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TransactionLogs reads a transaction's event logs on an EVM chain from the
// node's receipt (the index keeps none): false when the node has no receipt
// for hash.
func (ix *Indexer) TransactionLogs(ctx context.Context, chain netinfo.Chain, hash common.Hash) ([]evmdata.Log, bool, error) {
	c, err := ix.evmClient(chain)
	if err != nil {
		return nil, false, err
	}
	return c.TransactionLogs(ctx, hash)
}
