package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The EVM blocks and the chain's latest transactions: the block rows (0x81)
// with the fees and the cumulative tx count the writer derives, the block
// hash rows (0x98), and the status rows (0x99) that list a chain's failed
// transactions without reading the others (the successful ones list from the
// tx rows, skipping the failures).

// deriveBlock computes what a block row holds beyond the block: the fees
// its txs paid and the chain's cumulative tx count, carried from the
// previous block's row. Every block is committed exactly once, in order,
// with the cursor (commit.go), so the previous row is the chain's state
// before this block; block 1 follows the genesis block, which is not
// indexed and holds no transactions. A chain whose index starts later
// counts its txs from its first indexed block.
func deriveBlock(txn *blockTxn, chain netinfo.Chain, b *evmdata.Block) (blockDerived, error) {
	d := blockDerived{FeesSpent: new(big.Int), CumulativeTxs: uint64(len(b.Txs))}
	for i := range b.Txs {
		d.FeesSpent.Add(d.FeesSpent, txFee(&b.Txs[i]))
	}
	if txn.downward {
		// A back-filled block's count is re-derived once the blocks
		// before it are held (backfill.go).
		return d, nil
	}
	if b.Number <= max(txn.cursor.FirstHeight, 1) {
		// The first block held: genesis holds no transactions, and a chain
		// indexed from a later height counts from there (history.go).
		return d, nil
	}
	v, err := txn.get(newKey(tagEVMBlock, chain).u64(b.Number - 1))
	if err != nil {
		return blockDerived{}, fmt.Errorf("reading block %d: %w", b.Number-1, err)
	}
	if v == nil {
		return blockDerived{}, fmt.Errorf("block %d, which block %d carries on from, is not indexed", b.Number-1, b.Number)
	}
	prev, err := decodeEVMBlock(b.Number-1, v)
	if err != nil {
		return blockDerived{}, fmt.Errorf("decoding block %d: %w", b.Number-1, err)
	}
	d.CumulativeTxs += prev.CumulativeTxs
	return d, nil
}

// txFee is what a tx paid: gas used times the effective gas price (the
// legacy gas price when the receipt has none).
func txFee(tx *evmdata.Tx) *big.Int {
	price := tx.EffectiveGasPrice
	if price == nil {
		price = tx.GasPrice
	}
	if price == nil {
		return new(big.Int)
	}
	return new(big.Int).Mul(new(big.Int).SetUint64(tx.GasUsed), price)
}

// statusKey is the whole 0x99 key: the tx at pos has the receipt status.
func statusKey(chain netinfo.Chain, status uint8, height uint64, index uint32) []byte {
	return append(sizedKey(15, tagTxStatus), byte(chain), status).u64(height).u32(index)
}

func statusPrefix(chain netinfo.Chain, status uint8) key {
	return key{tagTxStatus, byte(chain), status}
}

// EVMBlocks lists a chain's blocks, newest first, at most q.Pinned and below
// q.After.
func (s *Store) EVMBlocks(ctx context.Context, chain netinfo.Chain, q evmdata.BlockQuery) ([]evmdata.BlockSummary, error) {
	var out []evmdata.BlockSummary
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagEVMBlock, chain)
		_, hi := blockBounds(prefix, evmdata.BlockRange{}, q.Pinned)
		if q.After != nil {
			hi = minKey(hi, prefix.u64(*q.After))
		}
		return scanRange(ctx, txn, prefix, prefix, hi, true, func(item *badger.Item) (bool, error) {
			number := binary.BigEndian.Uint64(item.Key()[len(prefix):])
			v, err := item.ValueCopy(nil)
			if err != nil {
				return false, err
			}
			row, err := decodeEVMBlock(number, v)
			if err != nil {
				return false, fmt.Errorf("decoding block %d: %w", number, err)
			}
			out = append(out, row.summary())
			return len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s blocks: %w", chain, err)
	}
	return out, nil
}

// EVMBlock returns the block at number; false when it is not indexed.
func (s *Store) EVMBlock(ctx context.Context, chain netinfo.Chain, number uint64) (evmdata.BlockSummary, bool, error) {
	var out evmdata.BlockSummary
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		row, ok, err := readEVMBlock(txn, chain, number)
		out, found = row.summary(), ok
		return err
	})
	if err != nil {
		return evmdata.BlockSummary{}, false, fmt.Errorf("reading %s block %d: %w", chain, number, err)
	}
	return out, found, nil
}

// EVMBlockByHash returns the block with hash; false when no indexed block
// has it.
func (s *Store) EVMBlockByHash(ctx context.Context, chain netinfo.Chain, hash common.Hash) (evmdata.BlockSummary, bool, error) {
	var out evmdata.BlockSummary
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, blockHashKey(chain, hash))
		if err != nil || v == nil {
			return err
		}
		if len(v) != 8 {
			return fmt.Errorf("corrupt block hash row of %s", hash)
		}
		row, ok, err := readEVMBlock(txn, chain, beUint64(v))
		if err == nil && !ok {
			err = fmt.Errorf("the hash row of %s points at block %d, which is not indexed", hash, beUint64(v))
		}
		out, found = row.summary(), ok
		return err
	})
	if err != nil {
		return evmdata.BlockSummary{}, false, fmt.Errorf("reading %s block %s: %w", chain, hash, err)
	}
	return out, found, nil
}

func readEVMBlock(txn *badger.Txn, chain netinfo.Chain, number uint64) (evmBlockRow, bool, error) {
	v, err := getValue(txn, newKey(tagEVMBlock, chain).u64(number))
	if err != nil || v == nil {
		return evmBlockRow{}, false, err
	}
	row, err := decodeEVMBlock(number, v)
	return row, err == nil, err
}

