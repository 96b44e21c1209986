package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The EVM read side. Every list is bounded by its query's limit and by key
// ranges: no query reads more than the rows it returns (plus the ones a
// block range skips by seeking; a list of the succeeded txs steps over the
// keys of the failed ones between, LatestEVMTxs).

// AddressTxs lists the transactions that involve q.Address; each carries only
// the transfers and internal transactions that involve it. They are the
// merge of the address's native rows (0x95, sender, recipient or created
// contract) and its other-role rows (0x82, token transfers and internal
// txs); a tx in both (an index written before 0x82 left the native parties
// out) is listed once.
func (s *Store) AddressTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error) {
	var out []evmdata.IndexedTx
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefixes := [2]key{newKey(tagEVMAddr, chain).addr(q.Address), activityPrefix(chain, q.Address, activityNative)}
		ranges := make([]rangeIter, 0, len(prefixes))
		for _, prefix := range prefixes {
			lo, hi := blockBounds(prefix, q.Blocks, q.Pinned)
			var after []byte
			if q.After != nil {
				after = key{}.u64(q.After.Block).u32(q.After.Index)
			}
			ranges = append(ranges, newListIter(txn, prefix, lo, hi, q.Desc, 4, after))
		}
		blocks := s.newBlockCache()
		return mergeRanges(ctx, ranges, evmTxOrder, func(pos evmdata.TxPos, _ *badger.Item) (bool, error) {
			tx, err := loadTx(txn, chain, pos, &q.Address, blocks)
			if err != nil {
				return false, err
			}
			out = append(out, tx)
			return len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s transactions of %s: %w", chain, q.Address, err)
	}
	return out, nil
}

// evmTxOrder orders the rows that end in an EVM tx position, height(8) |
// index(4).
var evmTxOrder = keyOrder[evmdata.TxPos]{
	at: func(suffix []byte) evmdata.TxPos {
		return evmdata.TxPos{Block: binary.BigEndian.Uint64(suffix), Index: binary.BigEndian.Uint32(suffix[8:])}
	},
	compare: func(a, b evmdata.TxPos) int {
		if c := cmp.Compare(a.Block, b.Block); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	},
}

// TxByHash returns a transaction with all its transfers and internal txs.
func (s *Store) TxByHash(ctx context.Context, chain netinfo.Chain, hash common.Hash) (evmdata.IndexedTx, bool, error) {
	var tx evmdata.IndexedTx
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, newKey(tagEVMHash, chain).hash(hash))
		if err != nil || v == nil {
			return err
		}
		if len(v) != 12 {
			return fmt.Errorf("corrupt tx hash row of %s", hash)
		}
		found = true
		pos := evmdata.TxPos{Block: binary.BigEndian.Uint64(v), Index: binary.BigEndian.Uint32(v[8:])}
		tx, err = loadTx(txn, chain, pos, nil, s.newBlockCache())
		return err
	})
	if err != nil {
		return evmdata.IndexedTx{}, false, fmt.Errorf("reading %s tx %s: %w", chain, hash, err)
	}
	return tx, found, nil
}

// TokenTransfers lists a token contract's transfers, newest first.
func (s *Store) TokenTransfers(ctx context.Context, chain netinfo.Chain, q evmdata.TransferQuery) ([]evmdata.IndexedTransfer, error) {
	var out []evmdata.IndexedTransfer
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagEVMToken, chain).addr(q.Token)
		lo, hi := blockBounds(prefix, q.Blocks, q.Pinned)
		var after []byte
		if q.After != nil {
			after = key{}.u64(q.After.Block).u32(q.After.LogIndex).u16(q.After.BatchIndex)
		}
		blocks := s.newBlockCache()
		r := newListIter(txn, prefix, lo, hi, true, 6, after)
		return scanPositions(ctx, r, func(at []byte) (bool, error) {
			t, err := loadTransfer(txn, chain, at)
			if err != nil {
				return false, err
			}
			if t.Block, err = blocks.get(txn, chain, t.Block.Number); err != nil {
				return false, err
			}
			out = append(out, t)
			return len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s transfers of %s: %w", chain, q.Token, err)
	}
	return out, nil
}

func loadTransfer(txn *badger.Txn, chain netinfo.Chain, at []byte) (evmdata.IndexedTransfer, error) {
	v, err := getValue(txn, newKey(tagEVMXfer, chain).bytes(at))
	if err != nil {
		return evmdata.IndexedTransfer{}, err
	}
	if v == nil {
		return evmdata.IndexedTransfer{}, errors.New("token index points at a missing transfer")
	}
	t, err := decodeTransfer(binary.BigEndian.Uint32(at[8:]), binary.BigEndian.Uint16(at[12:]), v)
	t.Block.Number = binary.BigEndian.Uint64(at)
	return t, err
}

// blockBounds turns a block range and the pinned height into key bounds
// below prefix (whose keys continue with height(8)).
func blockBounds(prefix key, r evmdata.BlockRange, pinned uint64) ([]byte, []byte) {
	lo := prefix.u64(r.From)
	upper := uint64(math.MaxUint64)
	if r.To != 0 {
		upper = r.To
	}
	if pinned != 0 && pinned < upper {
		upper = pinned + 1
	}
	if upper == math.MaxUint64 {
		return lo, nil
	}
	return lo, prefix.u64(upper)
}

// blockCache keeps the block rows one request reads, since a page's items
// often share blocks, in front of the store's blockRows (evmblockrows.go),
// which keeps them across requests. The zero value keeps nothing.
type blockCache struct {
	local  map[uint64]evmBlockRow
	shared *blockRows
}

// newBlockCache is a request's block cache, backed by the store's.
func (s *Store) newBlockCache() blockCache {
	return blockCache{local: map[uint64]evmBlockRow{}, shared: s.blockRows}
}

func (c blockCache) get(txn *badger.Txn, chain netinfo.Chain, number uint64) (evmdata.BlockRef, error) {
	row, err := c.row(txn, chain, number)
	return row.BlockRef, err
}

func (c blockCache) row(txn *badger.Txn, chain netinfo.Chain, number uint64) (evmBlockRow, error) {
	if row, ok := c.local[number]; ok {
		return row, nil
	}
	if row, ok := c.shared.get(chain, number); ok {
		c.keep(number, row)
		return row, nil
	}
	v, err := getValue(txn, newKey(tagEVMBlock, chain).u64(number))
	if err != nil {
		return evmBlockRow{}, err
	}
	if v == nil {
		return evmBlockRow{}, fmt.Errorf("block %d is not indexed", number)
	}
	row, err := decodeEVMBlock(number, v)
	if err == nil {
		c.keep(number, row)
		c.shared.put(chain, number, row)
	}
	return row, err
}

func (c blockCache) keep(number uint64, row evmBlockRow) {
	if c.local != nil {
		c.local[number] = row
	}
}
