package primary

import (
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm/reward"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listDelegators, listHistoricalPrimaryNetworkRewards,
// listActivePrimaryNetworkStakingTransactions,
// listLatestPrimaryNetworkTransactions (the reward txs) and
// getBalancesByAddresses (while staking and after) for the staking
// scenario, against the node's answers.

// listDelegators pages through listDelegators with q.
func listDelegators(t *testing.T, s *stakingScenario, q url.Values) []dataapi.Delegator {
	t.Helper()
	_, ctx := stakingFixture(t)
	var all []dataapi.Delegator
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100, "delegators %v: paging does not end", q)
		var page dataapi.DelegatorPage
		harness.GetOK(t, ctx, networkURL(t, "delegators", q), &page)
		all = append(all, page.Delegators...)
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

func delegatorHashes(ds []dataapi.Delegator) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.TxHash
	}
	return out
}

func stakerHashes(sts ...*stakerTx) []string {
	out := make([]string, len(sts))
	for i, st := range sts {
		out[i] = st.id.String()
	}
	return out
}

// checkDelegator checks one delegator item against the node (the genesis
// validator's fee as getCurrentValidators said).
func (s *stakingScenario) checkDelegator(t *testing.T, d dataapi.Delegator, status string) {
	t.Helper()
	var st *stakerTx
	for _, x := range []*stakerTx{s.d1, s.d2, s.g} {
		if x.id.String() == d.TxHash {
			st = x
		}
	}
	require.NotNil(t, st, "delegator %s is not the scenario's", d.TxHash)
	what := st.label + " (" + status + ")"
	checkStakerTimes(t, st, d.NodeID, d.StartTimestamp, d.EndTimestamp, what)
	harness.RequireUintString(t, st.weight, d.AmountDelegated, what+": amountDelegated")
	require.Equal(t, []ids.ShortID{st.rewardTo}, shortIDsOf(t, d.RewardAddresses), "%s: rewardAddresses", what)
	require.Equal(t, status, d.DelegationStatus, what)
	shares := uint32(delegationShares)
	if st == s.g {
		shares = s.genesisShares(t)
	}
	requireDelegationFee(t, shares, d.DelegationFee, what)
	gross, net := st.potentialReward, st.potentialReward-feeOf(st.potentialReward, shares)
	switch status {
	case "completed":
		harness.RequireUintString(t, gross, d.GrossReward, what+": grossReward")
		harness.RequireUintString(t, net, d.NetReward, what+": netReward")
		require.Equal(t, st.rewardOf(t, st.rewardTo).Amount, net, "%s: the node's reward UTXO is the net reward", what)
	default:
		harness.RequireUintString(t, gross, d.EstimatedGrossReward, what+": estimatedGrossReward")
		harness.RequireUintString(t, net, d.EstimatedNetReward, what+": estimatedNetReward")
	}
}

// genesisShares is the genesis validator's delegation fee in shares, as
// getCurrentValidators said while the scenario ran.
func (s *stakingScenario) genesisShares(t *testing.T) uint32 {
	t.Helper()
	for _, v := range s.activeValidators {
		if v.NodeID == s.genesisNode {
			if v.ExactDelegationFee != nil {
				return uint32(*v.ExactDelegationFee)
			}
			// v1.14.2 leaves exactDelegationFee out and gives the fee as a
			// percent (100 * shares / 10^6): 2 decimal places of shares.
			return uint32(math.Round(float64(v.DelegationFee) * 10_000))
		}
	}
	t.Fatal("genesis validator not recorded")
	return 0
}

