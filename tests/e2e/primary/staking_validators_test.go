package primary

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/vms/platformvm/reward"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// stakingFixture is the staking scenario, with avadata indexed past its
// reward txs.
func stakingFixture(t *testing.T) (*stakingScenario, context.Context) {
	t.Helper()
	s := stakingScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	var last uint64
	for _, st := range s.stakers() {
		// The reward tx's option block (commit) follows the proposal.
		last = max(last, st.reward.Height+1)
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, primaryIndexTimeout)
	defer waitCancel()
	harness.WaitIndexed(t, waitCtx, env.Base(t), map[string]uint64{"P": last})
	return s, ctx
}

// shortIDOf decodes a Data API address ("P-local1...", "local1...").
func shortIDOf(t *testing.T, s string) ids.ShortID {
	t.Helper()
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s = s[i+1:]
	}
	hrp, b, err := address.ParseBech32(s)
	require.NoError(t, err, "address %q", s)
	require.Equal(t, constants.GetHRP(constants.LocalID), hrp, "address %q", s)
	id, err := ids.ToShortID(b)
	require.NoError(t, err)
	return id
}

func shortIDsOf(t *testing.T, addrs []string) []ids.ShortID {
	out := make([]ids.ShortID, len(addrs))
	for i, a := range addrs {
		out[i] = shortIDOf(t, a)
	}
	return out
}

// requireFee checks a Data API delegationFee (a percentage, "20.0000" as
// the node prints it, or the shares) against shares out of 1,000,000.
func requireDelegationFee(t *testing.T, shares uint32, got, what string) {
	t.Helper()
	f, err := strconv.ParseFloat(got, 64)
	require.NoError(t, err, "%s: delegationFee %q", what, got)
	pct := float64(shares) / float64(reward.PercentDenominator) * 100
	require.True(t, f == pct || f == float64(shares), "%s: delegationFee %q, want %v%% (%d shares)", what, got, pct, shares)
}

// rewardOf returns the node's reward UTXO of st owned by addr.
func (st *stakerTx) rewardOf(t *testing.T, addr ids.ShortID) truth.UTXO {
	t.Helper()
	for _, u := range st.rewardUTXOs {
		if len(u.Addrs) == 1 && u.Addrs[0] == addr {
			return u
		}
	}
	t.Fatalf("%s: no reward UTXO for %s in %+v", st.label, addr, st.rewardUTXOs)
	return truth.UTXO{}
}

// rewardType is the Data API rewardType of a reward UTXO of st.
func (s *stakingScenario) rewardType(st *stakerTx, u truth.UTXO) string {
	switch {
	case st != s.validator:
		return "DELEGATOR"
	case len(u.Addrs) == 1 && u.Addrs[0] == s.addrs["F"]:
		return "VALIDATOR_FEE"
	}
	return "VALIDATOR"
}

// delegatorSplit is what the node pays of a delegator's potential reward:
// the validator's fee and the delegator's net reward.
func delegatorSplit(st *stakerTx) (fee, net uint64) {
	return reward.Split(st.potentialReward, delegationShares)
}

func (s *stakingScenario) delegators() []*stakerTx { return []*stakerTx{s.d1, s.d2} }

// TestPrimaryStakingScenarioGroundTruth checks the node-side figures the avadata
// tests compare with hang together: every staker rewarded with a commit,
// the validator's fee UTXO is its delegators' fee shares, each delegator's
// UTXO its net share, and the balances add up.
func TestPrimaryStakingScenarioGroundTruth(t *testing.T) {
	s := stakingScenarioFixture(t)
	for _, st := range s.stakers() {
		require.True(t, st.reward.Committed, "%s: reward tx aborted", st.label)
		require.NotZero(t, st.potentialReward, "%s: potential reward", st.label)
	}
	require.Len(t, s.validator.rewardUTXOs, 2, "validator: validation reward and delegation fee")
	require.Equal(t, s.validator.potentialReward, s.validator.rewardOf(t, s.addrs["S"]).Amount)
	var fees uint64
	for _, d := range s.delegators() {
		fee, net := delegatorSplit(d)
		fees += fee
		require.Len(t, d.rewardUTXOs, 1, d.label)
		require.Equal(t, net, d.rewardOf(t, d.rewardTo).Amount, d.label)
	}
	require.Equal(t, fees, s.validator.rewardOf(t, s.addrs["F"]).Amount, "validator fee UTXO")
	require.Equal(t, s.validator.weight, s.activeBalances["S"].stake, "S's stake while active")
	require.Equal(t, s.activeBalances["S"].p.Unlocked[s.avax]+s.validator.weight+s.validator.potentialReward,
		s.finalBalances["S"].p.Unlocked[s.avax], "S after: the stake back and the reward")
	require.Equal(t, fees, s.finalBalances["F"].p.Unlocked[s.avax], "F after")
}

