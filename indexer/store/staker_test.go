package store

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// A staking history: two genesis validators (nodes nG1, nG2); validator V on
// nV with a pre-Cortina style delegator D1 (paid its fee to V's delegation
// owner at once) and a post-Cortina one D2 (aborted; V's own reward pays the
// accrued fees); a delegator D4 of nG1; subnet validators on nV (SV0 ended,
// SV removed, SVo of another subnet) and on nG1 (SV2); an aborted staking
// proposal that adds nobody.
var (
	nG1, nG2, nV, nX          = ids.NodeID{0x61}, ids.NodeID{0x62}, ids.NodeID{0x63}, ids.NodeID{0x64}
	addrG, addrV, addrF       = ids.ShortID{0x71}, ids.ShortID{0x72}, ids.ShortID{0x73}
	addrDel                   = ids.ShortID{0x74}
	subnetS, subnetS2         = ids.ID{'S'}, ids.ID{'S', 2}
	stakerEpoch         int64 = genesisTime
)

type stakingFixture struct {
	f                                *fixture
	gv1, gv2, v, aborted, d1, d2, d4 *pdata.Tx
	sv0, sv, svo, sv2                *pdata.Tx
	rD1, rD2, rV, rG2, rm            *pdata.Tx
	// reward UTXOs
	d1Reward, d1Fee, vReward, vFee, g2Fee pdata.UTXO
	genesis                               *pdata.Block
	before, after                         []*pdata.Block // blocks 1-6, 7-11
}

func owners(a ...ids.ShortID) *pdata.Owners { return &pdata.Owners{Threshold: 1, Addrs: a} }

func reward(staking *pdata.Tx, index uint32, amount uint64, typ string, owner ids.ShortID) pdata.UTXO {
	u := out(staking.ID, index, amount, owner)
	u.Kind, u.RewardType = pdata.KindReward, typ
	u.StakeStart, u.StakeEnd = staking.Staker.Start, staking.Staker.End
	return u
}

