package store

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	safemath "github.com/ava-labs/avalanchego/utils/math"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// The P writer tracks the primary network's current supply as platformvm
// does (every SetCurrentSupply of the primary network in v1.14.2):
//
//   - genesis: InitialSupply, then each genesis validator's reward added in
//     genesis order (state.State.syncGenesis);
//   - before Durango a staking tx adds a pending staker, and its reward is
//     added when the chain time reaches its start (txs/executor
//     state_changes.go advanceTimeTo: pending stakers in state.Staker.Less
//     order, each with the supply the ones before it left); the chain time
//     advances at a committed Apricot AdvanceTimeTx
//     (proposal_tx_executor.go AdvanceTimeTx) and before the txs of every
//     Banff standard and proposal block (block/executor/verifier.go);
//   - from Durango on a staking tx's reward, for the period from its
//     acceptance, is added at once (standard_tx_executor.go putStaker);
//   - an aborted RewardValidatorTx takes the staker's reward back
//     (proposal_tx_executor.go RewardValidatorTx; a commit keeps it).
//
// Fees (burned or paid by L1 validators) never change it. Only the primary
// network's supply is tracked: stakers of elastic subnets count toward
// their subnet's.

// supplyState is the supply after the last P-chain block a transaction
// wrote.
type supplyState struct {
	loaded bool // value and known hold what the previous block left
	known  bool
	value  uint64
	// rewards are the potential rewards of the stakers the block being
	// written makes current at acceptance, for their staker rows.
	rewards map[ids.ID]uint64
	// noPending says the pending-staker rows are empty: a scan found none
	// and no staker was made pending since. It spares a Badger iterator per
	// block, which is most of a block's write cost on a chain past Durango,
	// where no staker is ever pending.
	noPending bool
}

// after is the supply to store with the block just tracked (nil: unknown).
func (s *supplyState) after() *uint64 {
	if !s.known {
		return nil
	}
	v := s.value
	return &v
}

// genesisSupply starts the supply at g, the P-chain genesis, when the
// network's supply rules are known.
func genesisSupply(txn *blockTxn, net *PrimaryNetwork, g *pdata.Block) {
	s := &txn.supply
	*s = supplyState{loaded: true}
	if net.Supply == nil {
		return
	}
	s.known, s.value, s.rewards = true, net.Supply.InitialSupply, map[ids.ID]uint64{}
	for _, tx := range g.Txs {
		if st := tx.Staker; st != nil && st.Subnet == constants.PrimaryNetworkID {
			// Genesis stakers are current from their own start.
			s.rewards[tx.ID] = s.add(net, st.Start, st)
		}
	}
}

// add adds the reward of a staker current from start to the supply and
// returns it.
func (s *supplyState) add(net *PrimaryNetwork, start int64, st *pdata.Staker) uint64 {
	duration := time.Duration(st.End-start) * time.Second
	potential := net.Supply.Rewards.Calculate(duration, st.Weight, s.value)
	// The calculator never returns more than what is left to the supply
	// cap, so the sum cannot overflow.
	s.value += potential
	return potential
}

// trackSupply applies block b, written at chain time ts, to the supply.
func trackSupply(txn *blockTxn, net *PrimaryNetwork, b *pdata.Block, ts int64) error {
	s := &txn.supply
	if !s.loaded {
		if err := loadSupply(txn, net, b.Number); err != nil {
			return err
		}
	}
	s.rewards = nil
	if !s.known {
		return nil
	}
	if b.AdvancesTime {
		if err := promote(txn, net, ts); err != nil {
			return err
		}
	}
	for _, tx := range b.Txs {
		if err := supplyTx(txn, net, b, ts, tx); err != nil {
			return fmt.Errorf("tx %s: %w", tx.ID, err)
		}
		if !s.known {
			return nil
		}
	}
	// A committed Apricot AdvanceTimeTx, the block's only tx.
	if b.NextChainTime != 0 {
		return promote(txn, net, b.NextChainTime)
	}
	return nil
}

// loadSupply reads what the block before height left: nothing is known
// when it has no supply, or when there is no genesis to start from.
func loadSupply(txn *blockTxn, net *PrimaryNetwork, height uint64) error {
	s := &txn.supply
	*s = supplyState{loaded: true}
	if net.Supply == nil || height <= 1 {
		// Block 1 of a fresh cursor comes after the genesis (genesisSupply),
		// so here the P-chain genesis is unknown.
		return nil
	}
	prev, err := previousBlock(txn, height)
	if err != nil || prev == nil {
		return err
	}
	if prev.CurrentSupply != nil {
		s.known, s.value = true, *prev.CurrentSupply
	}
	return nil
}

// supplyTx applies one tx of b.
func supplyTx(txn *blockTxn, net *PrimaryNetwork, b *pdata.Block, ts int64, tx *pdata.Tx) error {
	s := &txn.supply
	switch {
	case tx.Staker != nil:
		st := tx.Staker
		// An aborted Apricot staking proposal added nobody (its Staker is
		// cleared then too); permissioned subnet validators earn nothing.
		if tx.Outcome == pdata.OutcomeAbort || st.Subnet != constants.PrimaryNetworkID {
			return nil
		}
		if !b.Durango {
			s.noPending = false
			return txn.set(pendingKey(st.Start, st.PendingPriority, tx.ID), nil)
		}
		if s.rewards == nil {
			s.rewards = map[ids.ID]uint64{}
		}
		s.rewards[tx.ID] = s.add(net, ts, st)
	case tx.RewardOf != ids.Empty && tx.Outcome == pdata.OutcomeAbort:
		staker, ok, err := readStakerTxn(txn, tx.RewardOf)
		if err != nil {
			return err
		}
		if ok && staker.Staker.Subnet != constants.PrimaryNetworkID {
			return nil
		}
		if !ok || staker.PotentialReward == nil {
			// Cannot happen with the supply known (the staker was indexed
			// and rewarded when it became current); rather than guess, the
			// supply is unknown from here on.
			s.known = false
			return nil
		}
		value, err := safemath.Sub(s.value, *staker.PotentialReward)
		if err != nil {
			return fmt.Errorf("taking back %d of staker %s: %w", *staker.PotentialReward, tx.RewardOf, err)
		}
		s.value = value
	}
	return nil
}

// promote makes current the pending stakers that start by chainTime, in
// platformvm's order, adding each one's reward to the supply and to its
// staker row.
func promote(txn *blockTxn, net *PrimaryNetwork, chainTime int64) error {
	if txn.supply.noPending {
		return nil
	}
	prefix := key{tagPending}
	var due [][]byte
	later := false // a pending staker starts after chainTime
	err := scanRange(context.Background(), txn.txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
		k := item.Key()
		if int64(beUint64(k[1:9])) > chainTime {
			later = true
			return false, nil
		}
		due = append(due, item.KeyCopy(nil))
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("listing pending stakers: %w", err)
	}
	txn.supply.noPending = !later
	for _, k := range due {
		txID, err := ids.ToID(k[len(k)-ids.IDLen:])
		if err != nil {
			return err
		}
		staker, ok, err := readStakerTxn(txn, txID)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("pending staker %s has no staker row", txID)
		}
		potential := txn.supply.add(net, staker.Staker.Start, &staker.Staker)
		staker.PotentialReward = &potential
		if err := putStaker(txn, &staker); err != nil {
			return fmt.Errorf("promoting staker %s: %w", txID, err)
		}
		if err := txn.delete(k); err != nil {
			return err
		}
	}
	return nil
}
