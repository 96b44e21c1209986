package store

import (
	"encoding/binary"
	"fmt"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// loadTx reads the tx at pos with its block, transfers and internal txs;
// with only set, the lists keep just the entries that involve *only.
func loadTx(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, only *common.Address, blocks blockCache) (evmdata.IndexedTx, error) {
	out, row, err := loadTxRow(txn, chain, pos, blocks)
	if err != nil {
		return evmdata.IndexedTx{}, err
	}
	if out.Tx.Transfers, err = loadTxTransfers(txn, chain, pos, row.span, only); err != nil {
		return evmdata.IndexedTx{}, err
	}
	if row.internal > 0 {
		if out.Tx.Internal, err = loadInternal(txn, chain, pos, only); err != nil {
			return evmdata.IndexedTx{}, err
		}
	}
	return out, nil
}

// loadTxRow reads the tx at pos with its block, without its transfers and
// internal txs (row says where they are).
func loadTxRow(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, blocks blockCache) (evmdata.IndexedTx, evmTxRow, error) {
	v, err := indexedTxRow(txn, chain, pos)
	if err != nil {
		return evmdata.IndexedTx{}, evmTxRow{}, err
	}
	return txWithBlock(txn, chain, pos, v, blocks)
}

// txWithBlock decodes the tx row v at pos and adds its block.
func txWithBlock(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, v []byte, blocks blockCache) (evmdata.IndexedTx, evmTxRow, error) {
	row, err := decodeEVMTx(pos.Index, v)
	if err != nil {
		return evmdata.IndexedTx{}, evmTxRow{}, fmt.Errorf("decoding tx %d/%d: %w", pos.Block, pos.Index, err)
	}
	block, err := blocks.row(txn, chain, pos.Block)
	if err != nil {
		return evmdata.IndexedTx{}, evmTxRow{}, err
	}
	return evmdata.IndexedTx{Block: block.BlockRef, Tx: row.Tx, Traced: block.Traced}, row, nil
}

func loadTxTransfers(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, span txTransferSpan,
	only *common.Address,
) ([]evmdata.TokenTransfer, error) {
	if span.count == 0 {
		return nil, nil
	}
	if span.count == 1 {
		t, found, err := loadOnlyTransfer(txn, chain, pos, span.firstLog)
		if err != nil || found {
			if err != nil || (only != nil && !t.Involves(*only)) {
				return nil, err
			}
			return []evmdata.TokenTransfer{t}, nil
		}
	}
	prefix := newKey(tagEVMXfer, chain).u64(pos.Block)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	var out []evmdata.TokenTransfer
	for it.Seek(prefix.u32(span.firstLog)); it.ValidForPrefix(prefix); it.Next() {
		at := it.Item().Key()[len(prefix)-8:]
		if binary.BigEndian.Uint32(at[8:]) > span.lastLog {
			break
		}
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			return nil, err
		}
		t, err := decodeTransfer(binary.BigEndian.Uint32(at[8:]), binary.BigEndian.Uint16(at[12:]), v)
		if err != nil {
			return nil, fmt.Errorf("decoding transfer of tx %d/%d: %w", pos.Block, pos.Index, err)
		}
		if t.TxIndex == pos.Index && (only == nil || t.Involves(*only)) {
			out = append(out, t.TokenTransfer)
		}
	}
	return out, nil
}

// loadOnlyTransfer reads the one transfer of a tx that has one (most token
// transfers) with a point read at its log's first batch entry, which costs
// a fraction of an iterator; found is false when it is not there (an
// ERC-1155 batch entry), and the span is then read in full.
func loadOnlyTransfer(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, logIndex uint32) (evmdata.TokenTransfer, bool, error) {
	v, err := getValue(txn, newKey(tagEVMXfer, chain).u64(pos.Block).u32(logIndex).u16(0))
	if err != nil || v == nil {
		return evmdata.TokenTransfer{}, false, err
	}
	t, err := decodeTransfer(logIndex, 0, v)
	if err != nil {
		return evmdata.TokenTransfer{}, false, fmt.Errorf("decoding transfer of tx %d/%d: %w", pos.Block, pos.Index, err)
	}
	return t.TokenTransfer, t.TxIndex == pos.Index, nil
}

func loadInternal(txn *badger.Txn, chain netinfo.Chain, pos evmdata.TxPos, only *common.Address) ([]evmdata.InternalTx, error) {
	prefix := newKey(tagEVMITx, chain).u64(pos.Block).u32(pos.Index)
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	var out []evmdata.InternalTx
	for it.Rewind(); it.ValidForPrefix(prefix); it.Next() {
		frame := binary.BigEndian.Uint32(it.Item().Key()[len(prefix):])
		v, err := it.Item().ValueCopy(nil)
		if err != nil {
			return nil, err
		}
		t, err := decodeInternal(frame, v)
		if err != nil {
			return nil, fmt.Errorf("decoding internal tx of %d/%d: %w", pos.Block, pos.Index, err)
		}
		if only == nil || t.Involves(*only) {
			out = append(out, t)
		}
	}
	return out, nil
}
