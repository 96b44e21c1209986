package nodeapi

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// What a node serves of an EVM chain's history. A node with the chain's
// whole history serves every block with its receipts. A node that
// state-synced the chain (coreth, subnet-evm: evm/sync) holds, below the
// summary block, only the bodies of its 256 parents (for BLOCKHASH), without
// receipts, and nothing older; a pruning node serves a suffix too. In that
// window a block with no transactions answers eth_getBlockReceipts with an
// empty list, just as a served one does, so it looks served although it
// lies below blocks that are not: the binary search alone can land there.
// EarliestServed therefore checks a window above the search's answer and
// moves up past any block it finds not served.

// servedWindow is how far above a candidate every block must be served:
// more than the 256 receipt-less parents a state-synced node holds.
const servedWindow = 300

// servedShape is as much of a block and its receipts as judging whether
// the node serves them needs.
type servedShape struct {
	block    *struct{ Transactions []json.RawMessage }
	receipts []json.RawMessage
}

// servedElems are the calls that tell whether block h is served: the block
// (transaction hashes only) and its receipts.
func servedElems(h uint64, into *servedShape) []rpc.BatchElem {
	return []rpc.BatchElem{
		{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(h), false}, Result: &into.block},
		{Method: "eth_getBlockReceipts", Args: []any{hexutil.Uint64(h)}, Result: &into.receipts},
	}
}

// judgeServed reads the answers of servedElems: served when the node has the
// block and as many receipts as it has transactions.
func (c *EVMClient) judgeServed(h uint64, elems []rpc.BatchElem, got *servedShape) (bool, error) {
	if elems[0].Error != nil {
		if isNotAccepted(elems[0].Error) {
			return false, nil
		}
		return false, fmt.Errorf("%s eth_getBlockByNumber(%d): %w", c.chain, h, elems[0].Error)
	}
	if got.block == nil {
		return false, nil
	}
	// A block whose receipts the node lacks answers an error ("receipts
	// length mismatch") or null, depending on the node's version.
	if elems[1].Error != nil || (got.receipts == nil && len(got.block.Transactions) > 0) {
		return false, nil
	}
	return len(got.receipts) == len(got.block.Transactions), nil
}

// BlockServed reports whether the node serves block h whole: the block and
// its receipts. Below a state-synced node's summary block an empty block
// looks served (see above): EarliestServed accounts for it.
func (c *EVMClient) BlockServed(ctx context.Context, h uint64) (bool, error) {
	served, err := c.BlocksServed(ctx, h, h)
	if err != nil {
		return false, err
	}
	return served[0], nil
}

// BlocksServed reports BlockServed for every block from..to, in batches.
func (c *EVMClient) BlocksServed(ctx context.Context, from, to uint64) ([]bool, error) {
	if to < from {
		return nil, nil
	}
	n := int(to - from + 1)
	shapes := make([]servedShape, n)
	elems := make([]rpc.BatchElem, 0, 2*n)
	for i := range shapes {
		elems = append(elems, servedElems(from+uint64(i), &shapes[i])...)
	}
	if err := callBatch(ctx, c.rpc, elems, blockBatchCalls); err != nil {
		return nil, fmt.Errorf("%s blocks %d to %d: %w", c.chain, from, to, err)
	}
	out := make([]bool, n)
	for i := range shapes {
		served, err := c.judgeServed(from+uint64(i), elems[2*i:2*i+2], &shapes[i])
		if err != nil {
			return nil, err
		}
		out[i] = served
	}
	return out, nil
}

// EarliestServed returns the lowest height from which the node serves
// every block, with its receipts, up to head (its last accepted block,
// served): 1 on a node with the chain's whole history.
func (c *EVMClient) EarliestServed(ctx context.Context, head uint64) (uint64, error) {
	return earliestServed(ctx, head, c.BlocksServed)
}

// earliestServed finds the earliest served height through served (a
// BlocksServed): a binary search for the lowest block served above one
// that is not, then a walk up until servedWindow blocks from the answer
// (or all up to head) are served.
func earliestServed(ctx context.Context, head uint64,
	served func(ctx context.Context, from, to uint64) ([]bool, error),
) (uint64, error) {
	if head <= 1 {
		return 1, nil
	}
	one := func(h uint64) (bool, error) {
		s, err := served(ctx, h, h)
		if err != nil {
			return false, err
		}
		return s[0], nil
	}
	candidate := uint64(1)
	ok, err := one(1)
	if err != nil {
		return 0, err
	}
	if !ok {
		lo, hi := uint64(1), head // lo is not served, hi is
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			ok, err := one(mid)
			if err != nil {
				return 0, err
			}
			if ok {
				hi = mid
			} else {
				lo = mid
			}
		}
		candidate = hi
	}
	for candidate < head {
		to := min(candidate+servedWindow-1, head)
		window, err := served(ctx, candidate, to)
		if err != nil {
			return 0, err
		}
		last := -1 // the highest block of the window not served
		for i, s := range window {
			if !s {
				last = i
			}
		}
		if last < 0 {
			return candidate, nil
		}
		candidate += uint64(last) + 1
	}
	return head, nil
}
