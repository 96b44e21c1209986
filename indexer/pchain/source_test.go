package pchain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Times of the scenario (mainnet upgrade times: Banff 2022-10-18, Durango
// 2024-03-06).
var (
	advanceTo   = time.Date(2021, 5, 1, 0, 0, 0, 0, time.UTC)
	proposerAt  = time.Date(2021, 10, 1, 12, 0, 0, 0, time.UTC)
	banffAt     = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)  // pre-Durango
	durangoAt   = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)  // post-Durango
	rewardAt    = time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)  // validator ends
	delRewardAt = time.Date(2024, 7, 15, 0, 0, 0, 0, time.UTC) // delegator ends
)

// scenario is a P-chain from Apricot (pre-proposervm, then wrapped) to
// Durango, built with platformvm's block constructors, and the platform
// API state its reward txs need.
type scenario struct {
	chain    *testChain
	platform *fakePlatform
	// Txs by role.
	apricotValidator, apricotDelegator, banffValidator, durangoDelegator *txs.Tx
	rewardValidator, rewardDelegator                                     *txs.Tx
}

func newScenario(t *testing.T) *scenario {
	w := newTestWallet(t)
	c := newTestChain(t)
	p := newFakePlatform()
	s := &scenario{chain: c, platform: p}
	nodeID := ids.GenerateTestNodeID()
	start := uint64(proposerAt.Add(time.Hour).Unix())

	// 1: a standard block, before the proposervm fork.
	base := w.sign(w.builder.NewBaseTx([]*avax.TransferableOutput{avaxOut(units.Avax, w.keys[2])}))
	c.add(must[*block.ApricotStandardBlock](t)(block.NewApricotStandardBlock(c.inner, c.next(), []*txs.Tx{base})), raw, time.Time{})
	// 2-3: a committed AdvanceTimeTx; 4-5: an aborted one.
	advance := unsignedTx(t, &txs.AdvanceTimeTx{Time: uint64(advanceTo.Unix())})
	c.add(must[*block.ApricotProposalBlock](t)(block.NewApricotProposalBlock(c.inner, c.next(), advance)), raw, time.Time{})
	c.add(must[*block.ApricotCommitBlock](t)(block.NewApricotCommitBlock(c.inner, c.next())), raw, time.Time{})
	late := unsignedTx(t, &txs.AdvanceTimeTx{Time: uint64(advanceTo.Add(time.Hour).Unix())})
	c.add(must[*block.ApricotProposalBlock](t)(block.NewApricotProposalBlock(c.inner, c.next(), late)), raw, time.Time{})
	c.add(must[*block.ApricotAbortBlock](t)(block.NewApricotAbortBlock(c.inner, c.next())), raw, time.Time{})

	// 6-7: an aborted Apricot validator (proposervm-wrapped from here on).
	s.apricotValidator = w.sign(w.builder.NewAddValidatorTx(
		&txs.Validator{NodeID: nodeID, Start: start, End: start + 30*86400, Wght: 2000 * units.Avax}, ownerOf(w.keys[2]), 20_000))
	c.add(must[*block.ApricotProposalBlock](t)(block.NewApricotProposalBlock(c.inner, c.next(), s.apricotValidator)), signed, proposerAt)
	c.add(must[*block.ApricotAbortBlock](t)(block.NewApricotAbortBlock(c.inner, c.next())), option, time.Time{})
	// 8-9: a committed Apricot delegator.
	s.apricotDelegator = w.sign(w.builder.NewAddDelegatorTx(
		&txs.Validator{NodeID: nodeID, Start: start, End: start + 20*86400, Wght: 25 * units.Avax}, ownerOf(w.keys[3])))
	c.add(must[*block.ApricotProposalBlock](t)(block.NewApricotProposalBlock(c.inner, c.next(), s.apricotDelegator)), signed, proposerAt)
	c.add(must[*block.ApricotCommitBlock](t)(block.NewApricotCommitBlock(c.inner, c.next())), option, time.Time{})
	// 10: an atomic block.
	imp := w.sign(w.builder.NewImportTx(testXChainID, ownerOf(w.keys[1])))
	c.add(must[*block.ApricotAtomicBlock](t)(block.NewApricotAtomicBlock(c.inner, c.next(), imp)), signed, proposerAt)

	// 11: Banff, before Durango: the staker starts at its tx's Start.
	pop := newPoP(t)
	s.banffValidator = w.sign(w.builder.NewAddPermissionlessValidatorTx(
		&txs.SubnetValidator{
			Validator: txs.Validator{NodeID: nodeID, Start: uint64(banffAt.Add(time.Minute).Unix()), End: uint64(rewardAt.Unix()), Wght: 2000 * units.Avax},
			Subnet:    constants.PrimaryNetworkID,
		}, pop, testAVAX, ownerOf(w.keys[2]), ownerOf(w.keys[3]), 20_000))
	c.add(must[*block.BanffStandardBlock](t)(block.NewBanffStandardBlock(banffAt, c.inner, c.next(), []*txs.Tx{s.banffValidator})), signed, banffAt)
	// 12: after Durango: the staker starts at the block time.
	s.durangoDelegator = w.sign(w.builder.NewAddPermissionlessDelegatorTx(
		&txs.SubnetValidator{
			Validator: txs.Validator{NodeID: nodeID, End: uint64(delRewardAt.Unix()), Wght: 25 * units.Avax},
			Subnet:    constants.PrimaryNetworkID,
		}, testAVAX, ownerOf(w.keys[4])))
	c.add(must[*block.BanffStandardBlock](t)(block.NewBanffStandardBlock(durangoAt, c.inner, c.next(), []*txs.Tx{s.durangoDelegator})), signed, durangoAt)
	// 13-14: the validator's reward, committed, with a decision tx.
	s.rewardValidator = unsignedTx(t, &txs.RewardValidatorTx{TxID: s.banffValidator.ID()})
	decision := w.sign(w.builder.NewBaseTx([]*avax.TransferableOutput{avaxOut(units.Avax, w.keys[4])}))
	c.add(must[*block.BanffProposalBlock](t)(block.NewBanffProposalBlock(rewardAt, c.inner, c.next(), s.rewardValidator, []*txs.Tx{decision})), signed, rewardAt)
	c.add(must[*block.BanffCommitBlock](t)(block.NewBanffCommitBlock(rewardAt, c.inner, c.next())), option, time.Time{})
	// 15-16: the delegator's reward, aborted.
	s.rewardDelegator = unsignedTx(t, &txs.RewardValidatorTx{TxID: s.durangoDelegator.ID()})
	c.add(must[*block.BanffProposalBlock](t)(block.NewBanffProposalBlock(delRewardAt, c.inner, c.next(), s.rewardDelegator, nil)), signed, delRewardAt)
	c.add(must[*block.BanffAbortBlock](t)(block.NewBanffAbortBlock(delRewardAt, c.inner, c.next())), option, time.Time{})

	// The platform API: every tx, and the validator's rewards (the
	// validation reward, then the delegatee fee).
	for _, tx := range []*txs.Tx{s.apricotValidator, s.apricotDelegator, s.banffValidator, s.durangoDelegator, s.rewardValidator, s.rewardDelegator} {
		p.addTx(tx)
	}
	n := uint32(len(s.banffValidator.Unsigned.(*txs.AddPermissionlessValidatorTx).Outs) +
		len(s.banffValidator.Unsigned.(*txs.AddPermissionlessValidatorTx).StakeOuts))
	p.addReward(t, s.banffValidator, n, avaxOut(40*units.Avax, w.keys[2]))
	p.addReward(t, s.banffValidator, n+1, avaxOut(2*units.Avax, w.keys[3]))
	return s
}

