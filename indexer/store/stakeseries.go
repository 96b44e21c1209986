package store

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/pdata"
)

// The staking series (getStakingMetrics): each subnet's current validator
// set as platform.getCurrentValidators answers it, counted by the P writer
// in the block's own commit. The set changes
//
//   - at a staking tx, from Durango on (and at genesis): the staker is
//     current at acceptance;
//   - before Durango, when the chain time reaches the staker's start
//     (txs/executor state_changes.go advanceTimeTo promotes it);
//   - at a RewardValidatorTx (either outcome): a permissionless staker ends;
//   - when the chain time reaches a permissioned subnet validator's end
//     (advanceTimeTo removes it), or at a RemoveSubnetValidatorTx;
//   - at the L1 txs that set an L1 validation's weight (ConvertSubnetToL1Tx,
//     RegisterL1ValidatorTx, SetL1ValidatorWeightTx; 0 removes it). An L1
//     validator that is inactive (no balance, or disabled) is still listed by
//     platform.getCurrentValidators, so it still counts.
//
// Rows: 0x3C | 0 | subnet → the figures now; 0x3B | subnet | day → the
// figures after the last block of that UTC day that changed them (a day
// without a change carries the newest earlier row); 0x3C | 1 | time |
// event | txID → a change the chain time makes when it reaches time;
// 0x3C | 2 → the P-chain height the figures are counted from (0: genesis).
// All are carried from block to block, so they rely on the P-chain's
// exactly-once commits (commit.go).

const (
	stakeNow    byte = 0 // 0x3C sub-keyspace: running figures by subnet
	stakeEvent  byte = 1 // 0x3C sub-keyspace: chain-time events
	stakeFromID byte = 2 // 0x3C sub-keyspace: the height counted from

	eventPromote byte = 0 // a pre-Durango pending staker becomes current
	eventExpire  byte = 1 // a permissioned subnet validator ends
)

// stakeFiguresSize is a figures row: two counts (8 bytes) and two weights
// (16 bytes: a subnet's summed weights may pass 2^64).
const stakeFiguresSize = 8 + 16 + 8 + 16

func stakeNowKey(subnet ids.ID) []byte { return key{tagStakeNow, stakeNow}.id(subnet) }
func stakeFromKey() []byte             { return key{tagStakeNow, stakeFromID} }
func stakeEventPrefix() key            { return key{tagStakeNow, stakeEvent} }

func stakeEventKey(at int64, event byte, txID ids.ID) []byte {
	return stakeEventPrefix().u64(uint64(at)).bytes([]byte{event}).id(txID)
}

func stakeDayPrefix(subnet ids.ID) key { return key{tagStakeDay}.id(subnet) }

func stakeDayKey(subnet ids.ID, day int64) []byte { return stakeDayPrefix(subnet).u64(uint64(day)) }

func encodeStakeFigures(f *metricdata.StakingFigures) []byte {
	b := make([]byte, 0, stakeFiguresSize)
	b = key(b).u64(f.ValidatorCount)
	b = append(b, weightBytes(f.ValidatorWeight)...)
	b = key(b).u64(f.DelegatorCount)
	return append(b, weightBytes(f.DelegatorWeight)...)
}

func weightBytes(w *big.Int) []byte {
	out := make([]byte, 16)
	if w != nil && w.Sign() > 0 && w.BitLen() <= 128 {
		w.FillBytes(out)
	}
	return out
}

func decodeStakeFigures(b []byte) (metricdata.StakingFigures, error) {
	if len(b) != stakeFiguresSize {
		return metricdata.StakingFigures{}, fmt.Errorf("staking figures row has %d bytes, want %d", len(b), stakeFiguresSize)
	}
	return metricdata.StakingFigures{
		ValidatorCount:  beUint64(b[0:8]),
		ValidatorWeight: new(big.Int).SetBytes(b[8:24]),
		DelegatorCount:  beUint64(b[24:32]),
		DelegatorWeight: new(big.Int).SetBytes(b[32:48]),
	}, nil
}

// stakeState is the staking figures a write transaction carries from block
// to block.
type stakeState struct {
	figures map[ids.ID]*metricdata.StakingFigures // subnets read or changed
	dirty   map[ids.ID]bool                       // changed by the block being written
	// nextEvent is a lower bound of the earliest chain-time event (valid
	// once eventsRead): a block whose chain time is before it has none due,
	// so most blocks cost no iterator.
	nextEvent  int64
	eventsRead bool
	fromRead   bool
}

