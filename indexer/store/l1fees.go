package store

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/vms/components/gas"
	"github.com/ava-labs/avalanchego/vms/platformvm/validators/fee"
	"github.com/dgraph-io/badger/v4"

	safemath "github.com/ava-labs/avalanchego/utils/math"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// The P writer tracks the L1 validator fee state as platformvm v1.14.2
// keeps it: the accrued fees, the fee state's excess and the number of
// active L1 validators, and each active validator's EndAccumulatedFee (the
// accrued fees at which its balance runs out; 0 is inactive).
//
//   - Before Etna nothing moves: the state's values are 0.
//   - A Banff standard or proposal block first advances the chain time to
//     its own (txs/executor state_changes.go AdvanceTimeTo): from Etna on,
//     advanceValidatorFeeState adds fee.State.CostOf for the seconds elapsed
//     (with the active count and excess before the block) to the accrued
//     fees, deactivates every active validator whose EndAccumulatedFee is
//     at most the new accrued fees, and advances the excess with the count
//     from before those deactivations.
//   - Its standard txs then change validators (standard_tx_executor.go):
//     ConvertSubnetToL1Tx and RegisterL1ValidatorTx add one active with
//     EndAccumulatedFee = balance + accrued fees when the balance is not 0;
//     SetL1ValidatorWeightTx with weight 0 removes one (refunding what is
//     left); IncreaseL1ValidatorBalanceTx adds the balance, from the
//     accrued fees when it was inactive (reactivating it);
//     DisableL1ValidatorTx deactivates one.
//   - After them (the decision txs of a proposal block included),
//     deactivateLowBalanceL1Validators (block/executor/verifier.go)
//     deactivates every active validator whose EndAccumulatedFee is below
//     the accrued fees plus the cost of one more second.
//
// Option blocks and the proposal txs they decide leave the L1 state alone,
// and Apricot blocks all predate Etna.

// L1FeeRules are what the L1 validator fees follow on the network: the
// node's validator fee config (platform.getValidatorFeeConfig) and its
// upgrade times (Etna starts the fees).
type L1FeeRules struct {
	Config   fee.Config
	Upgrades upgrade.Config
	// GenesisTime is the P-chain time before block 1 (Unix seconds; 0:
	// unknown). Where Etna is active at block 1 the fees accrue from it.
	GenesisTime int64
}

// l1FeeState is the L1 validator fee state after the last P-chain block a
// transaction wrote.
type l1FeeState struct {
	loaded bool // the fields below hold what the previous block left
	known  bool
	pdata.L1FeeState
}

// after is the state to store with the block just tracked (nil: unknown).
func (s *l1FeeState) after() *pdata.L1FeeState {
	if !s.known {
		return nil
	}
	v := s.L1FeeState
	return &v
}

// trackL1Fees applies block b, written at chain time ts, to the L1 fee
// state; chainTimeBefore gives the chain time before b.
func trackL1Fees(txn *blockTxn, net *PrimaryNetwork, b *pdata.Block, ts int64, chainTimeBefore func() (int64, error)) error {
	s := &txn.l1fees
	if !s.loaded {
		if err := loadL1Fees(txn, net, b.Number); err != nil {
			return err
		}
	}
	if err := startL1Series(txn, b, ts); err != nil {
		return fmt.Errorf("L1 validator fee series: %w", err)
	}
	if err := trackL1FeeBlock(txn, net, b, ts, chainTimeBefore); err != nil {
		return err
	}
	return endL1Series(txn)
}

// trackL1FeeBlock is trackL1Fees once the state is loaded.
func trackL1FeeBlock(txn *blockTxn, net *PrimaryNetwork, b *pdata.Block, ts int64, chainTimeBefore func() (int64, error)) error {
	s := &txn.l1fees
	if !s.known || !b.AdvancesTime {
		return nil
	}
	rules := net.L1Fees
	if rules.Upgrades.IsEtnaActivated(time.Unix(ts, 0)) {
		// Before block 1 the chain time is the genesis time, which the
		// rules carry also when the writer has no genesis block.
		before := rules.GenesisTime
		if b.Number > 1 {
			var err error
			if before, err = chainTimeBefore(); err != nil {
				return err
			}
		}
		if before == 0 {
			// The fees accrued since the unknown genesis time are unknown.
			*s = l1FeeState{loaded: true}
			return nil
		}
		if ts < before {
			return fmt.Errorf("block time %d is before the chain time %d", ts, before)
		}
		if err := advanceL1Fees(txn, rules.Config, uint64(ts-before)); err != nil {
			return err
		}
	}
	for _, tx := range b.Txs {
		if err := l1FeeTx(txn, tx); err != nil {
			return fmt.Errorf("tx %s: %w", tx.ID, err)
		}
	}
	return evictLowBalance(txn, rules.Config)
}