func newStakingFixture() *stakingFixture {
	f := newFixture()
	sf := &stakingFixture{f: f}
	staker := func(name, typ string, st pdata.Staker, owner ids.ShortID) *pdata.Tx {
		tx := f.tx(name, typ, nil)
		if st.Weight > 0 {
			s := stake(out(tx.ID, 0, st.Weight, owner), st.Start, st.End)
			tx.Produced = []pdata.UTXO{s}
			st.Stake = []ids.ID{s.ID}
		}
		tx.Staker = &st
		return tx
	}
	sf.gv1 = staker("g1", "AddValidatorTx", pdata.Staker{NodeID: nG1, Start: stakerEpoch, End: 100000, Weight: 2000,
		DelegationShares: 20000, RewardsOwner: owners(addrG), DelegationRewardsOwner: owners(addrG)}, addrG)
	sf.gv2 = staker("g2", "AddValidatorTx", pdata.Staker{NodeID: nG2, Start: stakerEpoch, End: 60000, Weight: 2000,
		DelegationShares: 30000, RewardsOwner: owners(addrG), DelegationRewardsOwner: owners(addrG)}, addrG)
	sf.genesis = &pdata.Block{Number: 0, ID: ids.ID{'g', 'S'}, Type: "genesis", Txs: []*pdata.Tx{sf.gv1, sf.gv2}}

	sf.v = staker("vV", "AddPermissionlessValidatorTx", pdata.Staker{NodeID: nV, Start: 2000, End: 50000, Weight: 3000,
		DelegationShares: 50000, RewardsOwner: owners(addrV), DelegationRewardsOwner: owners(addrF),
		BLSPublicKey: []byte{1, 2, 3}, BLSProofOfPossession: []byte{4, 5}}, addrV)
	sf.aborted = staker("ab", "AddValidatorTx", pdata.Staker{NodeID: nX, Start: 2000, End: 9000, Weight: 100,
		RewardsOwner: owners(addrV), DelegationRewardsOwner: owners(addrV)}, addrV)
	sf.aborted.Outcome = pdata.OutcomeAbort
	sf.v.Outcome = pdata.OutcomeCommit
	sf.d1 = staker("d1", "AddDelegatorTx", pdata.Staker{Delegator: true, NodeID: nV, Start: 3000, End: 20000, Weight: 500,
		RewardsOwner: owners(addrDel)}, addrDel)
	sf.d2 = staker("d2", "AddPermissionlessDelegatorTx", pdata.Staker{Delegator: true, NodeID: nV, Start: 4000, End: 30000,
		Weight: 700, RewardsOwner: owners(addrDel)}, addrDel)
	sf.d4 = staker("d4", "AddPermissionlessDelegatorTx", pdata.Staker{Delegator: true, NodeID: nG1, Start: 5000, End: 40000,
		Weight: 900, RewardsOwner: owners(addrDel)}, addrDel)
	sub := func(name string, node ids.NodeID, subnet ids.ID, start, end int64) *pdata.Tx {
		return staker(name, "AddSubnetValidatorTx", pdata.Staker{NodeID: node, Subnet: subnet, Start: start, End: end, Weight: 1}, addrV)
	}
	sf.sv0 = sub("s0", nV, subnetS, 1500, 2500)
	sf.sv = sub("sS", nV, subnetS, 3000, 90000)
	sf.svo = sub("so", nV, subnetS2, 3000, 90000)
	sf.sv2 = sub("s2", nG1, subnetS, 3000, 40000)
	for _, tx := range []*pdata.Tx{sf.sv0, sf.sv, sf.svo, sf.sv2} {
		tx.Produced, tx.Staker.Stake, tx.Staker.Weight = nil, nil, 1
	}

	rewardTx := func(name string, staking *pdata.Tx, outcome pdata.Outcome, rewards ...pdata.UTXO) *pdata.Tx {
		tx := f.tx(name, "RewardValidatorTx", nil)
		tx.RewardOf, tx.NodeID, tx.Outcome = staking.ID, staking.Staker.NodeID, outcome
		tx.Unstaked, tx.Produced = staking.Staker.Stake, rewards
		return tx
	}
	sf.d1Reward = reward(sf.d1, 1, 30, pdata.RewardDelegator, addrDel)
	sf.d1Fee = reward(sf.d1, 2, 7, pdata.RewardValidatorFee, addrF)
	sf.rD1 = rewardTx("r1", sf.d1, pdata.OutcomeCommit, sf.d1Reward, sf.d1Fee)
	sf.rD2 = rewardTx("r2", sf.d2, pdata.OutcomeAbort)
	sf.vReward = reward(sf.v, 1, 100, pdata.RewardValidator, addrV)
	sf.vFee = reward(sf.v, 2, 12, pdata.RewardValidatorFee, addrF)
	sf.rV = rewardTx("rV", sf.v, pdata.OutcomeCommit, sf.vReward, sf.vFee)
	sf.g2Fee = reward(sf.gv2, 1, 5, pdata.RewardValidatorFee, addrG) // an abort still pays accrued fees
	sf.rG2 = rewardTx("rG", sf.gv2, pdata.OutcomeAbort, sf.g2Fee)
	sf.rm = f.tx("rm", "RemoveSubnetValidatorTx", nil)
	sf.rm.NodeID, sf.rm.Subnet = nV, subnetS

	block := func(n uint64, ts int64, txs ...*pdata.Tx) *pdata.Block {
		return &pdata.Block{Number: n, ID: ids.ID{'B', byte(n)}, Timestamp: ts, Type: "BanffStandardBlock", Txs: txs}
	}
	sf.before = []*pdata.Block{
		block(1, 1500, sf.sv0), block(2, 1900, sf.v), block(3, 1950, sf.aborted),
		block(4, 2900, sf.d1, sf.sv, sf.svo, sf.sv2), block(5, 3900, sf.d2), block(6, 4900, sf.d4),
	}
	sf.after = []*pdata.Block{
		block(7, 20000, sf.rD1), block(8, 25000, sf.rm), block(9, 30000, sf.rD2), block(10, 50000, sf.rV),
		block(11, 60000, sf.rG2),
	}
	return sf
}

func openStaking(t *testing.T, sf *stakingFixture) *Store {
	s, err := Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.SetPrimaryNetwork(testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: sf.genesis}))
	return s
}