// stakeFigures returns subnet's figures for update, read once per
// transaction.
func stakeFigures(txn *blockTxn, subnet ids.ID) (*metricdata.StakingFigures, error) {
	st := &txn.stake
	if f, ok := st.figures[subnet]; ok {
		return f, nil
	}
	if st.figures == nil {
		st.figures, st.dirty = map[ids.ID]*metricdata.StakingFigures{}, map[ids.ID]bool{}
	}
	f := &metricdata.StakingFigures{ValidatorWeight: new(big.Int), DelegatorWeight: new(big.Int)}
	v, err := txn.get(stakeNowKey(subnet))
	if err != nil {
		return nil, fmt.Errorf("reading the staking figures of subnet %s: %w", subnet, err)
	}
	if v != nil {
		got, err := decodeStakeFigures(v)
		if err != nil {
			return nil, fmt.Errorf("subnet %s: %w", subnet, err)
		}
		f = &got
	}
	st.figures[subnet] = f
	return f, nil
}

// changeStake adds (sign +1) or takes away (-1) one validator or delegator
// of weight on subnet. Taking away saturates at 0: only a store that did
// not count from genesis (CountedFrom > 0) can take away what it never
// added.
func changeStake(txn *blockTxn, subnet ids.ID, delegator bool, weight uint64, sign int) error {
	f, err := stakeFigures(txn, subnet)
	if err != nil {
		return err
	}
	count, sum := &f.ValidatorCount, f.ValidatorWeight
	if delegator {
		count, sum = &f.DelegatorCount, f.DelegatorWeight
	}
	w := new(big.Int).SetUint64(weight)
	if sign > 0 {
		*count++
		sum.Add(sum, w)
	} else {
		if *count > 0 {
			*count--
		}
		sum.Sub(sum, w)
		if sum.Sign() < 0 {
			sum.SetUint64(0)
		}
	}
	txn.stake.dirty[subnet] = true
	return nil
}

// stakeCountedFrom makes sure the store says from which P-chain height it
// counts the figures: a store written before them starts at the block
// being written, and its figures are not exact.
func stakeCountedFrom(txn *blockTxn, height uint64) error {
	if txn.stake.fromRead {
		return nil
	}
	txn.stake.fromRead = true
	ok, err := txn.has(stakeFromKey())
	if err != nil || ok {
		return err
	}
	return txn.set(stakeFromKey(), key(nil).u64(height))
}

// stakeGenesis counts the genesis stakers, current from the start.
func stakeGenesis(txn *blockTxn, g *pdata.Block, ts int64) error {
	txn.stake.fromRead = true
	if err := txn.set(stakeFromKey(), key(nil).u64(0)); err != nil {
		return err
	}
	for _, tx := range g.Txs {
		if err := stakeTx(txn, g, true, tx, ts); err != nil {
			return fmt.Errorf("genesis tx %s: %w", tx.ID, err)
		}
	}
	return stakeFlush(txn, ts)
}

// stakeAdvance applies what the chain time reaching chainTime does:
// pending stakers that start by then become current, permissioned subnet
// validators that end by then go.
func stakeAdvance(txn *blockTxn, chainTime int64) error {
	st := &txn.stake
	if st.eventsRead && st.nextEvent > chainTime {
		return nil
	}
	prefix := stakeEventPrefix()
	var due [][]byte
	next := int64(math.MaxInt64)
	err := scanRange(context.Background(), txn.txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
		k := item.Key()
		if at := int64(beUint64(k[len(prefix):])); at > chainTime {
			next = at
			return false, nil
		}
		due = append(due, item.KeyCopy(nil))
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("listing the staking events due: %w", err)
	}
	st.nextEvent, st.eventsRead = next, true
	for _, k := range due {
		event := k[len(prefix)+8]
		txID, err := ids.ToID(k[len(prefix)+9:])
		if err != nil {
			return err
		}
		s, ok, err := readStakerTxn(txn, txID)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("staking event of %s: no staker row", txID)
		}
		if err := txn.delete(k); err != nil {
			return err
		}
		sign := 1
		if event == eventExpire {
			sign = -1
		} else if err := scheduleExpiry(txn, s.Type, &s.Staker, txID); err != nil {
			return err
		}
		if err := changeStake(txn, s.Staker.Subnet, s.Staker.Delegator, s.Staker.Weight, sign); err != nil {
			return err
		}
	}
	return nil
}

func scheduleEvent(txn *blockTxn, at int64, event byte, txID ids.ID) error {
	st := &txn.stake
	if st.eventsRead && at < st.nextEvent {
		st.nextEvent = at
	}
	return txn.set(stakeEventKey(at, event, txID), nil)
}

// scheduleExpiry makes a permissioned subnet validator that became current
// end when the chain time reaches its end.
func scheduleExpiry(txn *blockTxn, typ string, st *pdata.Staker, txID ids.ID) error {
	if typ != "AddSubnetValidatorTx" {
		return nil
	}
	return scheduleEvent(txn, st.End, eventExpire, txID)
}

