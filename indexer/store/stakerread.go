package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// Stakers lists validators or delegators (q.Delegators) as q selects them,
// ordered by (start, staking tx ID). The listing walks one index: q.TxIDs
// (point reads), else q.NodeIDs (0x31), else q.RewardAddrs (0x32), else
// every staker of the kind (0x33); the other filters (including Status at
// q.Now) are checked on the rows it meets. At most q.Limit stakers (no bound
// when <= 0). Validators come with their delegators' count, amount and fees;
// delegators with their validator.
func (r *PrimaryReader) Stakers(ctx context.Context, q pdata.StakerQuery) ([]pdata.IndexedStaker, error) {
	var out []pdata.IndexedStaker
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		keep := stakerFilter(&q)
		visit := func(id ids.ID) (bool, error) {
			s, ok, err := readStaker(txn, id)
			if err != nil {
				return false, err
			}
			if !ok || !keep(&s) {
				return true, nil
			}
			if !q.Bare {
				if err := fillStaker(ctx, txn, &s); err != nil {
					return false, err
				}
			}
			out = append(out, s)
			return q.Limit <= 0 || len(out) < q.Limit, nil
		}
		if len(q.TxIDs) > 0 {
			return stakersByTxID(txn, &q, visit)
		}
		kind := stakerKind(q.Delegators)
		var ranges []rangeIter
		var after *seqPos
		if q.After != nil {
			after = &seqPos{n: uint64(q.After.Start), id: q.After.TxID}
		}
		switch {
		case len(q.NodeIDs) > 0:
			for _, node := range q.NodeIDs {
				ranges = append(ranges, seqRange(txn, stakerNodePrefix(node, kind), after, q.Desc))
			}
		case len(q.RewardAddrs) > 0:
			for _, addr := range q.RewardAddrs {
				ranges = append(ranges, seqRange(txn, stakerAddrPrefix(addr, kind), after, q.Desc))
			}
		default:
			ranges = append(ranges, seqRange(txn, stakerOrderPrefix(kind), after, q.Desc))
		}
		return mergeRanges(ctx, ranges, seqOrder, func(pos seqPos, _ *badger.Item) (bool, error) { return visit(pos.id) })
	})
	if err != nil {
		return nil, fmt.Errorf("listing stakers: %w", err)
	}
	return out, nil
}

// stakersByTxID visits the stakers of q.TxIDs that come after q.After, in
// the listing's order.
func stakersByTxID(txn *badger.Txn, q *pdata.StakerQuery, visit func(ids.ID) (bool, error)) error {
	var found []seqPos
	seen := map[ids.ID]bool{}
	for _, id := range q.TxIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		s, ok, err := readStaker(txn, id)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		pos := seqPos{n: uint64(s.Staker.Start), id: id}
		if q.After != nil && !seqOrder.before(seqPos{n: uint64(q.After.Start), id: q.After.TxID}, pos, q.Desc) {
			continue
		}
		found = append(found, pos)
	}
	slices.SortFunc(found, func(a, b seqPos) int {
		if seqOrder.before(a, b, q.Desc) {
			return -1
		}
		return 1
	})
	for _, pos := range found {
		if more, err := visit(pos.id); err != nil || !more {
			return err
		}
	}
	return nil
}

// stakerFilter checks every condition of q on a staker row, whichever
// index found it.
func stakerFilter(q *pdata.StakerQuery) func(*pdata.IndexedStaker) bool {
	nodes := make(map[ids.NodeID]bool, len(q.NodeIDs))
	for _, n := range q.NodeIDs {
		nodes[n] = true
	}
	addrs := make(map[ids.ShortID]bool, len(q.RewardAddrs))
	for _, a := range q.RewardAddrs {
		addrs[a] = true
	}
	txIDs := make(map[ids.ID]bool, len(q.TxIDs))
	for _, id := range q.TxIDs {
		txIDs[id] = true
	}
	return func(s *pdata.IndexedStaker) bool {
		st := &s.Staker
		switch {
		case st.Delegator != q.Delegators,
			len(nodes) > 0 && !nodes[st.NodeID],
			len(txIDs) > 0 && !txIDs[s.TxID],
			len(addrs) > 0 && !ownsAny(st.RewardsOwner, addrs) && !ownsAny(st.DelegationRewardsOwner, addrs),
			q.Status != "" && s.Status(q.Now) != q.Status:
			return false
		}
		return true
	}
}

func ownsAny(o *pdata.Owners, addrs map[ids.ShortID]bool) bool {
	if o == nil {
		return false
	}
	for _, a := range o.Addrs {
		if addrs[a] {
			return true
		}
	}
	return false
}

