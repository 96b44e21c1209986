package nodeapi

import (
	"context"
	"fmt"

	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// BlockServed reports whether the node serves block h whole: the block and
// its receipts. A node that state-synced the chain has neither below the
// sync point, and only the bodies of the few blocks under it.
func (c *EVMClient) BlockServed(ctx context.Context, h uint64) (bool, error) {
	var block *EVMBlock
	var receipts []EVMReceipt
	elems := []rpc.BatchElem{
		{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(h), true}, Result: &block},
		{Method: "eth_getBlockReceipts", Args: []any{hexutil.Uint64(h)}, Result: &receipts},
	}
	if err := callBatch(ctx, c.rpc, elems, blockBatchCalls); err != nil {
		return false, fmt.Errorf("%s block %d: %w", c.chain, h, err)
	}
	if elems[0].Error != nil {
		if isNotAccepted(elems[0].Error) {
			return false, nil
		}
		return false, fmt.Errorf("%s eth_getBlockByNumber(%d): %w", c.chain, h, elems[0].Error)
	}
	if block == nil {
		return false, nil
	}
	// A block whose receipts the node lacks answers an error ("receipts
	// length mismatch") or null, depending on the node's version.
	if elems[1].Error != nil || (receipts == nil && len(block.Transactions) > 0) {
		return false, nil
	}
	return len(receipts) == len(block.Transactions), nil
}
