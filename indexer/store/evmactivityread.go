package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The read side of the activity rows (0x95, evmactivity.go): an address's
// typed histories. Each page walks the positions of the address's rows of
// one kind (position lists, positionlist.go) from the page's position
// within the block range and the pinned height, and reads one record per
// position (the tx at 0x80, the transfer at 0x85, the internal tx at 0x86
// with its tx's hash), plus the blocks they sit in: a page costs O(page
// size) reads whatever the length of the address's history.

// activityPage is one page of an address's rows of one kind.
type activityPage struct {
	addr   common.Address
	kind   byte
	blocks evmdata.BlockRange
	pinned uint64
	// after is the position (the key's suffix after the kind) of the last
	// item of the previous page; nil on the first page.
	after []byte
	desc  bool
	limit int
}

// scanActivity visits the rows of q in order, handing visit each row's
// position (height first, as keys.go lays it out for the kind), until it
// has visited q.limit rows.
func (s *Store) scanActivity(ctx context.Context, chain netinfo.Chain, q activityPage,
	visit func(txn *badger.Txn, pos []byte, blocks blockCache) error,
) error {
	if q.limit <= 0 {
		return nil
	}
	return s.read(ctx, func(txn *badger.Txn) error {
		prefix := activityPrefix(chain, q.addr, q.kind)
		prefix = prefix[:len(prefix):len(prefix)] // extended below in several ways: no shared spare capacity
		lo, hi := blockBounds(prefix, q.blocks, q.pinned)
		blocks := s.newBlockCache()
		visited := 0
		r := newListIter(txn, prefix, lo, hi, q.desc, activityRestWidth(q.kind), q.after)
		return scanPositions(ctx, r, func(pos []byte) (bool, error) {
			if err := visit(txn, pos, blocks); err != nil {
				return false, err
			}
			visited++
			return visited < q.limit, nil
		})
	})
}