// checkStakerTimes compares a staker's start, end and node ID.
func checkStakerTimes(t *testing.T, st *stakerTx, nodeID string, start, end int64, what string) {
	t.Helper()
	require.Equal(t, st.nodeID.String(), nodeID, "%s: nodeId", what)
	require.Equal(t, int64(st.start), start, "%s: startTimestamp", what)
	require.Equal(t, int64(st.end), end, "%s: endTimestamp", what)
}

// checkValidatorCommon checks what every validator variant carries.
func (s *stakingScenario) checkValidatorCommon(t *testing.T, v dataapi.Validator, what string) {
	t.Helper()
	st := s.validator
	require.Equal(t, st.id.String(), v.TxHash, "%s: txHash", what)
	require.Equal(t, constants.PrimaryNetworkID.String(), v.SubnetID, "%s: subnetId", what)
	harness.RequireUintString(t, st.weight, v.AmountStaked, what+": amountStaked")
	requireDelegationFee(t, delegationShares, v.DelegationFee, what)
	checkStakerTimes(t, st, v.NodeID, v.StartTimestamp, v.EndTimestamp, what)
	require.NotNil(t, v.DelegatorCount, "%s: delegatorCount", what)
	require.Equal(t, 2, *v.DelegatorCount, "%s: delegatorCount", what)
	harness.RequireUintString(t, s.d1.weight+s.d2.weight, v.AmountDelegated, what+": amountDelegated")
	if v.BLSCredentials != nil {
		for _, nv := range s.activeValidators {
			if nv.TxID == st.id && nv.Signer != nil {
				require.Equal(t, strings.ToLower(nv.Signer.PublicKey), strings.ToLower(v.BLSCredentials.PublicKey), "%s: BLS key", what)
			}
		}
	}
}

// TestPrimaryStakingValidatorCompleted: getSingleValidatorDetails for the
// scenario's node after its end: the completed variant, with the rewards the
// node paid.
func TestPrimaryStakingValidatorCompleted(t *testing.T) {
	s, ctx := stakingFixture(t)
	path := "validators/" + s.nodeID.String()
	for _, q := range []url.Values{nil, {"validationStatus": {"completed"}}} {
		var page struct {
			Validators []dataapi.Validator `json:"validators"`
		}
		harness.GetOK(t, ctx, networkURL(t, path, q), &page)
		require.Len(t, page.Validators, 1, "validators of %s %v", s.nodeID, q)
		v := page.Validators[0]
		what := "completed validator " + q.Encode()
		s.checkValidatorCommon(t, v, what)
		require.Equal(t, "completed", v.ValidationStatus, what)
		require.NotNil(t, v.Rewards, "%s: rewards", what)
		harness.RequireUintString(t, s.validator.rewardOf(t, s.addrs["S"]).Amount, v.Rewards.ValidationRewardAmount, what+": validationRewardAmount")
		harness.RequireUintString(t, s.validator.rewardOf(t, s.addrs["F"]).Amount, v.Rewards.DelegationRewardAmount, what+": delegationRewardAmount")
		require.Equal(t, []ids.ShortID{s.addrs["S"]}, shortIDsOf(t, v.Rewards.RewardAddresses), "%s: rewardAddresses", what)
		require.Equal(t, s.validator.reward.ID.String(), v.Rewards.RewardTxHash, "%s: rewardTxHash", what)
	}
	for _, status := range []string{"active", "pending", "removed"} {
		var page struct {
			Validators []dataapi.Validator `json:"validators"`
		}
		harness.GetOK(t, ctx, networkURL(t, path, url.Values{"validationStatus": {status}}), &page)
		require.Empty(t, page.Validators, "validationStatus=%s after the end", status)
	}
}

// TestPrimaryStakingValidatorWhileActive: getSingleValidatorDetails as
// avadata answered while the validator was active (captured by the scenario),
// against the node's getCurrentValidators of that moment.
func TestPrimaryStakingValidatorWhileActive(t *testing.T) {
	s, _ := stakingFixture(t)
	var nodeVdr *nodeValidator
	for i, v := range s.activeValidators {
		if v.TxID == s.validator.id {
			nodeVdr = &s.activeValidators[i]
		}
	}
	require.NotNil(t, nodeVdr)
	for _, label := range []string{"validator", "validator active"} {
		r := s.activeReplies[label]
		require.Equal(t, 200, r.Status, "GET %s while active: %s", s.activeURLs[label], r.Body)
		var page struct {
			Validators []dataapi.Validator `json:"validators"`
		}
		r.Decode(t, &page)
		require.Len(t, page.Validators, 1, "%s while active", label)
		v := page.Validators[0]
		s.checkValidatorCommon(t, v, label+" while active")
		require.Equal(t, "active", v.ValidationStatus)
		require.NotNil(t, v.PotentialRewards, "potentialRewards while active")
		harness.RequireUintString(t, uint64(*nodeVdr.PotentialReward), v.PotentialRewards.ValidationRewardAmount, "potential validationRewardAmount")
		var fees uint64
		for _, d := range s.delegators() {
			fee, _ := delegatorSplit(d)
			fees += fee
		}
		harness.RequireUintString(t, fees, v.PotentialRewards.DelegationRewardAmount, "potential delegationRewardAmount")
	}
}