func (s *scenario) source() *Source {
	src := New(s.chain.index, s.platform, upgrade.Mainnet)
	src.retryFirst = time.Millisecond
	return src
}

func TestFetchDecidesTimesAndProposals(t *testing.T) {
	s := newScenario(t)
	src := s.source()
	head, err := src.Head(t.Context())
	require.NoError(t, err)
	require.Equal(t, uint64(16), head)

	blocks, err := src.Fetch(t.Context(), 1, 100)
	require.NoError(t, err)
	require.Len(t, blocks, 16)
	for i, b := range blocks {
		c := s.chain.index.containers[i]
		require.Equal(t, netinfo.P, b.Chain)
		require.Equal(t, uint64(i+1), b.Number)
		require.Equal(t, c.ID, b.ID)
		require.Equal(t, c.Size, b.Size)
		if i > 0 {
			require.Equal(t, s.chain.index.containers[i-1].ID, b.ParentID, "block %d", i+1)
		}
	}
	types := make([]string, len(blocks))
	for i, b := range blocks {
		types[i] = b.Type
	}
	require.Equal(t, []string{
		"ApricotStandardBlock", "ApricotProposalBlock", "ApricotCommitBlock", "ApricotProposalBlock", "ApricotAbortBlock",
		"ApricotProposalBlock", "ApricotAbortBlock", "ApricotProposalBlock", "ApricotCommitBlock", "ApricotAtomicBlock",
		"BanffStandardBlock", "BanffStandardBlock", "BanffProposalBlock", "BanffCommitBlock", "BanffProposalBlock", "BanffAbortBlock",
	}, types)

	// Apricot blocks carry no time: 0, the chain time, even when wrapped.
	for _, b := range blocks[:10] {
		require.Zero(t, b.Timestamp, "block %d", b.Number)
	}
	require.Nil(t, blocks[0].Proposer)
	require.Equal(t, proposerAt.Unix(), blocks[5].Proposer.Timestamp)
	require.Nil(t, blocks[6].Proposer, "options have no proposer")
	// A committed AdvanceTimeTx moves the chain time; an aborted one not.
	require.Equal(t, advanceTo.Unix(), blocks[1].NextChainTime)
	require.Equal(t, pdata.OutcomeCommit, blocks[1].Txs[0].Outcome)
	require.Zero(t, blocks[3].NextChainTime)
	require.Equal(t, pdata.OutcomeAbort, blocks[3].Txs[0].Outcome)
	// Banff blocks carry their time.
	for i, want := range []time.Time{banffAt, durangoAt, rewardAt, rewardAt, delRewardAt, delRewardAt} {
		require.Equal(t, want.Unix(), blocks[10+i].Timestamp, "block %d", 11+i)
	}
	require.Equal(t, pdata.OutcomeDecided, blocks[0].Txs[0].Outcome)

	// The times the store derives from them: the genesis time until the
	// committed AdvanceTimeTx (block 2), its time after, Banff times.
	genesisTime := time.Date(2020, 9, 10, 0, 0, 0, 0, time.UTC).Unix()
	want := []int64{genesisTime, genesisTime}
	for range 8 {
		want = append(want, advanceTo.Unix())
	}
	for _, at := range []time.Time{banffAt, durangoAt, rewardAt, rewardAt, delRewardAt, delRewardAt} {
		want = append(want, at.Unix())
	}
	require.Equal(t, want, chainTimes(genesisTime, blocks))
}

