package primary

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// listLatestPrimaryNetworkTransactions for the staking scenario's reward txs
// and getBalancesByAddresses for the stakers' balances while staking and
// after, against the node.

// TestPrimaryStakingRewardTxs: each staker's P transaction list holds its staking
// tx and the RewardValidatorTx that ended it; the latter consumed nothing
// and emitted the node's reward UTXOs (getRewardUTXOs), each with its
// amount and owner, and at most the stake back besides, at the proposal
// block's time.
func TestPrimaryStakingRewardTxs(t *testing.T) {
	s, ctx := stakingFixture(t)
	for _, st := range s.stakers() {
		got := listPrimaryTxs(t, ctx, "P", url.Values{"addresses": {s.pAddrOf(t, st.staker)}, "pageSize": {"100"}})
		byHash := map[string]dataapi.PrimaryTx{}
		for _, tx := range got {
			byHash[tx.TxHash] = tx
		}
		stakeTx, ok := byHash[st.id.String()]
		require.True(t, ok, "%s: staking tx %s not in its staker's list %v", st.label, st.id, txHashes(got))
		require.Equal(t, st.txType, stakeTx.TxType, st.label)
		require.Equal(t, st.blockTime, stakeTx.Time(t), "%s: staking tx time", st.label)

		rtx, ok := byHash[st.reward.ID.String()]
		require.True(t, ok, "%s: reward tx %s not in its staker's list %v", st.label, st.reward.ID, txHashes(got))
		what := st.label + " reward tx"
		require.Equal(t, "RewardValidatorTx", rtx.TxType, what)
		require.Equal(t, st.reward.BlockTime, rtx.Time(t), "%s: blockTimestamp", what)
		require.Empty(t, rtx.ConsumedUTXOs, "%s: consumedUtxos", what)
		// Every reward UTXO is emitted; anything else emitted is the stake
		// coming back (the stake UTXOs reappear at the reward tx, whether
		// or not avadata lists them there), each to the staker.
		emitted := map[string]dataapi.UTXO{}
		for _, u := range rtx.EmittedUTXOs {
			emitted[u.UTXOID] = u
		}
		require.Len(t, emitted, len(rtx.EmittedUTXOs), "%s: an emitted UTXO listed twice", what)
		for _, u := range st.rewardUTXOs {
			g, ok := emitted[u.ID.String()]
			require.True(t, ok, "%s: reward UTXO %s not emitted: %+v", what, u.ID, rtx.EmittedUTXOs)
			require.Equal(t, s.avax.String(), g.Asset.AssetID, "%s: %s asset", what, u.ID)
			harness.RequireUintString(t, u.Amount, g.Asset.Amount, what+": amount of "+u.ID.String())
			require.Equal(t, u.Addrs, shortIDsOf(t, g.Addresses), "%s: owner of reward %s", what, u.ID)
			delete(emitted, u.ID.String())
		}
		stake := st.stakeReturns()
		for id, g := range emitted {
			parsed, err := ids.FromString(id)
			require.NoError(t, err, "%s: utxoId %q", what, id)
			amount, ok := stake[parsed]
			require.True(t, ok, "%s: emitted %s is neither a reward nor the stake", what, id)
			harness.RequireUintString(t, amount, g.Asset.Amount, what+": stake back "+id)
			require.Equal(t, []ids.ShortID{st.staker}, shortIDsOf(t, g.Addresses), "%s: stake %s back to the staker", what, id)
		}
	}
	// F, the fee owner, owns only the fee UTXO of the validator's reward
	// tx; the validator tx names it as an owner (no UTXO), so it may be
	// listed too.
	got := txHashes(listPrimaryTxs(t, ctx, "P", url.Values{"addresses": {s.pAddr(t, "F")}}))
	require.Contains(t, got, s.validator.reward.ID.String(), "F's P txs")
	require.Subset(t, []string{s.validator.reward.ID.String(), s.validator.id.String()}, got, "F's P txs")
}

// pBalanceOf returns the AVAX amount of each category of a P balances
// reply.
func pBalanceOf(t *testing.T, s *stakingScenario, b dataapi.Balances) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for category, items := range b.Balances {
		out[category] = dataapi.Amounts(t, category, items)[s.avax]
	}
	return out
}

// TestPrimaryStakingBalances: getBalancesByAddresses for each staker and the
// fee owner, at the time every stake was active (the node's getBalance and
// getStake then) and now (getBalance after the rewards; nothing staked).
func TestPrimaryStakingBalances(t *testing.T) {
	s, ctx := stakingFixture(t)
	for role := range s.addrs {
		q := url.Values{"addresses": {s.pAddr(t, role)}, "blockTimestamp": {strconv.FormatInt(s.activeTime, 10)}}
		var then dataapi.Balances
		harness.GetOK(t, ctx, primaryURL(t, "p-chain", "balances", q), &then)
		got := pBalanceOf(t, s, then)
		want := s.activeBalances[role]
		require.Equal(t, want.p.Unlocked[s.avax], got["unlockedUnstaked"], "%s at %d: unlockedUnstaked = getBalance's unlocked", role, s.activeTime)
		require.Equal(t, want.stake, got["unlockedStaked"]+got["lockedStaked"], "%s at %d: staked = getStake", role, s.activeTime)
		require.Zero(t, got["pendingStaked"], "%s: pendingStaked (post-Durango stakers start at once)", role)

		var now dataapi.Balances
		harness.GetOK(t, ctx, primaryURL(t, "p-chain", "balances", url.Values{"addresses": {s.pAddr(t, role)}}), &now)
		got = pBalanceOf(t, s, now)
		want = s.finalBalances[role]
		require.Equal(t, want.p.Unlocked[s.avax], got["unlockedUnstaked"], "%s now: unlockedUnstaked = getBalance's unlocked", role)
		require.Zero(t, want.stake, "%s now: the node says nothing is staked", role)
		require.Zero(t, got["unlockedStaked"]+got["lockedStaked"], "%s now: staked", role)
	}
}
