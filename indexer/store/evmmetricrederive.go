package store

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
)

// A back-fill's re-derive (backfill.go) counts each block into the metric
// rows through applyMetrics, as the writer did, from what the store holds
// of it: the tx rows with their receipts (0x80), the transfer rows (0x85),
// and the contracts the txs created, rebuilt from the tx rows and the
// internal tx rows (0x86) as evmchain builds evmdata.Tx.Creations: the
// contract a successful creation tx deployed, then the CREATE and CREATE2
// frames of its trace no revert undid, in frame order.

// storedTransfers reads the transfers of blocks [from, to), by block, in
// log order.
func (w *EVMWriter) storedTransfers(ctx context.Context, txn *blockTxn, from, to uint64) (map[uint64][]evmdata.IndexedTransfer, error) {
	prefix := newKey(tagEVMXfer, w.chain)
	out := map[uint64][]evmdata.IndexedTransfer{}
	err := scanRange(ctx, txn.txn, prefix, prefix.u64(from), prefix.u64(to), false, func(item *badger.Item) (bool, error) {
		key := item.Key()[len(prefix):]
		if len(key) != 8+4+2 {
			return false, fmt.Errorf("transfer key of %d bytes", len(item.Key()))
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return false, err
		}
		it, err := decodeTransfer(binary.BigEndian.Uint32(key[8:]), binary.BigEndian.Uint16(key[12:]), v)
		if err != nil {
			return false, err
		}
		h := binary.BigEndian.Uint64(key)
		out[h] = append(out[h], it)
		return true, nil
	})
	return out, err
}

// nftMoves are the ERC-721 and ERC-1155 transfers among transfers.
func nftMoves(transfers []evmdata.IndexedTransfer) []evmdata.TokenTransfer {
	var out []evmdata.TokenTransfer
	for i := range transfers {
		if t := transfers[i].TokenTransfer; t.Kind == evmdata.Erc721 || t.Kind == evmdata.Erc1155 {
			out = append(out, t)
		}
	}
	return out
}

// storedMetricTxs rebuilds, for blocks [from, to), the txs as the metric
// rows see them: sender, recipient, receipt, transfers and creations (no
// input, no internal txs).
func (w *EVMWriter) storedMetricTxs(ctx context.Context, txn *blockTxn, from, to uint64,
	transfers map[uint64][]evmdata.IndexedTransfer,
) (map[uint64][]evmdata.Tx, error) {
	out := map[uint64][]evmdata.Tx{}
	prefix := newKey(tagEVMTx, w.chain)
	err := scanRange(ctx, txn.txn, prefix, prefix.u64(from), prefix.u64(to), false, func(item *badger.Item) (bool, error) {
		key := item.Key()[len(prefix):]
		if len(key) != 8+4 {
			return false, fmt.Errorf("tx key of %d bytes", len(item.Key()))
		}
		var row evmTxRow
		err := item.Value(func(v []byte) error {
			var err error
			row, err = decodeEVMTx(binary.BigEndian.Uint32(key[8:]), v)
			return err
		})
		if err != nil {
			return false, err
		}
		tx := evmdata.Tx{Index: row.Index, From: row.From, To: row.To, Status: row.Status, GasUsed: row.GasUsed,
			GasPrice: row.GasPrice, EffectiveGasPrice: row.EffectiveGasPrice, ContractAddress: row.ContractAddress}
		if tx.IsCreation() && tx.Succeeded() && tx.ContractAddress != nil {
			tx.Creations = []evmdata.ContractCreation{{Address: *tx.ContractAddress, Deployer: tx.From}}
		}
		h := binary.BigEndian.Uint64(key)
		out[h] = append(out[h], tx)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	for h, txs := range out {
		for _, t := range transfers[h] {
			if i := txAt(txs, t.TxIndex); i >= 0 {
				txs[i].Transfers = append(txs[i].Transfers, t.TokenTransfer)
			}
		}
	}
	prefix = newKey(tagEVMITx, w.chain)
	err = scanRange(ctx, txn.txn, prefix, prefix.u64(from), prefix.u64(to), false, func(item *badger.Item) (bool, error) {
		key := item.Key()[len(prefix):]
		if len(key) != 8+4+4 {
			return false, fmt.Errorf("internal tx key of %d bytes", len(item.Key()))
		}
		var it evmdata.InternalTx
		err := item.Value(func(v []byte) error {
			var err error
			it, err = decodeInternal(binary.BigEndian.Uint32(key[12:]), v)
			return err
		})
		if err != nil {
			return false, err
		}
		if !it.Type.IsCreate() || it.Reverted || it.To == (common.Address{}) {
			return true, nil
		}
		txs := out[binary.BigEndian.Uint64(key)]
		if i := txAt(txs, binary.BigEndian.Uint32(key[8:])); i >= 0 && txs[i].Succeeded() {
			txs[i].Creations = append(txs[i].Creations,
				evmdata.ContractCreation{Address: it.To, Deployer: txs[i].From, DeployerContract: it.From})
		}
		return true, nil
	})
	return out, err
}

// txAt is the position in txs (in block order) of the tx at index, -1 when
// none.
func txAt(txs []evmdata.Tx, index uint32) int {
	if int(index) < len(txs) && txs[index].Index == index {
		return int(index)
	}
	for i := range txs {
		if txs[i].Index == index {
			return i
		}
	}
	return -1
}
