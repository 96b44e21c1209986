package handlers

import (
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Staking history on the local network, as of the fake clock (testNow).
// Node testProposer validated from the P-chain fixtures' staking tx
// (completed, rewarded), validates now (active; the node reports it with
// one delegator), will validate again (pending), and validated a
// permissioned subnet twice (once removed, once run to its end). Node
// testNodeB validates now, unknown to the node's current validators.
// Delegations to testProposer: two completed before Cortina-style (fee paid
// by the delegator's reward tx) and after (fee accrued), one aborted, one
// active, one pending; one active to testNodeB. pCarol receives most
// delegation rewards.
var (
	pCarol         = shortAddr(0xc0)
	testNodeB      = ids.BuildTestNodeID([]byte{4, 5, 6}) // testNodeID2
	testNodeC      = ids.BuildTestNodeID([]byte{7})       // a current validator the index does not hold
	testPermSubnet = ids.ID{'p', 's'}
)

const testNow = 1_700_000_000 // newFakeClock's time

func stakingTxID(n uint64) ids.ID { return ids.ID{'s', 't'}.Prefix(n) }

// Staking txs of the fixtures.
var (
	vCompleted     = fixtureTxID(netinfo.P, 2) // the P-chain fixtures' AddPermissionlessValidatorTx
	vActive        = stakingTxID(1)
	vRemoved       = stakingTxID(2)
	vRemoveTx      = stakingTxID(3)
	vPending       = stakingTxID(4)
	vActiveB       = stakingTxID(5)
	vSubnetEnded   = stakingTxID(6)
	dPreCortina    = stakingTxID(10)
	dPostCortina   = stakingTxID(12)
	dActive        = stakingTxID(14)
	dPending       = stakingTxID(15)
	dActiveB       = stakingTxID(16)
	dAborted       = stakingTxID(17)
	dPreRewardTx   = stakingTxID(11)
	dPostRewardTx  = stakingTxID(13)
	dAbortRewardTx = stakingTxID(18)
)

func owners(a ids.ShortID) *pdata.Owners { return &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{a}} }

