package store

import (
	"fmt"
	"math/big"

	"github.com/ava-labs/avalanchego/ids"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/pdata"
)

// The C-chain's burn totals (burns.go, keys.go 0x62) carry on from block
// to block from genesis, so neither the follower of a chain indexed from
// a later height nor the downward fill can write them. The re-derive
// does, upward, once the fill has reached genesis: block h's row is row
// h-1's totals (zero before block 1) plus the EVM fees of h (its block
// row's FeesSpent, the sum deriveBlock gave writeCBurns) and the burns of
// its atomic txs, read back from the primary-network rows the fill and
// the follower wrote (chainTxKey, ptxKey) and decoded from their signed
// bytes with PrimaryNetwork.DecodeAtomic: the same txs, in the same
// order, that writeCBurns was given. A re-derive that starts above block
// 1 (a fill whose target is a later height) finds no row to carry on from
// and writes none, as a build from that height does.
//
// While the re-derive runs, the follower finds no row for the block
// before its own (the re-derive has not reached it, and reaches it only
// in the commit that ends the re-derive), so it writes none either.

// rederiveCBurns writes block h's burn row as writeCBurns does, from the
// totals txn carries (loaded from row h-1 at the step's first block).
func (w *EVMWriter) rederiveCBurns(txn *blockTxn, h uint64, evmFees *big.Int) error {
	net := w.s.network()
	if !tracksBurns(net, w.chain) {
		return nil
	}
	if err := loadBurns(txn, net, h); err != nil {
		return err
	}
	if !txn.burns.known {
		return nil
	}
	atomic, ok, err := w.storedAtomicTxs(txn, net, h)
	if err != nil {
		return fmt.Errorf("reading the atomic txs of %s block %d: %w", w.chain, h, err)
	}
	if !ok {
		txn.burns.known = false // unknown from here on, as writeCBurns leaves a misread tx
		return nil
	}
	if evmFees == nil {
		evmFees = new(big.Int)
	}
	return writeCBurns(txn, net, &evmdata.Block{Number: h, Atomic: atomic}, evmFees)
}

// storedAtomicTxs reads back the atomic txs of C-chain block h, in block
// order; false when they cannot be decoded (no decoder given, or bytes it
// refuses, which the writer decoded before: logged).
func (w *EVMWriter) storedAtomicTxs(txn *blockTxn, net *PrimaryNetwork, h uint64) ([]*pdata.Tx, bool, error) {
	var out []*pdata.Tx
	for i := uint32(0); ; i++ {
		v, err := txn.get(chainTxKey(w.chain, pdata.TxPos{Height: h, Index: i}))
		if err != nil {
			return nil, false, err
		}
		if v == nil {
			return out, true, nil
		}
		id, err := ids.ToID(v)
		if err != nil {
			return nil, false, fmt.Errorf("tx %d: %w", i, err)
		}
		rec, err := readPTx(txn.txn, id)
		if err != nil {
			return nil, false, err
		}
		if net.DecodeAtomic == nil {
			return nil, false, nil
		}
		tx, err := net.DecodeAtomic(rec.Bytes)
		if err != nil {
			w.s.log.Warn("the C-chain burn totals stay unknown: a stored atomic tx does not decode",
				zap.Uint64("height", h), zap.Stringer("txID", id), zap.Error(err))
			return nil, false, nil
		}
		out = append(out, tx)
	}
}
