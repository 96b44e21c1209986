package handlertest

import (
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Staking history on the local network, as of the fake clock (FixtureNow).
// Node Proposer validated from the P-chain fixtures' staking tx
// (completed, rewarded), validates now (active; the node reports it with
// one delegator), will validate again (pending), and validated a
// permissioned subnet twice (once removed, once run to its end). Node
// NodeB validates now, unknown to the node's current validators.
// Delegations to Proposer: two completed before Cortina-style (fee paid
// by the delegator's reward tx) and after (fee accrued), one aborted, one
// active, one pending; one active to NodeB. PCarol receives most
// delegation rewards.
var (
	PCarol     = ShortAddr(0xc0)
	NodeB      = ids.BuildTestNodeID([]byte{4, 5, 6}) // NodeID2
	NodeC      = ids.BuildTestNodeID([]byte{7})       // a current validator the index does not hold
	PermSubnet = ids.ID{'p', 's'}
)

const FixtureNow = 1_700_000_000 // NewClock's time

func StakingTxID(n uint64) ids.ID { return ids.ID{'s', 't'}.Prefix(n) }

// Staking txs of the fixtures.
var (
	VCompleted     = FixtureTxID(netinfo.P, 2) // the P-chain fixtures' AddPermissionlessValidatorTx
	VActive        = StakingTxID(1)
	VRemoved       = StakingTxID(2)
	VRemoveTx      = StakingTxID(3)
	VPending       = StakingTxID(4)
	VActiveB       = StakingTxID(5)
	VSubnetEnded   = StakingTxID(6)
	DPreCortina    = StakingTxID(10)
	DPostCortina   = StakingTxID(12)
	DActive        = StakingTxID(14)
	DPending       = StakingTxID(15)
	DActiveB       = StakingTxID(16)
	DAborted       = StakingTxID(17)
	DPreRewardTx   = StakingTxID(11)
	DPostRewardTx  = StakingTxID(13)
	DAbortRewardTx = StakingTxID(18)
)

func Owners(a ids.ShortID) *pdata.Owners { return &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{a}} }