func TestFetchAbortedApricotStakerReturnsStake(t *testing.T) {
	s := newScenario(t)
	blocks, err := s.source().Fetch(t.Context(), 6, 4)
	require.NoError(t, err)
	require.Len(t, blocks, 4)

	aborted := blocks[0].Txs[0]
	utx := s.apricotValidator.Unsigned.(*txs.AddValidatorTx)
	require.Equal(t, pdata.OutcomeAbort, aborted.Outcome)
	require.Nil(t, aborted.Staker, "an aborted staking tx adds no staker")
	require.Len(t, aborted.Produced, len(utx.Outs)+len(utx.StakeOuts))
	for i := range utx.StakeOuts {
		u := aborted.Produced[len(utx.Outs)+i]
		require.Equal(t, s.apricotValidator.ID().Prefix(uint64(len(utx.Outs)+i)), u.ID)
		require.Equal(t, pdata.KindTransfer, u.Kind)
		require.Zero(t, u.StakeStart)
	}
	require.NotEmpty(t, aborted.Consumed, "the inputs are spent either way")

	committed := blocks[2].Txs[0]
	require.Equal(t, pdata.OutcomeCommit, committed.Outcome)
	require.NotNil(t, committed.Staker)
	dutx := s.apricotDelegator.Unsigned.(*txs.AddDelegatorTx)
	require.Equal(t, int64(dutx.Start), committed.Staker.Start, "pre-Durango stakers start at their tx's Start")
	require.Equal(t, pdata.KindStake, committed.Produced[len(dutx.Outs)].Kind)
}