// AddressNativeTxs lists the top-level transactions q.Address sent,
// received or created a contract by (its native history), without their
// transfers and internal transactions.
func (s *Store) AddressNativeTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error) {
	page := activityPage{addr: q.Address, kind: activityNative, blocks: q.Blocks, pinned: q.Pinned, desc: q.Desc, limit: q.Limit}
	if q.After != nil {
		page.after = key{}.u64(q.After.Block).u32(q.After.Index)
	}
	var out []evmdata.IndexedTx
	err := s.scanActivity(ctx, chain, page, func(txn *badger.Txn, pos []byte, blocks blockCache) error {
		if len(pos) != 12 {
			return fmt.Errorf("corrupt native activity row (position of %d bytes)", len(pos))
		}
		tx, _, err := loadTxRow(txn, chain, evmdata.TxPos{Block: beUint64(pos), Index: binary.BigEndian.Uint32(pos[8:])}, blocks)
		if err != nil {
			return err
		}
		out = append(out, tx)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s native transactions of %s: %w", chain, q.Address, err)
	}
	return out, nil
}

// AddressTransfers lists the token transfers of standard q.Kind that
// q.Address sent or received.
func (s *Store) AddressTransfers(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTransferQuery) ([]evmdata.IndexedTransfer, error) {
	kind, ok := activityKind(q.Kind)
	if !ok {
		return nil, fmt.Errorf("listing %s transfers of %s: no typed history of standard %s", chain, q.Address, q.Kind)
	}
	page := activityPage{addr: q.Address, kind: kind, blocks: q.Blocks, pinned: q.Pinned, desc: q.Desc, limit: q.Limit}
	if q.After != nil {
		page.after = key{}.u64(q.After.Block).u32(q.After.LogIndex).u16(q.After.BatchIndex)
	}
	var out []evmdata.IndexedTransfer
	err := s.scanActivity(ctx, chain, page, func(txn *badger.Txn, pos []byte, blocks blockCache) error {
		if len(pos) != 14 {
			return fmt.Errorf("corrupt transfer activity row (position of %d bytes)", len(pos))
		}
		t, err := loadTransfer(txn, chain, pos)
		if err != nil {
			return err
		}
		if t.Block, err = blocks.get(txn, chain, t.Block.Number); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s %s transfers of %s: %w", chain, q.Kind, q.Address, err)
	}
	return out, nil
}

// AddressInternalTxs lists the internal transactions q.Address sent or
// received.
func (s *Store) AddressInternalTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressInternalQuery) ([]evmdata.IndexedInternalTx, error) {
	page := activityPage{addr: q.Address, kind: activityInternal, blocks: q.Blocks, pinned: q.Pinned, desc: q.Desc, limit: q.Limit}
	if q.After != nil {
		page.after = key{}.u64(q.After.Block).u32(q.After.TxIndex).u32(q.After.Frame)
	}
	var out []evmdata.IndexedInternalTx
	hashes := map[evmdata.TxPos]common.Hash{} // a tx's frames share its hash
	err := s.scanActivity(ctx, chain, page, func(txn *badger.Txn, pos []byte, blocks blockCache) error {
		if len(pos) != 16 {
			return fmt.Errorf("corrupt internal activity row (position of %d bytes)", len(pos))
		}
		it, err := loadInternalAt(txn, chain, pos, blocks, hashes)
		if err != nil {
			return err
		}
		out = append(out, it)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s internal transactions of %s: %w", chain, q.Address, err)
	}
	return out, nil
}

// loadInternalAt reads the internal tx at pos (height | tx index | frame)
// with its block and its tx's hash.
func loadInternalAt(txn *badger.Txn, chain netinfo.Chain, pos []byte, blocks blockCache,
	hashes map[evmdata.TxPos]common.Hash,
) (evmdata.IndexedInternalTx, error) {
	txPos := evmdata.TxPos{Block: beUint64(pos), Index: binary.BigEndian.Uint32(pos[8:])}
	frame := binary.BigEndian.Uint32(pos[12:])
	v, err := getValue(txn, newKey(tagEVMITx, chain).bytes(pos))
	if err != nil {
		return evmdata.IndexedInternalTx{}, err
	}
	if v == nil {
		return evmdata.IndexedInternalTx{}, errors.New("activity row points at a missing internal tx")
	}
	t, err := decodeInternal(frame, v)
	if err != nil {
		return evmdata.IndexedInternalTx{}, fmt.Errorf("decoding internal tx %d/%d/%d: %w", txPos.Block, txPos.Index, frame, err)
	}
	out := evmdata.IndexedInternalTx{TxIndex: txPos.Index, InternalTx: t}
	if out.Block, err = blocks.get(txn, chain, txPos.Block); err != nil {
		return evmdata.IndexedInternalTx{}, err
	}
	hash, ok := hashes[txPos]
	if !ok {
		if hash, err = txHashAt(txn, chain, txPos); err != nil {
			return evmdata.IndexedInternalTx{}, err
		}
		hashes[txPos] = hash
	}
	out.TxHash = hash
	return out, nil
}

// txHashAt reads the hash of the tx at pos: the first field of its row, so
// the rest of a (possibly large) row is not decoded.
func txHashAt(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos) (common.Hash, error) {
	item, err := txn.Get(newKey(tagEVMTx, chain).u64(pos.Block).u32(pos.Index))
	if err != nil {
		return common.Hash{}, fmt.Errorf("reading tx %d/%d: %w", pos.Block, pos.Index, err)
	}
	var hash common.Hash
	err = item.Value(func(v []byte) error {
		r := rowReader{buf: v}
		if ver := r.byte(); ver != rowVersion1 {
			return fmt.Errorf("EVM tx row version %d", ver)
		}
		hash = r.hash()
		return r.err
	})
	if err != nil {
		return common.Hash{}, fmt.Errorf("decoding tx %d/%d: %w", pos.Block, pos.Index, err)
	}
	return hash, nil
}