func stakerIDs(list []pdata.IndexedStaker) []ids.ID {
	out := make([]ids.ID, len(list))
	for i, s := range list {
		out[i] = s.TxID
	}
	return out
}

func idsOf(txs ...*pdata.Tx) []ids.ID {
	out := make([]ids.ID, len(txs))
	for i, tx := range txs {
		out[i] = tx.ID
	}
	return out
}

func TestStakerStatusOverTime(t *testing.T) {
	require := require.New(t)
	sf := newStakingFixture()
	s := openStaking(t, sf)
	writeP(t, s, sf.before)
	r := s.PrimaryReader(nil)
	list := func(q pdata.StakerQuery) []ids.ID {
		got, err := r.Stakers(context.Background(), q)
		require.NoError(err)
		return stakerIDs(got)
	}
	// Before any reward: what is pending, active or completed follows Now.
	active := pdata.StakerQuery{Status: pdata.StatusActive}
	pending := pdata.StakerQuery{Status: pdata.StatusPending}
	at := func(q pdata.StakerQuery, now int64) pdata.StakerQuery { q.Now = now; return q }
	require.Equal(idsOf(sf.gv1, sf.gv2), list(at(active, 1000)))
	require.Equal(idsOf(sf.sv0, sf.v, sf.sv2, sf.sv, sf.svo), list(at(pending, 1000)))
	require.Equal(idsOf(sf.gv1, sf.gv2, sf.sv0, sf.v), list(at(active, 2000)))
	// SV0 is a permissioned subnet validator: it ends at End, silently.
	require.Equal(idsOf(sf.sv0), list(pdata.StakerQuery{Status: pdata.StatusCompleted, Now: 2500}))
	require.Equal(idsOf(sf.d1, sf.d2), list(pdata.StakerQuery{Delegators: true, Status: pdata.StatusActive, Now: 4000}))
	require.Equal(idsOf(sf.d4), list(pdata.StakerQuery{Delegators: true, Status: pdata.StatusPending, Now: 4000}))

	writeP(t, s, sf.after)
	// A reward tx ends the staker whatever Now says; a RemoveSubnetValidatorTx
	// removes SV, not SV0 (ended) nor SVo (another subnet).
	require.Equal(idsOf(sf.gv1, sf.sv2, sf.svo), list(at(active, 30000)))
	require.Equal(idsOf(sf.gv2, sf.sv0, sf.v), list(pdata.StakerQuery{Status: pdata.StatusCompleted, Now: 30000}))
	require.Equal(idsOf(sf.sv), list(pdata.StakerQuery{Status: pdata.StatusRemoved, Now: 30000}))
	require.Equal(idsOf(sf.d4), list(pdata.StakerQuery{Delegators: true, Status: pdata.StatusActive, Now: 30000}))
	require.Equal(idsOf(sf.d1, sf.d2), list(pdata.StakerQuery{Delegators: true, Status: pdata.StatusCompleted, Now: 30000}))
}