func TestFetchStakerStartFromDurango(t *testing.T) {
	s := newScenario(t)
	blocks, err := s.source().Fetch(t.Context(), 11, 2)
	require.NoError(t, err)
	pre, post := blocks[0].Txs[0], blocks[1].Txs[0]
	require.Equal(t, banffAt.Add(time.Minute).Unix(), pre.Staker.Start)
	require.Equal(t, durangoAt.Unix(), post.Staker.Start, "post-Durango: the chain time at acceptance")
	for _, u := range post.Produced {
		if u.Kind == pdata.KindStake {
			require.Equal(t, durangoAt.Unix(), u.StakeStart)
		}
	}
}

func TestFetchResolvesRewards(t *testing.T) {
	s := newScenario(t)
	blocks, err := s.source().Fetch(t.Context(), 13, 4)
	require.NoError(t, err)
	require.Len(t, blocks, 4)

	decision, reward := blocks[0].Txs[0], blocks[0].Txs[1]
	require.Equal(t, "BaseTx", decision.Type)
	require.Equal(t, pdata.OutcomeDecided, decision.Outcome, "a BanffProposalBlock's decision txs always apply")
	require.Equal(t, pdata.OutcomeCommit, reward.Outcome)
	require.Equal(t, s.banffValidator.ID(), reward.RewardOf)
	staking, err := DecodeTx(s.banffValidator.Bytes())
	require.NoError(t, err)
	require.Equal(t, staking.Staker.Stake, reward.Unstaked)
	// The returned stake first, then the rewards.
	require.Len(t, reward.Produced, 3)
	require.Equal(t, pdata.KindStake, reward.Produced[0].Kind)
	require.Equal(t, staking.Staker.Stake[0], reward.Produced[0].ID)
	rewards := reward.Produced[1:]
	require.Equal(t, pdata.RewardValidator, rewards[0].RewardType)
	require.Equal(t, pdata.RewardValidatorFee, rewards[1].RewardType)
	for _, u := range rewards {
		require.Equal(t, pdata.KindReward, u.Kind)
		require.Equal(t, s.banffValidator.ID(), u.TxID)
		require.Equal(t, rewardAt.Unix(), u.StakeEnd)
	}
	require.Equal(t, 40*units.Avax, rewards[0].Amount)

	aborted := blocks[2].Txs[0]
	require.Equal(t, pdata.OutcomeAbort, aborted.Outcome)
	del, err := DecodeTx(s.durangoDelegator.Bytes())
	require.NoError(t, err)
	require.Equal(t, del.Staker.Stake, aborted.Unstaked, "stake comes back on abort too")
	require.Len(t, aborted.Produced, len(del.Staker.Stake), "the returned stake, and no reward")
}

func TestFetchLooksAheadForTheOption(t *testing.T) {
	s := newScenario(t)
	src := s.source()
	// A range that ends on a proposal block reads the option after it.
	blocks, err := src.Fetch(t.Context(), 2, 1)
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	require.Equal(t, advanceTo.Unix(), blocks[0].NextChainTime)
	require.Equal(t, []uint64{2, 3}, s.chain.index.calls)

	// The option not indexed yet: the range ends before the proposal block.
	s.chain.index.containers = s.chain.index.containers[:13]
	blocks, err = src.Fetch(t.Context(), 11, 10)
	require.NoError(t, err)
	require.Len(t, blocks, 2)
	require.Equal(t, uint64(12), blocks[1].Number)
	blocks, err = src.Fetch(t.Context(), 13, 10)
	require.NoError(t, err)
	require.Empty(t, blocks)
}

func TestFetchIsStateless(t *testing.T) {
	s := newScenario(t)
	src := s.source()
	all, err := src.Fetch(t.Context(), 1, 100)
	require.NoError(t, err)
	// Fetched in pieces, out of order, the blocks come out the same.
	var pieces []*pdata.Block
	for _, r := range [][2]uint64{{9, 5}, {1, 3}, {4, 5}, {14, 3}} {
		got, err := src.Fetch(t.Context(), r[0], int(r[1]))
		require.NoError(t, err)
		require.Equal(t, all[r[0]-1:r[0]-1+uint64(len(got))], got)
		pieces = append(pieces, got...)
	}
	require.Len(t, pieces, 16)
}