// TestPrimaryStakingDelegatorsCompleted: listDelegators by node, by reward
// address and by status after every delegation ended; pageSize 1 pages.
func TestPrimaryStakingDelegatorsCompleted(t *testing.T) {
	s, _ := stakingFixture(t)
	byNode := listDelegators(t, s, url.Values{"nodeIds": {s.nodeID.String()}})
	require.ElementsMatch(t, stakerHashes(s.d1, s.d2), delegatorHashes(byNode), "delegators of %s", s.nodeID)
	for _, d := range byNode {
		s.checkDelegator(t, d, "completed")
	}
	paged := listDelegators(t, s, url.Values{"nodeIds": {s.nodeID.String()}, "pageSize": {"1"}})
	require.ElementsMatch(t, stakerHashes(s.d1, s.d2), delegatorHashes(paged), "pageSize 1")
	completed := listDelegators(t, s, url.Values{"nodeIds": {s.nodeID.String()}, "delegationStatus": {"completed"}})
	require.ElementsMatch(t, stakerHashes(s.d1, s.d2), delegatorHashes(completed), "completed")
	for _, status := range []string{"active", "pending"} {
		require.Empty(t, listDelegators(t, s, url.Values{"nodeIds": {s.nodeID.String()}, "delegationStatus": {status}}), status)
	}
	for _, st := range []*stakerTx{s.d1, s.d2, s.g} {
		got := listDelegators(t, s, url.Values{"rewardAddresses": {s.pAddrOf(t, st.rewardTo)}})
		require.Equal(t, stakerHashes(st), delegatorHashes(got), "delegators rewarding %s", st.label)
		s.checkDelegator(t, got[0], "completed")
	}
	both := listDelegators(t, s, url.Values{"rewardAddresses": {s.pAddr(t, "D1") + "," + s.pAddr(t, "D2")}})
	require.ElementsMatch(t, stakerHashes(s.d1, s.d2), delegatorHashes(both), "two reward addresses")
	// The genesis validator: only the scenario delegated to it.
	genesisDelegators := listDelegators(t, s, url.Values{"nodeIds": {s.genesisNode.String()}})
	require.Equal(t, stakerHashes(s.g), delegatorHashes(genesisDelegators), "delegators of %s", s.genesisNode)
}

// TestPrimaryStakingDelegatorsWhileActive: listDelegators as avadata answered
// while the delegations were active.
func TestPrimaryStakingDelegatorsWhileActive(t *testing.T) {
	s, _ := stakingFixture(t)
	for _, label := range []string{"delegators", "delegators active"} {
		r := s.activeReplies[label]
		require.Equal(t, 200, r.Status, "GET %s while active: %s", s.activeURLs[label], r.Body)
		var page dataapi.DelegatorPage
		r.Decode(t, &page)
		require.ElementsMatch(t, stakerHashes(s.d1, s.d2), delegatorHashes(page.Delegators), label)
		for _, d := range page.Delegators {
			s.checkDelegator(t, d, "active")
		}
	}
}

func (s *stakingScenario) pAddrOf(t *testing.T, a ids.ShortID) string {
	for role, x := range s.addrs {
		if x == a {
			return s.pAddr(t, role)
		}
	}
	t.Fatalf("%s is none of the scenario's addresses", a)
	return ""
}

// feeOf is the validator's part of a delegator's potential reward.
func feeOf(potential uint64, shares uint32) uint64 {
	fee, _ := reward.Split(potential, shares)
	return fee
}

// expectedRewards are the node's reward UTXOs of the stakers, keyed by
// utxoId, with the staking tx each belongs to.
type expectedReward struct {
	st *stakerTx
	u  truth.UTXO
}

func (s *stakingScenario) expectedRewards(keep func(*stakerTx, truth.UTXO) bool) map[string]expectedReward {
	out := map[string]expectedReward{}
	for _, st := range s.stakers() {
		for _, u := range st.rewardUTXOs {
			if keep(st, u) {
				out[u.ID.String()] = expectedReward{st: st, u: u}
			}
		}
	}
	return out
}

// listRewards pages through listHistoricalPrimaryNetworkRewards with q.
func listRewards(t *testing.T, q url.Values) []dataapi.HistoricalReward {
	t.Helper()
	_, ctx := stakingFixture(t)
	var all []dataapi.HistoricalReward
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100, "rewards %v: paging does not end", q)
		var page struct {
			HistoricalRewards []dataapi.HistoricalReward `json:"historicalRewards"`
			NextPageToken     string                     `json:"nextPageToken"`
		}
		harness.GetOK(t, ctx, networkURL(t, "rewards", q), &page)
		all = append(all, page.HistoricalRewards...)
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