func TestStakerListings(t *testing.T) {
	require := require.New(t)
	sf := newStakingFixture()
	s := openStaking(t, sf)
	writeP(t, s, sf.before)
	writeP(t, s, sf.after)
	r := s.PrimaryReader(nil)
	list := func(q pdata.StakerQuery) []ids.ID {
		got, err := r.Stakers(context.Background(), q)
		require.NoError(err)
		return stakerIDs(got)
	}
	// Every validator by (start, tx ID); the aborted proposal added none.
	// (Stakers of one start go by tx ID: sv2 < sv < svo.)
	all := idsOf(sf.gv1, sf.gv2, sf.sv0, sf.v, sf.sv2, sf.sv, sf.svo)
	require.Equal(all, list(pdata.StakerQuery{}))
	require.Equal(idsOf(sf.d1, sf.d2, sf.d4), list(pdata.StakerQuery{Delegators: true}))
	require.Empty(list(pdata.StakerQuery{NodeIDs: []ids.NodeID{nX}}))

	// Paging both ways, After exclusive.
	require.Equal(all[:3], list(pdata.StakerQuery{Limit: 3}))
	require.Equal(all[3:6], list(pdata.StakerQuery{Limit: 3, After: &pdata.StakerPos{Start: 1500, TxID: sf.sv0.ID}}))
	require.Equal(all[6:], list(pdata.StakerQuery{Limit: 3, After: &pdata.StakerPos{Start: 3000, TxID: sf.sv.ID}}))
	require.Equal(idsOf(sf.svo, sf.sv, sf.sv2), list(pdata.StakerQuery{Desc: true, Limit: 3}))
	require.Equal(idsOf(sf.v, sf.sv0, sf.gv2),
		list(pdata.StakerQuery{Desc: true, Limit: 3, After: &pdata.StakerPos{Start: 3000, TxID: sf.sv2.ID}}))
	require.Equal(idsOf(sf.gv1), list(pdata.StakerQuery{Desc: true, After: &pdata.StakerPos{Start: 1000, TxID: sf.gv2.ID}}))

	// By node (a merge over nodes), by reward address (validation or
	// delegation rewards owner), by tx ID; filters combine.
	require.Equal(idsOf(sf.gv1, sf.sv0, sf.v, sf.sv2, sf.sv, sf.svo), list(pdata.StakerQuery{NodeIDs: []ids.NodeID{nV, nG1}}))
	require.Equal(idsOf(sf.svo, sf.sv, sf.sv2, sf.v, sf.sv0, sf.gv1), list(pdata.StakerQuery{NodeIDs: []ids.NodeID{nG1, nV}, Desc: true}))
	require.Equal(idsOf(sf.d1, sf.d2), list(pdata.StakerQuery{Delegators: true, NodeIDs: []ids.NodeID{nV}}))
	require.Equal(idsOf(sf.v), list(pdata.StakerQuery{RewardAddrs: []ids.ShortID{addrF}}))
	require.Equal(idsOf(sf.gv1, sf.gv2, sf.v), list(pdata.StakerQuery{RewardAddrs: []ids.ShortID{addrV, addrG, addrF}}))
	require.Equal(idsOf(sf.gv2), list(pdata.StakerQuery{RewardAddrs: []ids.ShortID{addrG}, NodeIDs: []ids.NodeID{nG2}}))
	require.Equal(idsOf(sf.d2, sf.d4), list(pdata.StakerQuery{Delegators: true, RewardAddrs: []ids.ShortID{addrDel},
		After: &pdata.StakerPos{Start: 3000, TxID: sf.d1.ID}}))
	require.Equal(idsOf(sf.d1, sf.d4), list(pdata.StakerQuery{Delegators: true, TxIDs: idsOf(sf.d4, sf.v, sf.d1, sf.d4)}))
	require.Equal(idsOf(sf.d4, sf.d1), list(pdata.StakerQuery{Delegators: true, TxIDs: idsOf(sf.d1, sf.d4), Desc: true}))
	require.Equal(idsOf(sf.d1), list(pdata.StakerQuery{Delegators: true, TxIDs: idsOf(sf.d1, sf.d4), Desc: true,
		After: &pdata.StakerPos{Start: 5000, TxID: sf.d4.ID}}))
	require.Empty(list(pdata.StakerQuery{TxIDs: idsOf(sf.aborted, sf.d1)}), "aborted: none; d1: not a validator")
}