func TestFetchWaitsForTheVM(t *testing.T) {
	s := newScenario(t)
	// The index shows the reward tx before the VM has committed it.
	s.platform.late[s.rewardValidator.ID()] = 3
	blocks, err := s.source().Fetch(t.Context(), 13, 2)
	require.NoError(t, err)
	require.Len(t, blocks[0].Txs[1].Produced, 3)

	s.platform.late[s.rewardValidator.ID()] = retryAttempts
	_, err = s.source().Fetch(t.Context(), 13, 2)
	require.ErrorContains(t, err, "waiting for the VM to commit RewardValidatorTx")
}

func TestFetchRejectsAnIncompleteIndex(t *testing.T) {
	s := newScenario(t)
	c := s.chain.index.containers
	s.chain.index.containers = append(c[:2:2], c[3:]...)
	_, err := s.source().Fetch(t.Context(), 1, 10)
	require.ErrorContains(t, err, "index is incomplete")
}

func TestRewardTypes(t *testing.T) {
	validationOwner := &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{{1}}}
	feeOwner := &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{{2}}}
	stakingID := ids.GenerateTestID()
	staking := func(delegator bool) *pdata.Tx {
		// Two outputs and one stake output: rewards start at index 3.
		return &pdata.Tx{ID: stakingID, Produced: make([]pdata.UTXO, 3), Staker: &pdata.Staker{
			Delegator: delegator, RewardsOwner: validationOwner, DelegationRewardsOwner: feeOwner, Start: 10, End: 20,
		}}
	}
	reward := func(t *testing.T, index uint32, owner *pdata.Owners) []byte {
		b, err := txs.GenesisCodec.Marshal(txs.CodecVersion, &avax.UTXO{
			UTXOID: avax.UTXOID{TxID: stakingID, OutputIndex: index},
			Asset:  avax.Asset{ID: testAVAX},
			Out:    avaxOutTo(5, owner.Addrs[0]).Out,
		})
		require.NoError(t, err)
		return b
	}
	tests := []struct {
		name      string
		delegator bool
		outcome   pdata.Outcome
		utxos     func(t *testing.T) [][]byte
		want      []string
	}{
		{"validator commit, reward and fee", false, pdata.OutcomeCommit,
			func(t *testing.T) [][]byte { return [][]byte{reward(t, 4, feeOwner), reward(t, 3, validationOwner)} },
			[]string{pdata.RewardValidator, pdata.RewardValidatorFee}},
		{"validator commit, reward only", false, pdata.OutcomeCommit,
			func(t *testing.T) [][]byte { return [][]byte{reward(t, 3, validationOwner)} },
			[]string{pdata.RewardValidator}},
		{"validator commit, zero reward, fee only", false, pdata.OutcomeCommit,
			func(t *testing.T) [][]byte { return [][]byte{reward(t, 3, feeOwner)} },
			[]string{pdata.RewardValidatorFee}},
		{"validator abort, fee still paid", false, pdata.OutcomeAbort,
			func(t *testing.T) [][]byte { return [][]byte{reward(t, 3, validationOwner)} },
			[]string{pdata.RewardValidatorFee}},
		{"delegator commit, pre-Cortina fee", true, pdata.OutcomeCommit,
			func(t *testing.T) [][]byte { return [][]byte{reward(t, 3, validationOwner), reward(t, 4, feeOwner)} },
			[]string{pdata.RewardDelegator, pdata.RewardValidatorFee}},
		{"delegator commit", true, pdata.OutcomeCommit,
			func(t *testing.T) [][]byte { return [][]byte{reward(t, 3, validationOwner)} },
			[]string{pdata.RewardDelegator}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rewardUTXOs(staking(tt.delegator), tt.outcome, tt.utxos(t))
			require.NoError(t, err)
			var types []string
			for i, u := range got {
				types = append(types, u.RewardType)
				require.Equal(t, uint32(3+i), u.OutputIndex, "sorted by index")
				require.Equal(t, pdata.KindReward, u.Kind)
				require.Equal(t, int64(10), u.StakeStart)
				require.Equal(t, int64(20), u.StakeEnd)
			}
			require.Equal(t, tt.want, types)
		})
	}
}