// stakeTx applies tx of b (written at time ts; current says stakers are
// current at acceptance) to the figures. It runs before the tx's staker
// and L1 weight rows are written, so those still say what was before.
func stakeTx(txn *blockTxn, b *pdata.Block, current bool, tx *pdata.Tx, ts int64) error {
	switch {
	case tx.Staker != nil:
		if tx.Outcome == pdata.OutcomeAbort {
			return nil
		}
		st := tx.Staker
		if !current {
			return scheduleEvent(txn, st.Start, eventPromote, tx.ID)
		}
		if err := scheduleExpiry(txn, tx.Type, st, tx.ID); err != nil {
			return err
		}
		return changeStake(txn, st.Subnet, st.Delegator, st.Weight, 1)
	case tx.RewardOf != ids.Empty:
		s, ok, err := readStakerTxn(txn, tx.RewardOf)
		if err != nil || !ok {
			return err
		}
		return changeStake(txn, s.Staker.Subnet, s.Staker.Delegator, s.Staker.Weight, -1)
	case tx.Type == "RemoveSubnetValidatorTx":
		return stakeRemove(txn, b, tx, ts)
	case tx.Type == "ConvertSubnetToL1Tx", tx.Type == "RegisterL1ValidatorTx", tx.Type == "SetL1ValidatorWeightTx":
		return stakeL1Weights(txn, tx)
	}
	return nil
}

// stakeRemove takes away the validator a RemoveSubnetValidatorTx removes:
// a current one goes (with its expiry), a pending one is never promoted.
func stakeRemove(txn *blockTxn, b *pdata.Block, tx *pdata.Tx, ts int64) error {
	at := txPlace{chain: txn.chain, pos: pdata.TxPos{Height: b.Number}, block: b.ID, time: ts}
	target, err := removedValidator(txn, at, tx)
	if err != nil || target == nil {
		return err
	}
	st := &target.Staker
	pending := stakeEventKey(st.Start, eventPromote, target.TxID)
	wasPending, err := txn.has(pending)
	if err != nil {
		return err
	}
	if wasPending {
		return txn.delete(pending)
	}
	if err := txn.delete(stakeEventKey(st.End, eventExpire, target.TxID)); err != nil {
		return err
	}
	return changeStake(txn, st.Subnet, false, st.Weight, -1)
}

// stakeL1Weights applies the weights an L1 tx gives its validations: from
// none to some adds a validator, to 0 removes it.
func stakeL1Weights(txn *blockTxn, tx *pdata.Tx) error {
	for _, v := range tx.L1Validators {
		old, err := txn.get(l1WeightKey(v.ValidationID))
		if err != nil {
			return fmt.Errorf("reading L1 validation %s weight: %w", v.ValidationID, err)
		}
		var before uint64
		if len(old) == 8 {
			before = beUint64(old)
		}
		subnet := v.Subnet
		if subnet == ids.Empty {
			row, err := txn.get(l1ValidationKey(v.ValidationID))
			if err != nil {
				return fmt.Errorf("reading L1 validation %s: %w", v.ValidationID, err)
			}
			if len(row) != l1ValidationSize {
				continue // a validation the index does not hold
			}
			subnet, _ = ids.ToID(row[ids.NodeIDLen : ids.NodeIDLen+ids.IDLen])
		}
		if before == v.Weight {
			continue
		}
		if before > 0 {
			if err := changeStake(txn, subnet, false, before, -1); err != nil {
				return err
			}
		}
		if v.Weight > 0 {
			if err := changeStake(txn, subnet, false, v.Weight, 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// stakeFlush writes the figures the block just written (at time ts)
// changed: now, and as the figures of its day.
func stakeFlush(txn *blockTxn, ts int64) error {
	st := &txn.stake
	if len(st.dirty) == 0 {
		return nil
	}
	day := metricdata.Day.Start(ts)
	for subnet := range st.dirty {
		v := encodeStakeFigures(st.figures[subnet])
		if err := txn.set(stakeNowKey(subnet), v); err != nil {
			return fmt.Errorf("writing the staking figures of subnet %s: %w", subnet, err)
		}
		if err := txn.set(stakeDayKey(subnet, day), v); err != nil {
			return fmt.Errorf("writing the staking figures of subnet %s: %w", subnet, err)
		}
		delete(st.dirty, subnet)
	}
	return nil
}

// stakeBlockEnd applies what a committed Apricot AdvanceTimeTx does after
// block b's txs and writes the figures b changed.
func stakeBlockEnd(txn *blockTxn, b *pdata.Block, ts int64) error {
	if b.NextChainTime != 0 {
		if err := stakeAdvance(txn, b.NextChainTime); err != nil {
			return err
		}
	}
	return stakeFlush(txn, ts)
}