// loadStakingFixtures fills the staking and platform fakes; p must hold the
// P-chain fixtures (the completed validator's staking tx is read from it).
func loadStakingFixtures(b *fakeBackend) {
	var first pdata.Staker
	for _, itx := range b.primary.txs[netinfo.P] {
		if itx.Tx.ID == vCompleted {
			first = *itx.Tx.Staker
		}
	}
	validator := func(id ids.ID, txType string, st pdata.Staker) pdata.IndexedStaker {
		return pdata.IndexedStaker{TxID: id, Type: txType, Staker: st, Height: 40, Time: blockTime(40)}
	}
	completed := validator(vCompleted, "AddPermissionlessValidatorTx", first)
	completed.Height, completed.Time = 2, blockTime(2)
	completed.RewardTx, completed.RewardTime, completed.Committed = fixtureTxID(netinfo.P, 5), blockTime(5), true
	completed.Rewards = map[string]uint64{pdata.RewardValidator: 7_000, pdata.RewardValidatorFee: 30}
	// Fees: 30 by its own reward tx, 100 by the pre-Cortina delegation's.
	completed.DelegatorCount, completed.AmountDelegated, completed.DelegationFees = 3, 80, 130

	active := validator(vActive, "AddPermissionlessValidatorTx", pdata.Staker{NodeID: testProposer, Start: testNow - 100_000,
		End: testNow + 1_000_000, Weight: 2_000_000_000_000, DelegationShares: 30_000, RewardsOwner: owners(pCarol),
		DelegationRewardsOwner: owners(pCarol), BLSPublicKey: []byte{0xaa}, BLSProofOfPossession: []byte{0xbb}})
	active.DelegatorCount, active.AmountDelegated = 2, 1

	removed := validator(vRemoved, "AddSubnetValidatorTx", pdata.Staker{NodeID: testProposer, Subnet: testPermSubnet,
		Start: testNow - 50_000, End: testNow + 50_000, Weight: 20})
	removed.RemoveTx, removed.RemoveTime = vRemoveTx, testNow-1_000

	pending := validator(vPending, "AddValidatorTx", pdata.Staker{NodeID: testProposer, Start: testNow + 10_000,
		End: testNow + 2_000_000, Weight: 2_000_000_000_000, DelegationShares: 50_000, RewardsOwner: owners(pCarol)})
	activeB := validator(vActiveB, "AddPermissionlessValidatorTx", pdata.Staker{NodeID: testNodeB, Start: testNow - 10,
		End: testNow + 100, Weight: 1_000, DelegationShares: 20_000, RewardsOwner: owners(pBob)})
	subnetEnded := validator(vSubnetEnded, "AddSubnetValidatorTx", pdata.Staker{NodeID: testProposer, Subnet: testPermSubnet,
		Start: blockTime(3), End: blockTime(4), Weight: 10})

	delegator := func(id ids.ID, txType string, node ids.NodeID, start, end int64, weight uint64, owner ids.ShortID,
		shares uint32, validatorTx ids.ID) pdata.IndexedStaker {
		d := validator(id, txType, pdata.Staker{Delegator: true, NodeID: node, Start: start, End: end, Weight: weight,
			RewardsOwner: owners(owner)})
		d.DelegationShares, d.ValidatorTx = shares, validatorTx
		return d
	}
	pre := delegator(dPreCortina, "AddDelegatorTx", testProposer, blockTime(2)+1, blockTime(4), 25, pCarol, 20_000, vCompleted)
	pre.RewardTx, pre.RewardTime, pre.Committed = dPreRewardTx, blockTime(4), true
	pre.Rewards = map[string]uint64{pdata.RewardDelegator: 900, pdata.RewardValidatorFee: 100}
	post := delegator(dPostCortina, "AddPermissionlessDelegatorTx", testProposer, blockTime(2)+2, blockTime(4)+1, 25, pBob,
		20_000, vCompleted)
	post.RewardTx, post.RewardTime, post.Committed = dPostRewardTx, blockTime(4)+1, true
	post.Rewards = map[string]uint64{pdata.RewardDelegator: 980}
	aborted := delegator(dAborted, "AddDelegatorTx", testProposer, blockTime(2)+3, blockTime(4)+2, 30, pCarol, 20_000, vCompleted)
	aborted.RewardTx, aborted.RewardTime = dAbortRewardTx, blockTime(4)+2

	b.staking.stakers = []pdata.IndexedStaker{completed, active, removed, pending, activeB, subnetEnded, pre, post, aborted,
		delegator(dActive, "AddPermissionlessDelegatorTx", testProposer, testNow-50_000, testNow+500_000, 25_000_000_000,
			pCarol, 30_000, vActive),
		delegator(dPending, "AddDelegatorTx", testProposer, testNow+20_000, testNow+900_000, 30, pCarol, 50_000, vPending),
		delegator(dActiveB, "AddPermissionlessDelegatorTx", testNodeB, testNow-5, testNow+50, 40, pBob, 20_000, vActiveB),
	}

	rewardUTXO := func(st pdata.IndexedStaker, idx uint32, owner ids.ShortID, amount uint64, rewardType string) pdata.IndexedReward {
		u := newUTXO(netinfo.P, st.TxID, idx, owner, amount, 0)
		u.Kind, u.RewardType, u.CreatingTx = pdata.KindReward, rewardType, st.RewardTx
		u.CreatedTime, u.StakeStart, u.StakeEnd = st.RewardTime, st.Staker.Start, st.Staker.End
		return pdata.IndexedReward{UTXO: u, Staker: st}
	}
	b.staking.rewards = []pdata.IndexedReward{
		rewardUTXO(completed, 2, pAlice, 7_000, pdata.RewardValidator),
		rewardUTXO(completed, 3, pAlice, 30, pdata.RewardValidatorFee),
		rewardUTXO(pre, 1, pCarol, 900, pdata.RewardDelegator),
		rewardUTXO(pre, 2, pAlice, 100, pdata.RewardValidatorFee),
		rewardUTXO(post, 1, pBob, 980, pdata.RewardDelegator),
	}

	u64 := func(n uint64) *uint64 { return &n }
	uptime, connected := float32(99.9), true
	b.platform.validators = []platformvm.ClientPermissionlessValidator{
		{
			ClientStaker: platformvm.ClientStaker{TxID: vActive, StartTime: testNow - 100_000, EndTime: testNow + 1_000_000,
				Weight: 2_000_000_000_000, NodeID: testProposer},
			PotentialReward: u64(5_000_000), AccruedDelegateeReward: u64(1_000), DelegationFee: 3, Uptime: &uptime,
			Connected: &connected, DelegatorCount: u64(1), DelegatorWeight: u64(25_000_000_000),
			Delegators: []platformvm.ClientDelegator{{
				ClientStaker:    platformvm.ClientStaker{TxID: dActive, Weight: 25_000_000_000, NodeID: testProposer},
				PotentialReward: u64(1_000_000),
			}},
		},
		{
			ClientStaker:   platformvm.ClientStaker{TxID: ids.ID{'c'}, Weight: 7_975_000_000_000, NodeID: testNodeC},
			DelegatorCount: u64(0), DelegatorWeight: u64(0),
		},
	}
}

// addStakingTxs indexes the staking txs of pCarol's stakers on the P-chain
// (heights 40..44, after the P-chain fixtures): the active validator, the
// completed delegation, the active and the pending ones, and a BaseTx.
func addStakingTxs(b *fakeBackend) {
	byID := map[ids.ID]pdata.IndexedStaker{}
	for _, st := range b.staking.stakers {
		byID[st.TxID] = st
	}
	for i, id := range []ids.ID{vActive, dPreCortina, dActive, dPending, stakingTxID(99)} {
		h := uint64(40 + i)
		tx := &pdata.Tx{ID: id, Type: "BaseTx"}
		if st, ok := byID[id]; ok {
			tx.Type, tx.Staker = st.Type, &st.Staker
		}
		b.primary.addTx(indexedTx(netinfo.P, h, 0, tx,
			[]pdata.IndexedUTXO{newUTXO(netinfo.P, ids.ID{'c', 'g'}, uint32(i), pCarol, 100, 0)},
			[]pdata.IndexedUTXO{newUTXO(netinfo.P, id, 0, pCarol, 90, h)}))
	}
}