// checkRewards requires got to be exactly want, each field as the node has
// it.
func (s *stakingScenario) checkRewards(t *testing.T, want map[string]expectedReward, got []dataapi.HistoricalReward, what string) {
	t.Helper()
	gotIDs := make([]string, 0, len(got))
	for _, g := range got {
		gotIDs = append(gotIDs, g.UTXOID)
	}
	wantIDs := make([]string, 0, len(want))
	for id := range want {
		wantIDs = append(wantIDs, id)
	}
	require.ElementsMatch(t, wantIDs, gotIDs, "%s: reward UTXOs", what)
	for _, g := range got {
		w := want[g.UTXOID]
		st, u := w.st, w.u
		label := what + ": " + st.label + " " + g.UTXOID
		require.Equal(t, st.id.String(), g.TxHash, "%s: txHash", label)
		require.Equal(t, st.reward.ID.String(), g.RewardTxHash, "%s: rewardTxHash", label)
		require.Equal(t, s.rewardType(st, u), g.RewardType, "%s: rewardType", label)
		harness.RequireUintString(t, st.weight, g.AmountStaked, label+": amountStaked")
		checkStakerTimes(t, st, g.NodeID, g.StartTimestamp, g.EndTimestamp, label)
		require.NotNil(t, g.OutputIndex, "%s: outputIndex", label)
		require.Equal(t, u.Index, *g.OutputIndex, "%s: outputIndex", label)
		require.Equal(t, s.avax.String(), g.Reward.AssetID, "%s: reward asset", label)
		harness.RequireUintString(t, u.Amount, g.Reward.Amount, label+": reward amount")
		require.Equal(t, u.Addrs, shortIDsOf(t, g.Addresses), "%s: addresses", label)
	}
}

// TestPrimaryStakingRewards: listHistoricalPrimaryNetworkRewards by reward
// addresses and by node IDs lists exactly the node's reward UTXOs
// (getRewardUTXOs), typed, with their staking and reward txs; pageSize 1
// pages through the same set.
func TestPrimaryStakingRewards(t *testing.T) {
	s, _ := stakingFixture(t)
	all := s.expectedRewards(func(*stakerTx, truth.UTXO) bool { return true })
	var addrs []string
	for _, role := range []string{"S", "F", "D1", "D2", "G"} {
		addrs = append(addrs, s.pAddr(t, role))
	}
	s.checkRewards(t, all, listRewards(t, url.Values{"addresses": {strings.Join(addrs, ",")}}), "all reward addresses")
	s.checkRewards(t, all, listRewards(t, url.Values{"addresses": {strings.Join(addrs, ",")}, "pageSize": {"1"}}), "pageSize 1")
	for _, role := range []string{"S", "F", "D1", "D2", "G"} {
		a := s.addrs[role]
		want := s.expectedRewards(func(_ *stakerTx, u truth.UTXO) bool { return len(u.Addrs) == 1 && u.Addrs[0] == a })
		s.checkRewards(t, want, listRewards(t, url.Values{"addresses": {s.pAddr(t, role)}}), "rewards of "+role)
	}
	for _, n := range []ids.NodeID{s.nodeID, s.genesisNode} {
		want := s.expectedRewards(func(st *stakerTx, _ truth.UTXO) bool { return st.nodeID == n })
		s.checkRewards(t, want, listRewards(t, url.Values{"nodeIds": {n.String()}}), "rewards of node "+n.String())
	}
}

// TestPrimaryStakingListStaking: listActivePrimaryNetworkStakingTransactions
// lists a staker's tx while it is active (avadata's answer captured then) and
// not once it has ended.
func TestPrimaryStakingListStaking(t *testing.T) {
	s, ctx := stakingFixture(t)
	for label, st := range map[string]*stakerTx{"staking S": s.validator, "staking D1": s.d1} {
		r := s.activeReplies[label]
		require.Equal(t, 200, r.Status, "GET %s while active: %s", s.activeURLs[label], r.Body)
		var page dataapi.TxPage
		r.Decode(t, &page)
		require.Equal(t, []string{st.id.String()}, txHashes(page.Transactions), "%s while active", label)
		require.Equal(t, st.txType, page.Transactions[0].TxType, label)
	}
	for _, role := range []string{"S", "D1", "D2", "G"} {
		var page dataapi.TxPage
		harness.GetOK(t, ctx, primaryURL(t, "p-chain", "transactions:listStaking", url.Values{"addresses": {s.pAddr(t, role)}}), &page)
		require.Empty(t, page.Transactions, "listStaking of %s after every staker ended", role)
	}
}
