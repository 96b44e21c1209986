package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Block returns the P/X block at height with its tx IDs; false when it is
// not indexed.
func (r *PrimaryReader) Block(ctx context.Context, chain netinfo.Chain, height uint64) (pdata.IndexedBlock, bool, error) {
	var b pdata.IndexedBlock
	found := false
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		var err error
		b, found, err = loadIndexedBlock(ctx, txn, chain, height)
		return err
	})
	if err != nil {
		return pdata.IndexedBlock{}, false, fmt.Errorf("reading %s block %d: %w", chain, height, err)
	}
	return b, found, nil
}

// BlocksByProposer lists chain's blocks proposed by q.NodeID.
func (r *PrimaryReader) BlocksByProposer(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery) ([]pdata.IndexedBlock, error) {
	var out []pdata.IndexedBlock
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		prefix := proposerPrefix(chain, q.NodeID)
		lo, hi := blockQueryRange(prefix, q)
		return scanRange(ctx, txn, prefix, lo, hi, q.Desc, func(item *badger.Item) (bool, error) {
			height := binary.BigEndian.Uint64(item.Key()[len(prefix):])
			b, found, err := loadIndexedBlock(ctx, txn, chain, height)
			if err != nil {
				return false, err
			}
			if !found {
				return false, fmt.Errorf("proposer row of block %d without the block", height)
			}
			out = append(out, b)
			return q.Limit <= 0 || len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s blocks of %s: %w", chain, q.NodeID, err)
	}
	return out, nil
}

// blockQueryRange is the key range of q's heights under prefix (keys that
// end in a height): [FromHeight, ToHeight), past After in q's direction.
func blockQueryRange(prefix key, q pdata.BlockQuery) (lo, hi []byte) {
	lo = prefix.u64(q.FromHeight)
	if q.ToHeight != 0 {
		hi = prefix.u64(q.ToHeight)
	}
	if q.After != 0 {
		if q.Desc {
			hi = minKey(hi, prefix.u64(q.After))
		} else {
			lo = maxKey(lo, prefix.u64(q.After+1))
		}
	}
	return lo, hi
}

func loadIndexedBlock(ctx context.Context, txn *badger.Txn, chain netinfo.Chain, height uint64) (pdata.IndexedBlock, bool, error) {
	v, err := getValue(txn, blockKey(chain, height))
	if err != nil || v == nil {
		return pdata.IndexedBlock{}, false, err
	}
	rec, err := decodeBlock(chain, height, v)
	if err != nil {
		return pdata.IndexedBlock{}, false, fmt.Errorf("block %d: %w", height, err)
	}
	b := rec.IndexedBlock
	// The tx IDs are the chain's tx order rows of the block's positions
	// (the genesis pseudo tx has none; the X-chain's DAG txs follow its
	// genesis txs at height 0).
	prefix := newKey(tagPChainTx, chain).u64(height)
	hi := prefix.u32(uint32(rec.TxCount))
	err = scanRange(ctx, txn, prefix, prefix, hi, false, func(item *badger.Item) (bool, error) {
		id, err := itemID(item)
		b.TxIDs = append(b.TxIDs, id)
		return true, err
	})
	return b, true, err
}

// HeightAtTime returns the height of the last block of chain with a time <=
// ts (0 when none): a binary search over the block rows (P/X block records,
// C-chain EVM block rows), whose times do not decrease with height.
func (r *PrimaryReader) HeightAtTime(ctx context.Context, chain netinfo.Chain, ts int64) (uint64, error) {
	var height uint64
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		cursor, err := readCursor(txn, chain, StreamBlocks)
		if err != nil {
			return err
		}
		top := cursor.NextHeight - 1
		// The index holds [first, top]: a C-chain indexed from above
		// genesis answers first-1 when none of its blocks is at or
		// before ts (history.go).
		first := max(cursor.FirstHeight, 1)
		if top < first {
			height = top
			return nil
		}
		var failed error
		// The first height in [first, top] whose block is later than ts.
		later := sort.Search(int(top-first+1), func(i int) bool {
			if failed != nil {
				return true
			}
			t, err := blockTime(txn, chain, first+uint64(i))
			if err != nil {
				failed = err
				return true
			}
			return t > ts
		})
		height = first + uint64(later) - 1
		return failed
	})
	if err != nil {
		return 0, fmt.Errorf("finding the %s height at time %d: %w", chain, ts, err)
	}
	return height, nil
}

// blockTime reads the time of chain's block at height.
func blockTime(txn *badger.Txn, chain netinfo.Chain, height uint64) (int64, error) {
	if chain.IsPrimary() && chain != netinfo.C {
		v, err := getValue(txn, blockKey(chain, height))
		if err != nil {
			return 0, err
		}
		if v == nil {
			return 0, fmt.Errorf("block %d is not indexed", height)
		}
		b, err := decodeBlock(chain, height, v)
		return b.Time, err
	}
	row, err := blockCache{}.row(txn, chain, height)
	return int64(row.Timestamp), err
}