func TestStakerContent(t *testing.T) {
	require := require.New(t)
	sf := newStakingFixture()
	s := openStaking(t, sf)
	writeP(t, s, sf.before)
	writeP(t, s, sf.after)
	r := s.PrimaryReader(nil)
	get := func(tx *pdata.Tx) pdata.IndexedStaker {
		got, err := r.Stakers(context.Background(), pdata.StakerQuery{Delegators: tx.Staker.Delegator, TxIDs: idsOf(tx)})
		require.NoError(err)
		require.Len(got, 1)
		return got[0]
	}

	v := get(sf.v)
	require.Equal(*sf.v.Staker, v.Staker)
	require.Equal("AddPermissionlessValidatorTx", v.Type)
	require.Equal(uint64(2), v.Height)
	require.Equal(int64(1900), v.Time)
	require.Equal(sf.rV.ID, v.RewardTx)
	require.Equal(int64(50000), v.RewardTime)
	require.True(v.Committed)
	require.Equal(map[string]uint64{pdata.RewardValidator: 100, pdata.RewardValidatorFee: 12}, v.Rewards)
	require.Equal(map[string][]ids.ShortID{pdata.RewardValidator: {addrV}, pdata.RewardValidatorFee: {addrF}}, v.RewardOwners)
	// D1 and D2 lie within V's period (D4 is another node's); the fees are
	// D1's immediate one and those V's reward paid.
	require.Equal(2, v.DelegatorCount)
	require.Equal(uint64(1200), v.AmountDelegated)
	require.Equal(uint64(7+12), v.DelegationFees)
	require.Equal(pdata.StatusCompleted, v.Status(10000))

	d1 := get(sf.d1)
	require.Equal(sf.v.ID, d1.ValidatorTx)
	require.Equal(uint32(50000), d1.DelegationShares)
	require.True(d1.Committed)
	require.Equal(map[string]uint64{pdata.RewardDelegator: 30, pdata.RewardValidatorFee: 7}, d1.Rewards)
	require.Equal(int64(20000), d1.RewardTime)

	d2 := get(sf.d2)
	require.Equal(sf.rD2.ID, d2.RewardTx)
	require.False(d2.Committed, "aborted: no reward")
	require.Empty(d2.Rewards)
	require.Equal(sf.v.ID, d2.ValidatorTx)

	d4 := get(sf.d4)
	require.Equal(sf.gv1.ID, d4.ValidatorTx, "a genesis validator")
	require.Equal(uint32(20000), d4.DelegationShares)
	gv1 := get(sf.gv1)
	require.Equal(uint64(0), gv1.Height)
	require.Equal(int64(genesisTime), gv1.Time)
	require.Equal(1, gv1.DelegatorCount)
	require.Equal(uint64(900), gv1.AmountDelegated)
	require.Equal(ids.Empty, gv1.RewardTx)

	gv2 := get(sf.gv2)
	require.False(gv2.Committed)
	require.Equal(uint64(5), gv2.DelegationFees, "an aborted validator still gets its accrued fees")

	sv := get(sf.sv)
	require.Equal(sf.rm.ID, sv.RemoveTx)
	require.Equal(int64(25000), sv.RemoveTime)
	require.Zero(sv.DelegatorCount, "primary-network delegators do not delegate to a subnet validator")
	require.Equal(ids.Empty, get(sf.sv0).RemoveTx)
	require.Equal(ids.Empty, get(sf.svo).RemoveTx)
}

func rewardUTXOIDs(list []pdata.IndexedReward) []ids.ID {
	out := make([]ids.ID, len(list))
	for i, rw := range list {
		out[i] = rw.UTXO.ID
	}
	return out
}