// loadL1Fees reads what the block before height left: nothing is known
// when it has none. Before block 1 it is platformvm's initial state, all
// zero whatever the genesis holds (it has no L1 validators).
func loadL1Fees(txn *blockTxn, net *PrimaryNetwork, height uint64) error {
	s := &txn.l1fees
	*s = l1FeeState{loaded: true}
	if net.L1Fees == nil {
		return nil
	}
	if height <= 1 {
		s.known = true
		return nil
	}
	prev, err := previousBlock(txn, height)
	if err != nil || prev == nil {
		return err
	}
	if prev.L1Fees != nil {
		s.known, s.L1FeeState = true, *prev.L1Fees
	}
	return nil
}

// advanceL1Fees is advanceValidatorFeeState for seconds.
func advanceL1Fees(txn *blockTxn, config fee.Config, seconds uint64) error {
	s := &txn.l1fees
	state := fee.State{Current: gas.Gas(s.ActiveL1Validators), Excess: gas.Gas(s.Excess)}
	accrued, err := safemath.Add(s.AccruedFees, state.CostOf(config, seconds))
	if err != nil {
		return fmt.Errorf("accruing L1 validator fees: %w", err)
	}
	if err := l1SeriesAdvance(txn, s.AccruedFees, accrued); err != nil {
		return err
	}
	if err := noteL1Thresholds(txn, s.AccruedFees, accrued); err != nil {
		return err
	}
	s.AccruedFees = accrued
	if err := deactivateL1Below(txn, accrued, true); err != nil {
		return err
	}
	s.Excess = uint64(state.AdvanceTime(config.Target, seconds).Excess)
	return nil
}

// evictLowBalance is deactivateLowBalanceL1Validators: the validators that
// cannot pay for the next second go inactive.
func evictLowBalance(txn *blockTxn, config fee.Config) error {
	s := &txn.l1fees
	state := fee.State{Current: gas.Gas(s.ActiveL1Validators), Excess: gas.Gas(s.Excess)}
	potential, err := safemath.Add(s.AccruedFees, state.CostOf(config, 1))
	if err != nil {
		return fmt.Errorf("adding the next second's L1 validator fee: %w", err)
	}
	return deactivateL1Below(txn, potential, false)
}

// l1FeeTx applies one tx's effect on the L1 validators' fees.
func l1FeeTx(txn *blockTxn, tx *pdata.Tx) error {
	s := &txn.l1fees
	switch tx.Type {
	case "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx":
		for _, v := range tx.L1Validators {
			if err := l1SeriesCreated(txn, &v); err != nil {
				return err
			}
			if v.Balance == 0 {
				continue // added inactive
			}
			end, err := safemath.Add(v.Balance, s.AccruedFees)
			if err != nil {
				return fmt.Errorf("L1 validator %s: %w", v.ValidationID, err)
			}
			if err := setL1End(txn, v.ValidationID, 0, end, 0); err != nil {
				return err
			}
		}
	case "SetL1ValidatorWeightTx":
		for _, v := range tx.L1Validators {
			if v.Weight != 0 {
				continue // the balance stays as it is
			}
			// Weight 0 removes the validator (its balance is refunded).
			old, err := l1End(txn, v.ValidationID)
			if err != nil {
				return err
			}
			txn.burns.l1Refunded(old, s.AccruedFees)
			noteL1Tx(txn, tx, webhookdata.SubL1ValidatorRemoved, &v, balanceLeft(old, s.AccruedFees))
			if err := setL1End(txn, v.ValidationID, old, 0, s.AccruedFees); err != nil {
				return err
			}
		}
	case "IncreaseL1ValidatorBalanceTx":
		for _, v := range tx.L1Validators {
			old, err := l1End(txn, v.ValidationID)
			if err != nil {
				return err
			}
			from := old
			if from == 0 {
				// An inactive validator is reactivated from now.
				from = s.AccruedFees
			}
			end, err := safemath.Add(from, v.BalanceChange)
			if err != nil {
				return fmt.Errorf("L1 validator %s: %w", v.ValidationID, err)
			}
			if err := setL1End(txn, v.ValidationID, old, end, 0); err != nil {
				return err
			}
			noteL1Tx(txn, tx, webhookdata.SubL1ValidatorBalanceIncreased, &v, balanceLeft(end, s.AccruedFees))
		}
	case "DisableL1ValidatorTx":
		for _, v := range tx.L1Validators {
			old, err := l1End(txn, v.ValidationID)
			if err != nil {
				return err
			}
			// The balance left is refunded.
			txn.burns.l1Refunded(old, s.AccruedFees)
			noteL1Tx(txn, tx, webhookdata.SubL1ValidatorDisabled, &v, balanceLeft(old, s.AccruedFees))
			if err := setL1End(txn, v.ValidationID, old, 0, s.AccruedFees); err != nil {
				return err
			}
		}
	}
	return nil
}

