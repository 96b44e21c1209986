package store

import (
	"fmt"
	"math/big"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The writers total the AVAX burned on each primary-network chain, as state
// carried from block to block (keys.go 0x60-0x62): each block's row holds
// the totals after it, the previous row's plus what the block burned. Like
// the supply (supply.go) they rely on each block being committed exactly
// once, with the cursor (commit.go), and they are known only from a chain's
// genesis on: a block whose previous row is missing leaves them unknown
// (no row) for good.
//
//   - A P- or X-chain tx burns the AVAX it consumes minus the AVAX it
//     produces (imports consumed, exports produced: each chain counts its
//     own txs' fees once). A RewardValidatorTx consumes nothing and mints
//     the rewards; the genesis block mints everything: neither burns.
//   - On the P-chain the balance a tx gives an L1 validator
//     (ConvertSubnetToL1Tx, RegisterL1ValidatorTx,
//     IncreaseL1ValidatorBalanceTx) leaves the tx's inputs without being
//     burned yet: it is deposited, then paid out as the L1 validator fees
//     accrue (l1fees.go), the rest refunded when the validator is disabled
//     or removed (the refund UTXO is P-chain state, not the tx's output, so
//     it is not counted as produced). The fees burned so far are the
//     deposits less the refunds less the balances still held by the active
//     validators: the sum of their EndAccumulatedFee less AccruedFees for
//     each. The sum is kept modulo 2^64, which is exact for the difference
//     because the true balances fit a uint64.
//   - A C-chain atomic tx burns the AVAX of its inputs (UTXOs and EVM
//     debits, nAVAX) minus that of its outputs; every EVM tx burns its fee
//     (gas used times effective price, wei: the block row's FeesSpent).

// pBurns are the P-chain totals after a block (nAVAX).
type pBurns struct {
	TxFees      uint64 // burned by txs, L1 validator balances left out
	L1Deposited uint64 // balances given to L1 validators
	L1Refunded  uint64 // balances refunded to L1 validators' owners
	// L1ActiveEnd is the sum of the active L1 validators'
	// EndAccumulatedFee, modulo 2^64.
	L1ActiveEnd uint64
}

// cBurns are the C-chain totals after a block.
type cBurns struct {
	AtomicFees uint64   // nAVAX burned by atomic txs
	EVMFees    *big.Int // wei burned by EVM txs
}

// burnState is what the block being written carries on from.
type burnState struct {
	loaded bool
	known  bool
	p      pBurns
	x      uint64 // X-chain tx fees
	c      cBurns
}

func pBurnKey(height uint64) []byte { return key{tagPBurn}.u64(height) }
func xBurnKey(height uint64) []byte { return key{tagXBurn}.u64(height) }
func cBurnKey(height uint64) []byte { return key{tagCBurn}.u64(height) }
func burnKeyOf(chain netinfo.Chain) func(uint64) []byte {
	switch chain {
	case netinfo.P:
		return pBurnKey
	case netinfo.X:
		return xBurnKey
	default:
		return cBurnKey
	}
}

// tracksBurns says whether chain's writer totals burns: the three primary
// chains, on a network whose AVAX asset is known.
func tracksBurns(net *PrimaryNetwork, chain netinfo.Chain) bool {
	return net.AVAXAssetID != [32]byte{} && (chain == netinfo.P || chain == netinfo.X || chain == netinfo.C)
}

// loadBurns reads what the block before height left (the zero totals
// before block 1, which follows the genesis). Call it before the block's
// L1 fee tracking, which moves the active validators' sum.
func loadBurns(txn *blockTxn, net *PrimaryNetwork, height uint64) error {
	s := &txn.burns
	if s.loaded {
		return nil
	}
	*s = burnState{loaded: true, c: cBurns{EVMFees: new(big.Int)}}
	if !tracksBurns(net, txn.chain) {
		return nil
	}
	if height <= 1 {
		s.known = true
		return nil
	}
	v, err := txn.get(burnKeyOf(txn.chain)(height - 1))
	if err != nil {
		return fmt.Errorf("reading the %s burns of block %d: %w", txn.chain, height-1, err)
	}
	if v == nil {
		return nil
	}
	if err := s.decode(txn.chain, v); err != nil {
		return fmt.Errorf("the %s burns of block %d: %w", txn.chain, height-1, err)
	}
	s.known = true
	return nil
}

// l1ActiveEndMoved notes an active L1 validator's EndAccumulatedFee moving
// from old to end (0: not active), from setL1End.
func (s *burnState) l1ActiveEndMoved(old, end uint64) {
	s.p.L1ActiveEnd += end - old // modulo 2^64, see above
}

// l1Refunded notes the balance left to a validator whose EndAccumulatedFee
// was end when accrued fees were paid: platformvm refunds it.
func (s *burnState) l1Refunded(end, accrued uint64) {
	if end > accrued {
		s.p.L1Refunded += end - accrued
	}
}

// writePrimaryBurns adds the txs of P/X block b and writes the block's row.
func writePrimaryBurns(txn *blockTxn, net *PrimaryNetwork, b *pdata.Block) error {
	s := &txn.burns
	if !s.known {
		return nil
	}
	for _, tx := range b.Txs {
		fee, deposit, ok := txBurn(net, tx)
		if !ok {
			// Txs that produce more AVAX than they consume are the minting
			// kinds above; any other would be a misreading: rather than
			// guess, the totals are unknown from here on.
			s.known = false
			return nil
		}
		if txn.chain == netinfo.P {
			s.p.TxFees += fee
			s.p.L1Deposited += deposit
		} else {
			s.x += fee
		}
	}
	return txn.set(burnKeyOf(txn.chain)(b.Number), s.encode(txn.chain))
}

// writeCBurns adds the atomic txs and the EVM fees of C-chain block b and
// writes the block's row.
func writeCBurns(txn *blockTxn, net *PrimaryNetwork, b *evmdata.Block, evmFees *big.Int) error {
	s := &txn.burns
	if !s.known {
		return nil
	}
	for _, tx := range b.Atomic {
		fee, _, ok := txBurn(net, tx)
		if !ok {
			s.known = false
			return nil
		}
		s.c.AtomicFees += fee
	}
	s.c.EVMFees = new(big.Int).Add(s.c.EVMFees, evmFees)
	return txn.set(cBurnKey(b.Number), s.encode(netinfo.C))
}

// txBurn is what tx burns and what it deposits as L1 validator balances
// (nAVAX); false when it produces more than it consumes.
func txBurn(net *PrimaryNetwork, tx *pdata.Tx) (fee, deposit uint64, ok bool) {
	if tx.Type == "RewardValidatorTx" {
		return 0, 0, true
	}
	in, out := tx.AVAXAmounts(net.AVAXAssetID)
	if n := len(tx.Produced); tx.L1Refund && n > 0 && tx.Produced[n-1].Asset == net.AVAXAssetID {
		out -= tx.Produced[n-1].Amount // P-chain state paid it
	}
	switch tx.Type {
	case "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx":
		for _, v := range tx.L1Validators {
			deposit += v.Balance
		}
	case "IncreaseL1ValidatorBalanceTx":
		for _, v := range tx.L1Validators {
			deposit += v.BalanceChange
		}
	}
	out += deposit
	if out > in {
		return 0, 0, false
	}
	return in - out, deposit, true
}

func (s *burnState) encode(chain netinfo.Chain) []byte {
	w := rowWriter{buf: make([]byte, 0, 48)}
	w.byte(rowVersion1)
	switch chain {
	case netinfo.P:
		w.uint(s.p.TxFees)
		w.uint(s.p.L1Deposited)
		w.uint(s.p.L1Refunded)
		w.uint(s.p.L1ActiveEnd)
	case netinfo.X:
		w.uint(s.x)
	default:
		w.uint(s.c.AtomicFees)
		w.big(s.c.EVMFees)
	}
	return w.buf
}

func (s *burnState) decode(chain netinfo.Chain, v []byte) error {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return fmt.Errorf("burn row version %d", ver)
	}
	switch chain {
	case netinfo.P:
		s.p = pBurns{TxFees: r.uint(), L1Deposited: r.uint(), L1Refunded: r.uint(), L1ActiveEnd: r.uint()}
	case netinfo.X:
		s.x = r.uint()
	default:
		s.c = cBurns{AtomicFees: r.uint(), EVMFees: r.big()}
	}
	return r.done()
}
