package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// Staker and reward writes (0x30-0x35), made by the P writer in the block's
// transaction after the tx's UTXO rows. Each sets keys that follow from the
// tx alone and values computed afresh from it (never added to what a row
// held), so writing a block again leaves the same rows.

// writeStaking records what a P-chain tx does to stakers: a staking tx adds
// one, a RewardValidatorTx ends one and pays its rewards, a
// RemoveSubnetValidatorTx removes a permissioned subnet validator.
func writeStaking(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	switch {
	case tx.Staker != nil:
		// An aborted Apricot staking proposal added no staker.
		if tx.Outcome == pdata.OutcomeAbort {
			return nil
		}
		return addStaker(txn, at, tx)
	case tx.RewardOf != ids.Empty:
		return rewardStaker(txn, at, tx)
	case tx.Type == "RemoveSubnetValidatorTx":
		return removeSubnetValidator(txn, at, tx)
	}
	return nil
}

func addStaker(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	s := pdata.IndexedStaker{TxID: tx.ID, Type: tx.Type, Staker: *tx.Staker, Height: at.pos.Height, Time: at.time}
	// Keep how the staker ended if its row already says it (the block is
	// written again): the staking tx cannot undo its reward or removal.
	old, ok, err := readStakerTxn(txn, tx.ID)
	if err != nil {
		return err
	}
	if ok {
		s.RewardTx, s.RewardTime, s.Committed = old.RewardTx, old.RewardTime, old.Committed
		s.Rewards, s.RewardOwners = old.Rewards, old.RewardOwners
		s.RemoveTx, s.RemoveTime = old.RemoveTx, old.RemoveTime
		s.PotentialReward = old.PotentialReward
	}
	// A staker current from its acceptance got its reward as the block's
	// supply was tracked (supply.go).
	if reward, ok := txn.supply.rewards[tx.ID]; ok {
		s.PotentialReward = &reward
	}
	if err := putStaker(txn, &s); err != nil {
		return err
	}
	st := &s.Staker
	kind := stakerKind(st.Delegator)
	if err := txn.set(stakerOrderPrefix(kind).seq(st.Start, tx.ID), nil); err != nil {
		return err
	}
	var owners addrSet
	owners.addOwners(st.RewardsOwner)
	owners.addOwners(st.DelegationRewardsOwner)
	for _, addr := range owners.list {
		if err := txn.set(stakerAddrPrefix(addr, kind).seq(st.Start, tx.ID), nil); err != nil {
			return err
		}
	}
	return emitStakeEvents(txn, at, tx)
}

// putStaker writes s's row and its node index row (whose summary carries
// the fee its reward paid, so it is rewritten with the row).
func putStaker(txn *blockTxn, s *pdata.IndexedStaker) error {
	if err := txn.set(stakerKey(s.TxID), encodeStaker(s)); err != nil {
		return err
	}
	sum := summaryOf(s)
	st := &s.Staker
	return txn.set(stakerNodePrefix(st.NodeID, stakerKind(st.Delegator)).seq(st.Start, s.TxID), encodeSummary(&sum))
}

