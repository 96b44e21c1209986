package handlertest

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/indexer/pdata"
)

// Staking is an in-memory StakingReader that answers the way the store
// does: stakers of one kind filtered by node, rewards owner, staking tx and
// status at Now, ordered by start then tx ID; rewards paid to any of Addrs
// or to stakers of any of NodeIDs, ordered by reward time then UTXO ID;
// both resumed after a position and cut at Limit.
type Staking struct {
	mu         sync.Mutex
	StakerList []pdata.IndexedStaker
	RewardList []pdata.IndexedReward
	Err        error // returned by every call when set
	// L1ValidationState is what L1Validations answers from.
	L1ValidationState pdata.L1Validations

	StakerQueries []pdata.StakerQuery
	rewardQueries []pdata.RewardQuery
}

func NewStaking() *Staking { return &Staking{} }

func cmpStakerPos(a, b pdata.StakerPos) int {
	if c := cmp.Compare(a.Start, b.Start); c != 0 {
		return c
	}
	return a.TxID.Compare(b.TxID)
}

func cmpRewardPos(a, b pdata.RewardPos) int {
	if c := cmp.Compare(a.Time, b.Time); c != 0 {
		return c
	}
	return a.UTXOID.Compare(b.UTXOID)
}

// afterPos reports whether pos comes after the position in the listing's order.
func afterPos[P any](pos P, after *P, desc bool, compare func(a, b P) int) bool {
	switch {
	case after == nil:
		return true
	case desc:
		return compare(pos, *after) < 0
	default:
		return compare(pos, *after) > 0
	}
}

func (f *Staking) Stakers(ctx context.Context, q pdata.StakerQuery) ([]pdata.IndexedStaker, error) {
	f.mu.Lock()
	f.StakerQueries = append(f.StakerQueries, q)
	all := slices.Clone(f.StakerList)
	err := f.Err
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	pos := func(s *pdata.IndexedStaker) pdata.StakerPos {
		return pdata.StakerPos{Start: s.Staker.Start, TxID: s.TxID}
	}
	slices.SortFunc(all, func(a, b pdata.IndexedStaker) int { return cmpStakerPos(pos(&a), pos(&b)) })
	if q.Desc {
		slices.Reverse(all)
	}
	var out []pdata.IndexedStaker
	for i := range all {
		st := &all[i]
		owner := []ids.ShortID(nil)
		if st.Staker.RewardsOwner != nil {
			owner = st.Staker.RewardsOwner.Addrs
		}
		switch {
		case st.Staker.Delegator != q.Delegators,
			len(q.NodeIDs) > 0 && !slices.Contains(q.NodeIDs, st.Staker.NodeID),
			len(q.RewardAddrs) > 0 && !slices.ContainsFunc(q.RewardAddrs, func(a ids.ShortID) bool { return slices.Contains(owner, a) }),
			len(q.TxIDs) > 0 && !slices.Contains(q.TxIDs, st.TxID),
			q.Status != "" && st.Status(q.Now) != q.Status,
			!afterPos(pos(st), q.After, q.Desc, cmpStakerPos):
			continue
		}
		if q.Limit > 0 && len(out) == q.Limit { // as the store: no bound when <= 0
			break
		}
		out = append(out, *st)
	}
	return out, ctx.Err()
}

func (f *Staking) Rewards(ctx context.Context, q pdata.RewardQuery) ([]pdata.IndexedReward, error) {
	f.mu.Lock()
	f.rewardQueries = append(f.rewardQueries, q)
	all := slices.Clone(f.RewardList)
	err := f.Err
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	pos := func(r *pdata.IndexedReward) pdata.RewardPos {
		return pdata.RewardPos{Time: r.UTXO.CreatedTime, UTXOID: r.UTXO.ID}
	}
	slices.SortFunc(all, func(a, b pdata.IndexedReward) int { return cmpRewardPos(pos(&a), pos(&b)) })
	if q.Desc {
		slices.Reverse(all)
	}
	var out []pdata.IndexedReward
	for i := range all {
		r := &all[i]
		paidTo := slices.ContainsFunc(q.Addrs, func(a ids.ShortID) bool { return slices.Contains(r.UTXO.Owners.Addrs, a) })
		if !(paidTo || slices.Contains(q.NodeIDs, r.Staker.Staker.NodeID)) || !afterPos(pos(r), q.After, q.Desc, cmpRewardPos) {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, *r)
	}
	return out, ctx.Err()
}

// Platform is an in-memory PlatformStateReader that answers as
// platform.getCurrentValidators does: every validator without its
// delegators when no node is given, the validators of the given nodes, with
// their delegators only when exactly one node is asked for.
type Platform struct {
	mu         sync.Mutex
	Validators []platformvm.ClientPermissionlessValidator
	Err        error // returned by every call when set
	Calls      [][]ids.NodeID
	State      L1State
}

func NewPlatform() *Platform { return &Platform{} }

func (f *Platform) CurrentValidators(ctx context.Context, nodeIDs []ids.NodeID) ([]platformvm.ClientPermissionlessValidator, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Calls = append(f.Calls, slices.Clone(nodeIDs))
	if f.Err != nil {
		return nil, f.Err
	}
	var out []platformvm.ClientPermissionlessValidator
	for _, v := range f.Validators {
		if len(nodeIDs) > 0 && !slices.Contains(nodeIDs, v.NodeID) {
			continue
		}
		if len(nodeIDs) != 1 {
			v.Delegators = nil
		}
		out = append(out, v)
	}
	return out, ctx.Err()
}

func (f *Platform) CallCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.Calls)
}

// L1State is the fake's live L1 and supply state: SubnetValidators answers
// from Subnets, L1Validator from L1 (absent: not found), CurrentSupply
// Supply.
type L1State struct {
	Subnets map[ids.ID][]platformvm.ClientPermissionlessValidator
	L1      map[ids.ID]platformvm.L1Validator
	Height  uint64
	Supply  uint64
}

func (f *Platform) SubnetValidators(ctx context.Context, subnetID ids.ID) ([]platformvm.ClientPermissionlessValidator, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Err != nil {
		return nil, f.Err
	}
	return slices.Clone(f.State.Subnets[subnetID]), ctx.Err()
}

func (f *Platform) L1Validator(ctx context.Context, validationID ids.ID) (platformvm.L1Validator, uint64, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Err != nil {
		return platformvm.L1Validator{}, 0, false, f.Err
	}
	v, ok := f.State.L1[validationID]
	return v, f.State.Height, ok, ctx.Err()
}

func (f *Platform) CurrentSupply(ctx context.Context) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Err != nil {
		return 0, f.Err
	}
	return f.State.Supply, ctx.Err()
}