// The active validators' rows: 0x38 by validation ID (their
// EndAccumulatedFee) and 0x39 by EndAccumulatedFee, the order platformvm
// deactivates them in. An inactive or removed validator has neither.

func l1EndKey(validationID ids.ID) []byte { return key{tagL1End}.id(validationID) }

func l1ActiveKey(end uint64, validationID ids.ID) []byte {
	return key{tagL1Active}.u64(end).id(validationID)
}

// l1End is the validator's EndAccumulatedFee, 0 when it is not active.
func l1End(txn *blockTxn, validationID ids.ID) (uint64, error) {
	v, err := txn.get(l1EndKey(validationID))
	if err != nil {
		return 0, fmt.Errorf("reading L1 validator %s fee row: %w", validationID, err)
	}
	if v == nil {
		return 0, nil
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("L1 validator %s fee row has %d bytes", validationID, len(v))
	}
	return beUint64(v), nil
}

// setL1End moves a validator's EndAccumulatedFee from old to end (0:
// inactive) and counts it in or out of the active validators. When it
// goes inactive, stop is the accrued-fee position it paid up to: old when
// the fee state ran it out, the accrued fees when a tx disabled or removed
// it (l1feeseries.go).
func setL1End(txn *blockTxn, validationID ids.ID, old, end, stop uint64) error {
	s := &txn.l1fees
	txn.burns.l1ActiveEndMoved(old, end)
	switch {
	case old == 0 && end != 0:
		if err := l1SeriesActivated(txn, validationID); err != nil {
			return err
		}
	case old != 0 && end == 0:
		if err := l1SeriesDeactivated(txn, validationID, stop); err != nil {
			return err
		}
	}
	if old != 0 {
		if err := txn.delete(l1ActiveKey(old, validationID)); err != nil {
			return err
		}
		if end == 0 {
			s.ActiveL1Validators--
			return txn.delete(l1EndKey(validationID))
		}
	} else if end != 0 {
		s.ActiveL1Validators++
	}
	if end == 0 {
		return nil
	}
	if err := txn.set(l1EndKey(validationID), key(nil).u64(end)); err != nil {
		return err
	}
	return txn.set(l1ActiveKey(end, validationID), nil)
}

// deactivateL1Below deactivates the active validators whose
// EndAccumulatedFee is below limit (or equal to it, when inclusive).
func deactivateL1Below(txn *blockTxn, limit uint64, inclusive bool) error {
	if txn.l1fees.ActiveL1Validators == 0 {
		// setL1End counts the active rows: none, so nothing to scan. This
		// spares two Badger iterators per block on a chain without L1s.
		return nil
	}
	prefix := key{tagL1Active}
	var hi []byte
	switch {
	case !inclusive:
		hi = prefix.u64(limit)
	case limit < math.MaxUint64:
		hi = prefix.u64(limit + 1)
	}
	var due [][]byte
	err := scanRange(context.Background(), txn.txn, prefix, prefix, hi, false, func(item *badger.Item) (bool, error) {
		due = append(due, item.KeyCopy(nil))
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("listing active L1 validators: %w", err)
	}
	for _, k := range due {
		validationID, err := ids.ToID(k[len(k)-ids.IDLen:])
		if err != nil {
			return err
		}
		end := beUint64(k[1:9])
		noteL1Deactivated(txn, validationID, end, inclusive)
		if err := setL1End(txn, validationID, end, 0, end); err != nil {
			return fmt.Errorf("deactivating L1 validator %s: %w", validationID, err)
		}
	}
	return nil
}
