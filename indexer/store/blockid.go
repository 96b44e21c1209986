package store

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// P/X blocks by ID and in height order (keys.go 0x40, 0x45): the block
// records are keyed by height; the block-ID rows lead from a block's
// (outer, proposervm) ID, the blockHash the API shows, to that height.

// blockIDKey is the whole 0x45 key: the chain's block with that ID.
func blockIDKey(chain netinfo.Chain, id ids.ID) []byte {
	return append(sizedKey(34, tagBlockID), byte(chain)).id(id)
}

// writeBlockID writes the row that finds block b by its ID.
func writeBlockID(txn *blockTxn, chain netinfo.Chain, b *pdata.Block) error {
	return txn.set(blockIDKey(chain, b.ID), binary.BigEndian.AppendUint64(nil, b.Number))
}

// Blocks lists chain's blocks (P or X) by height as q selects them
// (q.NodeID is not a filter here).
func (r *PrimaryReader) Blocks(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery) ([]pdata.IndexedBlock, error) {
	var out []pdata.IndexedBlock
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagBlock, chain)
		lo, hi := blockQueryRange(prefix, q)
		return scanRange(ctx, txn, prefix, lo, hi, q.Desc, func(item *badger.Item) (bool, error) {
			height := beUint64(item.Key()[len(prefix):])
			b, _, err := loadIndexedBlock(ctx, txn, chain, height)
			if err != nil {
				return false, err
			}
			out = append(out, b)
			return q.Limit <= 0 || len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s blocks: %w", chain, err)
	}
	return out, nil
}

// BlockByID returns chain's block (P or X) with that ID; false when no
// indexed block has it.
func (r *PrimaryReader) BlockByID(ctx context.Context, chain netinfo.Chain, id ids.ID) (pdata.IndexedBlock, bool, error) {
	var b pdata.IndexedBlock
	found := false
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, blockIDKey(chain, id))
		if err != nil || v == nil {
			return err
		}
		if len(v) != 8 {
			return fmt.Errorf("block ID row of %d bytes", len(v))
		}
		height := beUint64(v)
		if b, found, err = loadIndexedBlock(ctx, txn, chain, height); err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("block ID row names height %d, which has no block", height)
		}
		return nil
	})
	if err != nil {
		return pdata.IndexedBlock{}, false, fmt.Errorf("reading %s block %s: %w", chain, id, err)
	}
	return b, found, nil
}
