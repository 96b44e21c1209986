package evmchain

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/ava-labs/libevm/common/hexutil"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// dynamicFeeTxType is the first tx type priced by maxFeePerGas and
// maxPriorityFeePerGas (EIP-1559); every later type is priced the same way.
const dynamicFeeTxType = 2

// parseTx combines a transaction with its receipt. The caller has checked
// that they belong together (checkReceipts).
func parseTx(index int, tx *nodeapi.EVMTx, r *nodeapi.EVMReceipt) (evmdata.Tx, error) {
	if tx.Type > math.MaxUint8 {
		return evmdata.Tx{}, fmt.Errorf("tx %s: unknown type %d", tx.Hash, tx.Type)
	}
	out := evmdata.Tx{
		Hash:  tx.Hash,
		Index: uint32(index),
		Type:  uint8(tx.Type),
		From:  tx.From,
		To:    tx.To,
		Nonce: uint64(tx.Nonce),
		Value: bigOrZero(tx.Value),
		Gas:   uint64(tx.Gas),
		Input: tx.Input,
		// The decoded list itself (nil on a legacy tx), never copied.
		AccessList: tx.AccessList,
	}
	setFees(&out, tx)
	if err := setReceipt(&out, r); err != nil {
		return evmdata.Tx{}, fmt.Errorf("receipt of tx %s: %w", tx.Hash, err)
	}
	return out, nil
}

// setFees keeps the price fields of the tx's type. For a dynamic-fee tx
// the node's gasPrice is the effective price, which the receipt has too.
func setFees(out *evmdata.Tx, tx *nodeapi.EVMTx) {
	if tx.Type < dynamicFeeTxType {
		out.GasPrice = bigOrNil(tx.GasPrice)
		return
	}
	out.MaxFeePerGas = bigOrNil(tx.MaxFeePerGas)
	out.MaxPriorityFeePerGas = bigOrNil(tx.MaxPriorityFeePerGas)
}

// setReceipt copies the receipt's outcome into the tx.
func setReceipt(out *evmdata.Tx, r *nodeapi.EVMReceipt) error {
	switch {
	case r.Status == nil:
		return errors.New("no status (a pre-Byzantium receipt?)")
	case *r.Status > 1:
		return fmt.Errorf("status %d", *r.Status)
	}
	out.Status = uint8(*r.Status)
	out.GasUsed = uint64(r.GasUsed)
	out.EffectiveGasPrice = bigOrNil(r.EffectiveGasPrice)
	if !out.IsCreation() || !out.Succeeded() {
		// The node reports the would-be address of a failed creation too.
		return nil
	}
	if r.ContractAddress == nil {
		return errors.New("successful creation without contractAddress")
	}
	addr := *r.ContractAddress
	out.ContractAddress = &addr
	return nil
}

// checkReceipts fails unless receipts are the block's txs' receipts, in
// order: pairing a tx with another tx's receipt would index wrong data
// silently.
func checkReceipts(b *nodeapi.EVMBlock, receipts []nodeapi.EVMReceipt) error {
	if len(receipts) != len(b.Transactions) {
		return fmt.Errorf("%d receipts for %d txs", len(receipts), len(b.Transactions))
	}
	for i := range receipts {
		r, tx := &receipts[i], &b.Transactions[i]
		if r.TxHash != tx.Hash {
			return fmt.Errorf("receipt %d is of tx %s, want %s", i, r.TxHash, tx.Hash)
		}
		if r.BlockHash != b.Hash {
			return fmt.Errorf("receipt of tx %s is of block %s, want %s", tx.Hash, r.BlockHash, b.Hash)
		}
	}
	return nil
}

func bigOrNil(v *hexutil.Big) *big.Int {
	if v == nil {
		return nil
	}
	return new(big.Int).Set(v.ToInt())
}

func bigOrZero(v *hexutil.Big) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return new(big.Int).Set(v.ToInt())
}