func utxoIDs(us ...pdata.UTXO) []ids.ID {
	out := make([]ids.ID, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

func TestRewards(t *testing.T) {
	require := require.New(t)
	sf := newStakingFixture()
	s := openStaking(t, sf)
	writeP(t, s, sf.before)
	writeP(t, s, sf.after)
	r := s.PrimaryReader(nil)
	list := func(q pdata.RewardQuery) []pdata.IndexedReward {
		got, err := r.Rewards(context.Background(), q)
		require.NoError(err)
		return got
	}
	uids := func(q pdata.RewardQuery) []ids.ID { return rewardUTXOIDs(list(q)) }
	// Rewards of one time (D1's reward and fee) go by UTXO ID.
	d1Both, vBoth := byID(sf.d1Reward, sf.d1Fee), byID(sf.vReward, sf.vFee)
	require.Equal(utxoIDs(sf.d1Reward), uids(pdata.RewardQuery{Addrs: []ids.ShortID{addrDel}}))
	require.Equal(utxoIDs(sf.d1Fee, sf.vFee), uids(pdata.RewardQuery{Addrs: []ids.ShortID{addrF}}))
	require.Equal(append(d1Both, vBoth...), uids(pdata.RewardQuery{NodeIDs: []ids.NodeID{nV}}))
	require.Equal(utxoIDs(sf.g2Fee), uids(pdata.RewardQuery{NodeIDs: []ids.NodeID{nG2}}), "paid by an abort")
	require.Empty(uids(pdata.RewardQuery{}))

	// Addresses and nodes merge, each reward once.
	merged := pdata.RewardQuery{Addrs: []ids.ShortID{addrF, addrDel, addrG}, NodeIDs: []ids.NodeID{nV}}
	all := append(append(d1Both, vBoth...), sf.g2Fee.ID)
	require.Equal(all, uids(merged))
	page := merged
	page.Limit = 2
	require.Equal(all[:2], uids(page))
	page.After = &pdata.RewardPos{Time: 20000, UTXOID: all[1]}
	require.Equal(all[2:4], uids(page))
	page.Desc, page.After = true, nil
	require.Equal([]ids.ID{all[4], all[3]}, uids(page))
	page.After = &pdata.RewardPos{Time: 50000, UTXOID: all[2]}
	require.Equal([]ids.ID{all[1], all[0]}, uids(page))

	got := list(pdata.RewardQuery{NodeIDs: []ids.NodeID{nV}})
	byUTXO := map[ids.ID]pdata.IndexedReward{}
	for _, rw := range got {
		byUTXO[rw.UTXO.ID] = rw
	}
	fee := byUTXO[sf.d1Fee.ID]
	require.Equal(sf.d1Fee, fee.UTXO.UTXO)
	require.Equal(sf.rD1.ID, fee.UTXO.CreatingTx)
	require.Equal(int64(20000), fee.UTXO.CreatedTime)
	require.Equal(netinfo.P, fee.UTXO.CreatedOn)
	require.False(fee.UTXO.Spent())
	require.Equal(sf.d1.ID, fee.Staker.TxID, "a delegator's fee rewarded the delegator's staking")
	require.Equal(sf.v.ID, fee.Staker.ValidatorTx)
	vr := byUTXO[sf.vReward.ID]
	require.Equal(sf.v.ID, vr.Staker.TxID)
	require.Equal(2, vr.Staker.DelegatorCount)
	require.Equal(pdata.RewardValidator, vr.UTXO.RewardType)
}

// byID orders the IDs of rewards paid at one time as a listing does.
func byID(us ...pdata.UTXO) []ids.ID {
	out := utxoIDs(us...)
	slices.SortFunc(out, func(a, b ids.ID) int { return bytes.Compare(a[:], b[:]) })
	return out
}

// TestStakingRowsIdempotent writes every block a second time in one
// transaction: the rows come out the same.
func TestStakingRowsIdempotent(t *testing.T) {
	require := require.New(t)
	sf := newStakingFixture()
	s := openStaking(t, sf)
	writeP(t, s, sf.before)
	writeP(t, s, sf.after)
	r := s.PrimaryReader(nil)
	ctx := context.Background()
	snapshot := func() ([]pdata.IndexedStaker, []pdata.IndexedStaker, []pdata.IndexedReward) {
		vals, err := r.Stakers(ctx, pdata.StakerQuery{})
		require.NoError(err)
		dels, err := r.Stakers(ctx, pdata.StakerQuery{Delegators: true})
		require.NoError(err)
		rws, err := r.Rewards(ctx, pdata.RewardQuery{NodeIDs: []ids.NodeID{nV, nG1, nG2}, Addrs: []ids.ShortID{addrF}})
		require.NoError(err)
		return vals, dels, rws
	}
	v1, d1, r1 := snapshot()
	// The fixture's stakers and rewards, so that the comparison below is
	// one of real rows: empty lists would be equal too.
	require.Len(v1, 7)
	require.Len(d1, 3)
	require.Len(r1, 5)

	w := s.newBlockTxn(netinfo.P)
	defer w.txn.Discard()
	net := s.network()
	for _, b := range append(append([]*pdata.Block{sf.genesis}, sf.before...), sf.after...) {
		ts := b.Timestamp
		if ts == 0 {
			ts = genesisTime
		}
		require.NoError(writePrimaryBlock(w, net, netinfo.P, b, ts))
	}
	require.NoError(w.txn.Commit())
	v2, d2, r2 := snapshot()
	require.Equal(v1, v2)
	require.Equal(d1, d2)
	require.Equal(r1, r2)
	require.Len(r2, 5)
}