// fillStaker derives what a staker's row does not hold from the node's
// other stakers: a validator's delegators (same node and subnet, period
// within the validator's) with the fees they paid, or a delegator's
// validator (same node and subnet, period containing the delegator's).
// Relating them at read time keeps every row a function of its own txs.
func fillStaker(ctx context.Context, txn *badger.Txn, s *pdata.IndexedStaker) error {
	st := &s.Staker
	if !st.Delegator {
		// Post-Cortina fees come with the validator's own reward tx,
		// pre-Cortina ones with each delegator's.
		s.DelegationFees = s.Rewards[pdata.RewardValidatorFee]
		prefix := stakerNodePrefix(st.NodeID, kindDelegator)
		lo, hi := prefix.u64(uint64(st.Start)), stakerNodePrefix(st.NodeID, kindDelegator).u64(uint64(st.End)+1)
		err := scanRange(ctx, txn, prefix, lo, hi, false, func(item *badger.Item) (bool, error) {
			sum, err := itemSummary(item)
			if err != nil {
				return false, err
			}
			if sum.Subnet == st.Subnet && sum.End <= st.End {
				s.DelegatorCount++
				s.AmountDelegated += sum.Weight
				s.DelegationFees += sum.Fee
			}
			return true, nil
		})
		if err != nil {
			return fmt.Errorf("delegators of validator %s: %w", s.TxID, err)
		}
		return nil
	}
	prefix := stakerNodePrefix(st.NodeID, kindValidator)
	hi := stakerNodePrefix(st.NodeID, kindValidator).u64(uint64(st.Start) + 1)
	var validator ids.ID
	err := scanRange(ctx, txn, prefix, prefix, hi, true, func(item *badger.Item) (bool, error) {
		sum, err := itemSummary(item)
		if err != nil {
			return false, err
		}
		if sum.Subnet == st.Subnet && sum.End >= st.End {
			validator = seqAt(item.Key()[len(prefix):]).id
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("validator of delegator %s: %w", s.TxID, err)
	}
	if validator == ids.Empty {
		return nil
	}
	v, ok, err := readStaker(txn, validator)
	if err != nil || !ok {
		return err
	}
	s.ValidatorTx, s.DelegationShares = validator, v.Staker.DelegationShares
	return nil
}

func itemSummary(item *badger.Item) (sum stakerSummary, err error) {
	err = item.Value(func(v []byte) (err error) {
		sum, err = decodeSummary(v)
		return err
	})
	return sum, err
}

func readStaker(txn *badger.Txn, id ids.ID) (pdata.IndexedStaker, bool, error) {
	v, err := getValue(txn, stakerKey(id))
	if err != nil {
		return pdata.IndexedStaker{}, false, fmt.Errorf("reading staker %s: %w", id, err)
	}
	if v == nil {
		return pdata.IndexedStaker{}, false, nil
	}
	s, err := decodeStaker(id, v)
	if err != nil {
		return s, false, fmt.Errorf("staker %s: %w", id, err)
	}
	return s, true, nil
}

// Rewards lists the reward UTXOs paid to any of q.Addrs or for a staker of
// any of q.NodeIDs (each once), ordered by (reward time, UTXO ID), at most
// q.Limit (no bound when <= 0); each with the UTXO as the index knows it and
// the staker it rewarded. No address and no node select nothing.
func (r *PrimaryReader) Rewards(ctx context.Context, q pdata.RewardQuery) ([]pdata.IndexedReward, error) {
	var out []pdata.IndexedReward
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		var after *seqPos
		if q.After != nil {
			after = &seqPos{n: uint64(q.After.Time), id: q.After.UTXOID}
		}
		var ranges []rangeIter
		for _, addr := range q.Addrs {
			ranges = append(ranges, seqRange(txn, rewardAddrPrefix(addr), after, q.Desc))
		}
		for _, node := range q.NodeIDs {
			ranges = append(ranges, seqRange(txn, rewardNodePrefix(node), after, q.Desc))
		}
		// A staker usually earns more than one reward UTXO (reward and fee).
		stakers := map[ids.ID]pdata.IndexedStaker{}
		return mergeRanges(ctx, ranges, seqOrder, func(pos seqPos, item *badger.Item) (bool, error) {
			stakingID, err := itemID(item)
			if err != nil {
				return false, fmt.Errorf("corrupt reward row of utxo %s: %w", pos.id, err)
			}
			u, _, err := loadIndexedUTXO(txn, pos.id, pdata.UTXO{ID: pos.id, TxID: stakingID, Kind: pdata.KindReward})
			if err != nil {
				return false, err
			}
			s, ok := stakers[stakingID]
			if !ok {
				s, err = rewardedStaker(ctx, txn, stakingID)
				if err != nil {
					return false, err
				}
				stakers[stakingID] = s
			}
			out = append(out, pdata.IndexedReward{UTXO: u, Staker: s})
			return q.Limit <= 0 || len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing rewards: %w", err)
	}
	return out, nil
}

// rewardedStaker is the staker a reward was paid for, with its derived
// fields; only its ID when the index does not hold it.
func rewardedStaker(ctx context.Context, txn *badger.Txn, id ids.ID) (pdata.IndexedStaker, error) {
	s, ok, err := readStaker(txn, id)
	if err != nil || !ok {
		return pdata.IndexedStaker{TxID: id}, err
	}
	return s, fillStaker(ctx, txn, &s)
}