// LoadStakingFixtures fills the staking and platform fakes; p must hold the
// P-chain fixtures (the completed validator's staking tx is read from it).
func LoadStakingFixtures(b *Fakes) {
	var first pdata.Staker
	for _, itx := range b.Primary.TxList[netinfo.P] {
		if itx.Tx.ID == VCompleted {
			first = *itx.Tx.Staker
		}
	}
	validator := func(id ids.ID, txType string, st pdata.Staker) pdata.IndexedStaker {
		return pdata.IndexedStaker{TxID: id, Type: txType, Staker: st, Height: 40, Time: BlockTime(40)}
	}
	completed := validator(VCompleted, "AddPermissionlessValidatorTx", first)
	completed.Height, completed.Time = 2, BlockTime(2)
	completed.RewardTx, completed.RewardTime, completed.Committed = FixtureTxID(netinfo.P, 5), BlockTime(5), true
	completed.Rewards = map[string]uint64{pdata.RewardValidator: 7_000, pdata.RewardValidatorFee: 30}
	// Fees: 30 by its own reward tx, 100 by the pre-Cortina delegation's.
	completed.DelegatorCount, completed.AmountDelegated, completed.DelegationFees = 3, 80, 130

	active := validator(VActive, "AddPermissionlessValidatorTx", pdata.Staker{NodeID: Proposer, Start: FixtureNow - 100_000,
		End: FixtureNow + 1_000_000, Weight: 2_000_000_000_000, DelegationShares: 30_000, RewardsOwner: Owners(PCarol),
		DelegationRewardsOwner: Owners(PCarol), BLSPublicKey: []byte{0xaa}, BLSProofOfPossession: []byte{0xbb}})
	active.DelegatorCount, active.AmountDelegated = 2, 1

	removed := validator(VRemoved, "AddSubnetValidatorTx", pdata.Staker{NodeID: Proposer, Subnet: PermSubnet,
		Start: FixtureNow - 50_000, End: FixtureNow + 50_000, Weight: 20})
	removed.RemoveTx, removed.RemoveTime = VRemoveTx, FixtureNow-1_000

	pending := validator(VPending, "AddValidatorTx", pdata.Staker{NodeID: Proposer, Start: FixtureNow + 10_000,
		End: FixtureNow + 2_000_000, Weight: 2_000_000_000_000, DelegationShares: 50_000, RewardsOwner: Owners(PCarol)})
	activeB := validator(VActiveB, "AddPermissionlessValidatorTx", pdata.Staker{NodeID: NodeB, Start: FixtureNow - 10,
		End: FixtureNow + 100, Weight: 1_000, DelegationShares: 20_000, RewardsOwner: Owners(PBob)})
	subnetEnded := validator(VSubnetEnded, "AddSubnetValidatorTx", pdata.Staker{NodeID: Proposer, Subnet: PermSubnet,
		Start: BlockTime(3), End: BlockTime(4), Weight: 10})

	delegator := func(id ids.ID, txType string, node ids.NodeID, start, end int64, weight uint64, owner ids.ShortID,
		shares uint32, validatorTx ids.ID) pdata.IndexedStaker {
		d := validator(id, txType, pdata.Staker{Delegator: true, NodeID: node, Start: start, End: end, Weight: weight,
			RewardsOwner: Owners(owner)})
		d.DelegationShares, d.ValidatorTx = shares, validatorTx
		return d
	}
	pre := delegator(DPreCortina, "AddDelegatorTx", Proposer, BlockTime(2)+1, BlockTime(4), 25, PCarol, 20_000, VCompleted)
	pre.RewardTx, pre.RewardTime, pre.Committed = DPreRewardTx, BlockTime(4), true
	pre.Rewards = map[string]uint64{pdata.RewardDelegator: 900, pdata.RewardValidatorFee: 100}
	post := delegator(DPostCortina, "AddPermissionlessDelegatorTx", Proposer, BlockTime(2)+2, BlockTime(4)+1, 25, PBob,
		20_000, VCompleted)
	post.RewardTx, post.RewardTime, post.Committed = DPostRewardTx, BlockTime(4)+1, true
	post.Rewards = map[string]uint64{pdata.RewardDelegator: 980}
	aborted := delegator(DAborted, "AddDelegatorTx", Proposer, BlockTime(2)+3, BlockTime(4)+2, 30, PCarol, 20_000, VCompleted)
	aborted.RewardTx, aborted.RewardTime = DAbortRewardTx, BlockTime(4)+2

	b.Staking.StakerList = []pdata.IndexedStaker{completed, active, removed, pending, activeB, subnetEnded, pre, post, aborted,
		delegator(DActive, "AddPermissionlessDelegatorTx", Proposer, FixtureNow-50_000, FixtureNow+500_000, 25_000_000_000,
			PCarol, 30_000, VActive),
		delegator(DPending, "AddDelegatorTx", Proposer, FixtureNow+20_000, FixtureNow+900_000, 30, PCarol, 50_000, VPending),
		delegator(DActiveB, "AddPermissionlessDelegatorTx", NodeB, FixtureNow-5, FixtureNow+50, 40, PBob, 20_000, VActiveB),
	}

	rewardUTXO := func(st pdata.IndexedStaker, idx uint32, owner ids.ShortID, amount uint64, rewardType string) pdata.IndexedReward {
		u := NewUTXO(netinfo.P, st.TxID, idx, owner, amount, 0)
		u.Kind, u.RewardType, u.CreatingTx = pdata.KindReward, rewardType, st.RewardTx
		u.CreatedTime, u.StakeStart, u.StakeEnd = st.RewardTime, st.Staker.Start, st.Staker.End
		return pdata.IndexedReward{UTXO: u, Staker: st}
	}
	b.Staking.RewardList = []pdata.IndexedReward{
		rewardUTXO(completed, 2, PAlice, 7_000, pdata.RewardValidator),
		rewardUTXO(completed, 3, PAlice, 30, pdata.RewardValidatorFee),
		rewardUTXO(pre, 1, PCarol, 900, pdata.RewardDelegator),
		rewardUTXO(pre, 2, PAlice, 100, pdata.RewardValidatorFee),
		rewardUTXO(post, 1, PBob, 980, pdata.RewardDelegator),
	}

	u64 := func(n uint64) *uint64 { return &n }
	uptime, connected := float32(99.9), true
	b.Platform.Validators = []platformvm.ClientPermissionlessValidator{
		{
			ClientStaker: platformvm.ClientStaker{TxID: VActive, StartTime: FixtureNow - 100_000, EndTime: FixtureNow + 1_000_000,
				Weight: 2_000_000_000_000, NodeID: Proposer},
			PotentialReward: u64(5_000_000), AccruedDelegateeReward: u64(1_000), DelegationFee: 3, Uptime: &uptime,
			Connected: &connected, DelegatorCount: u64(1), DelegatorWeight: u64(25_000_000_000),
			Delegators: []platformvm.ClientDelegator{{
				ClientStaker:    platformvm.ClientStaker{TxID: DActive, Weight: 25_000_000_000, NodeID: Proposer},
				PotentialReward: u64(1_000_000),
			}},
		},
		{
			ClientStaker:   platformvm.ClientStaker{TxID: ids.ID{'c'}, Weight: 7_975_000_000_000, NodeID: NodeC},
			DelegatorCount: u64(0), DelegatorWeight: u64(0),
		},
	}
}

// AddStakingTxs indexes the staking txs of PCarol's stakers on the P-chain
// (heights 40..44, after the P-chain fixtures): the active validator, the
// completed delegation, the active and the pending ones, and a BaseTx.
func AddStakingTxs(b *Fakes) {
	byID := map[ids.ID]pdata.IndexedStaker{}
	for _, st := range b.Staking.StakerList {
		byID[st.TxID] = st
	}
	for i, id := range []ids.ID{VActive, DPreCortina, DActive, DPending, StakingTxID(99)} {
		h := uint64(40 + i)
		tx := &pdata.Tx{ID: id, Type: "BaseTx"}
		if st, ok := byID[id]; ok {
			tx.Type, tx.Staker = st.Type, &st.Staker
		}
		b.Primary.AddTx(IndexedTx(netinfo.P, h, 0, tx,
			[]pdata.IndexedUTXO{NewUTXO(netinfo.P, ids.ID{'c', 'g'}, uint32(i), PCarol, 100, 0)},
			[]pdata.IndexedUTXO{NewUTXO(netinfo.P, id, 0, PCarol, 90, h)}))
	}
}