// rewardStaker ends the staking period tx.RewardOf and lists the reward
// UTXOs tx pays under their owners and the staker's node. Both options pay
// rewards: an abort still pays a post-Cortina validator's accrued
// delegation fees. A delegator's VALIDATOR_FEE is owned by its validator's
// delegation rewards owner, so it is listed under that owner and under the
// node both share.
func rewardStaker(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	s, known, err := readStakerTxn(txn, tx.RewardOf)
	if err != nil {
		return err
	}
	node := tx.NodeID
	if known {
		node = s.Staker.NodeID
	}
	var rewards map[string]uint64
	owners := map[string]*addrSet{}
	for i := range tx.Produced {
		u := &tx.Produced[i]
		if u.Kind != pdata.KindReward {
			continue
		}
		if rewards == nil {
			rewards = map[string]uint64{}
		}
		rewards[u.RewardType] += u.Amount
		set := owners[u.RewardType]
		if set == nil {
			set = &addrSet{}
			owners[u.RewardType] = set
		}
		set.add(u.Owners.Addrs...)
		var addrs addrSet
		addrs.add(u.Owners.Addrs...)
		for _, addr := range addrs.list {
			if err := txn.set(rewardAddrPrefix(addr).seq(at.time, u.ID), tx.RewardOf[:]); err != nil {
				return err
			}
		}
		if err := txn.set(rewardNodePrefix(node).seq(at.time, u.ID), tx.RewardOf[:]); err != nil {
			return err
		}
	}
	if err := emitRewardEvents(txn, at, tx, &s, known); err != nil {
		return err
	}
	if !known {
		// A staking tx the index does not hold (it cannot happen when the
		// P-chain is indexed from genesis): its rewards are listed all the
		// same, with no staker row to end.
		return nil
	}
	s.RewardTx, s.RewardTime = tx.ID, at.time
	// A Banff RewardValidatorTx is a proposal tx: committed means rewarded.
	s.Committed = tx.Outcome == pdata.OutcomeCommit
	s.Rewards, s.RewardOwners = rewards, nil
	for t, set := range owners {
		if s.RewardOwners == nil {
			s.RewardOwners = map[string][]ids.ShortID{}
		}
		s.RewardOwners[t] = set.list
	}
	if err := putStaker(txn, &s); err != nil {
		return fmt.Errorf("ending staker %s: %w", s.TxID, err)
	}
	return nil
}

// removeSubnetValidator marks the validator of tx.NodeID on tx.Subnet that
// tx removes. A node has at most one current or pending validator per
// subnet (the executor refuses a second), so it is the node's latest
// validator of that subnet not ended yet: current, or before Durango
// possibly pending, which the executor also lets a RemoveSubnetValidatorTx
// remove.
func removeSubnetValidator(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	target, err := removedValidator(txn, at, tx)
	if err != nil || target == nil {
		// No target: the executor verified the validator exists, so the
		// index lacks it only if it does not hold the chain from genesis.
		return err
	}
	target.RemoveTx, target.RemoveTime = tx.ID, at.time
	return putStaker(txn, target)
}

func removedValidator(txn *blockTxn, at txPlace, tx *pdata.Tx) (*pdata.IndexedStaker, error) {
	prefix := stakerNodePrefix(tx.NodeID, kindValidator)
	var target *pdata.IndexedStaker
	err := scanRange(context.Background(), txn.txn, prefix, prefix, nil, true, func(item *badger.Item) (bool, error) {
		var sum stakerSummary
		err := item.Value(func(v []byte) (err error) {
			sum, err = decodeSummary(v)
			return err
		})
		if err != nil {
			return false, err
		}
		if sum.Subnet != tx.Subnet || sum.End <= at.time {
			return true, nil
		}
		s, ok, err := readStakerTxn(txn, seqAt(item.Key()[len(prefix):]).id)
		if err != nil || !ok {
			return err == nil, err
		}
		if s.RemoveTx != ids.Empty && s.RemoveTx != tx.ID {
			return true, nil // removed before, then added again
		}
		target = &s
		return false, nil
	})
	if err != nil {
		return nil, fmt.Errorf("finding the validator of %s on subnet %s: %w", tx.NodeID, tx.Subnet, err)
	}
	return target, nil
}

// readStakerTxn reads a staker row in a write transaction (seeing the
// transaction's own writes).
func readStakerTxn(txn *blockTxn, id ids.ID) (pdata.IndexedStaker, bool, error) {
	v, err := txn.get(stakerKey(id))
	if err != nil || v == nil {
		if err != nil {
			err = fmt.Errorf("reading staker %s: %w", id, err)
		}
		return pdata.IndexedStaker{}, false, err
	}
	s, err := decodeStaker(id, v)
	if err != nil {
		return s, false, fmt.Errorf("staker %s: %w", id, err)
	}
	return s, true, nil
}