func (b evmBlockRow) summary() evmdata.BlockSummary {
	return evmdata.BlockSummary{
		BlockRef:       b.BlockRef,
		ParentHash:     b.ParentHash,
		GasUsed:        b.GasUsed,
		GasLimit:       b.GasLimit,
		BlockGasCost:   b.BlockGasCost,
		TimestampMs:    b.TimestampMs,
		MinDelayExcess: b.MinDelayExcess,
		TxCount:        b.TxCount,
		FeesSpent:      b.FeesSpent,
		CumulativeTxs:  b.CumulativeTxs,
	}
}

// EVMBlockTxs lists the txs of block number in block order, after the tx
// at index after (nil: from the first). Each carries its block but no
// transfers or internal txs (the NativeTransaction shape).
func (s *Store) EVMBlockTxs(ctx context.Context, chain netinfo.Chain, number uint64, after *uint32, limit int) ([]evmdata.IndexedTx, error) {
	var out []evmdata.IndexedTx
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagEVMTx, chain).u64(number)
		prefix = prefix[:len(prefix):len(prefix)] // extended below in two ways
		lo := prefix.u32(0)
		if after != nil {
			if *after == math.MaxUint32 {
				return nil
			}
			lo = prefix.u32(*after + 1)
		}
		blocks := s.newBlockCache()
		return scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
			tx, err := nativeTxOf(txn, chain, number, item, blocks)
			if err != nil {
				return false, err
			}
			out = append(out, tx)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s transactions of block %d: %w", chain, number, err)
	}
	return out, nil
}

// LatestEVMTxs lists a chain's transactions, newest first. The failed ones
// it reads through their status rows; the succeeded ones through the tx
// rows, stepping over the failed ones' keys alongside their status rows
// without reading them (a row per succeeded tx would cost the writer an
// entry per tx). Either way it reads no tx it does not return.
func (s *Store) LatestEVMTxs(ctx context.Context, chain netinfo.Chain, q evmdata.LatestTxQuery) ([]evmdata.IndexedTx, error) {
	var out []evmdata.IndexedTx
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagEVMTx, chain)
		switch q.Status {
		case evmdata.FailedOnly:
			prefix = statusPrefix(chain, 0)
		}
		_, hi := blockBounds(prefix, evmdata.BlockRange{}, q.Pinned)
		if q.After != nil {
			hi = minKey(hi, prefix.u64(q.After.Block).u32(q.After.Index))
		}
		var failures *rangeIter
		if q.Status == evmdata.SucceededOnly {
			f := statusPrefix(chain, 0)
			var fhi []byte // the tx rows' bound, over the failure rows
			if hi != nil {
				fhi = slices.Concat(f, hi[len(prefix):])
			}
			failed := newRangeIter(txn, f, f, fhi, true)
			defer failed.close()
			failures = &failed
		}
		blocks := s.newBlockCache()
		return scanRange(ctx, txn, prefix, prefix, hi, true, func(item *badger.Item) (bool, error) {
			suffix := item.Key()[len(prefix):]
			if failures != nil && isFailure(failures, suffix) {
				return true, nil
			}
			height := binary.BigEndian.Uint64(suffix)
			var tx evmdata.IndexedTx
			var err error
			if q.Status == evmdata.FailedOnly {
				tx, err = loadNativeTx(txn, chain, evmdata.TxPos{Block: height, Index: binary.BigEndian.Uint32(suffix[8:])}, blocks)
			} else {
				tx, err = nativeTxOf(txn, chain, height, item, blocks)
			}
			if err != nil {
				return false, err
			}
			if q.Status == evmdata.SucceededOnly && !tx.Tx.Succeeded() {
				return true, nil
			}
			out = append(out, tx)
			return len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing the latest %s transactions: %w", chain, err)
	}
	return out, nil
}

// isFailure reports whether the tx at pos (height | index) has a failure
// row, moving failures (descending, ahead of pos) down to it.
func isFailure(failures *rangeIter, pos []byte) bool {
	for failures.valid() && string(failures.suffix()) > string(pos) {
		failures.next()
	}
	return failures.valid() && string(failures.suffix()) == string(pos)
}

// nativeTxOf decodes the tx row item (a 0x80 row of block height) with its
// block, without its transfers and internal txs.
func nativeTxOf(txn *badger.Txn, chain netinfo.Chain, height uint64, item *badger.Item, blocks blockCache) (evmdata.IndexedTx, error) {
	k := item.Key()
	index := binary.BigEndian.Uint32(k[len(k)-4:])
	v, err := item.ValueCopy(nil)
	if err != nil {
		return evmdata.IndexedTx{}, err
	}
	return nativeTx(txn, chain, evmdata.TxPos{Block: height, Index: index}, v, blocks)
}

// loadNativeTx reads the tx at pos as nativeTxOf shows it.
func loadNativeTx(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, blocks blockCache) (evmdata.IndexedTx, error) {
	v, err := indexedTxRow(txn, chain, pos)
	if err != nil {
		return evmdata.IndexedTx{}, err
	}
	return nativeTx(txn, chain, pos, v, blocks)
}

// indexedTxRow reads the row of a tx an index row points at: missing is
// an error.
func indexedTxRow(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos) ([]byte, error) {
	v, err := getValue(txn, newKey(tagEVMTx, chain).u64(pos.Block).u32(pos.Index))
	if err == nil && v == nil {
		err = fmt.Errorf("tx %d/%d is indexed but its row is missing", pos.Block, pos.Index)
	}
	return v, err
}

func nativeTx(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, v []byte, blocks blockCache) (evmdata.IndexedTx, error) {
	tx, _, err := txWithBlock(txn, chain, pos, v, blocks)
	return tx, err
}
