package primary

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/reward"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listPendingPrimaryNetworkRewards and getNetworkDetails on the shared
// network, while a fresh key K delegates to a genesis validator: the
// pending rewards of K (by address) and of that validator's node (by node
// ID) are the node's potential rewards (platform.getCurrentValidators with
// the node's ID, which lists its delegators), K's net of the validator's
// fee; the network's counts and stake are recomputed from
// getCurrentValidators, the staking ratio over platform.getCurrentSupply.

// delegationPeriod is K's delegation: long enough for the checks.
const delegationPeriod = 90 * time.Second

// pendingRewardE2E is a PendingReward.
type pendingRewardE2E struct {
	Addresses       []string `json:"addresses"`
	TxHash          string   `json:"txHash"`
	AmountStaked    string   `json:"amountStaked"`
	NodeID          string   `json:"nodeId"`
	StartTimestamp  int64    `json:"startTimestamp"`
	EndTimestamp    int64    `json:"endTimestamp"`
	RewardType      string   `json:"rewardType"`
	Progress        float64  `json:"progress"`
	EstimatedReward struct {
		AssetID string `json:"assetId"`
		Amount  string `json:"amount"`
	} `json:"estimatedReward"`
}

func listPendingE2E(t *testing.T, ctx context.Context, q url.Values, pageSize int) []pendingRewardE2E {
	t.Helper()
	raw := pageAll(t, ctx, networkURL(t, "rewards:listPending", nil), q, "pendingRewards", pageSize)
	out := make([]pendingRewardE2E, len(raw))
	for i, r := range raw {
		require.NoError(t, json.Unmarshal(r, &out[i]))
	}
	return out
}

func TestPrimaryPendingRewardsAndNetworkDetails(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	uri := env.URI(t)
	hrp := constants.GetHRP(constants.LocalID)
	from := truth.Height(t, ctx, uri, "P")

	// K, funded by EWOQ, delegates 25 AVAX to a genesis validator.
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	ewoq, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{})
	require.NoError(t, err)
	avaxID := ewoq.Builder().Context().AVAXAssetID
	_, err = ewoq.IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: avaxID},
		Out: &secp256k1fx.TransferOutput{Amt: 26 * units.Avax, OutputOwners: *owner}}}, opts...)
	require.NoError(t, err, "funding K")
	w, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(key), primary.WalletConfig{})
	require.NoError(t, err)
	var target ids.NodeID
	for _, v := range nodeCurrentValidators(t, ctx, uri) {
		if time.Unix(int64(v.EndTime), 0).After(time.Now().Add(time.Hour)) {
			target = v.NodeID
		}
	}
	require.NotEqual(t, ids.EmptyNodeID, target, "no validator lasting an hour")
	tx, err := w.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{Validator: txs.Validator{NodeID: target,
		End: uint64(time.Now().Add(delegationPeriod).Unix()), Wght: 25 * units.Avax}, Subnet: constants.PrimaryNetworkID},
		avaxID, owner, opts...)
	require.NoError(t, err, "K's delegation")
	height, _ := truth.LocatePTx(t, ctx, uri, from+1, tx.ID())
	waitCtx, waitCancel := context.WithTimeout(ctx, primaryIndexTimeout)
	harness.WaitIndexed(t, waitCtx, env.Base(t), map[string]uint64{"P": height})
	waitCancel()

	// The node's view of the target with its delegators.
	vals := nodeCurrentValidators(t, ctx, uri, target)
	require.Len(t, vals, 1)
	v := vals[0]
	require.NotNil(t, v.Delegators)
	potential := map[string]uint64{v.TxID.String(): uint64(*v.PotentialReward)}
	var mine *nodeDelegator
	for i, d := range *v.Delegators {
		potential[d.TxID.String()] = uint64(*d.PotentialReward)
		if d.TxID == tx.ID() {
			mine = &(*v.Delegators)[i]
		}
	}
	require.NotNil(t, mine, "K's delegation among the node's delegators")
	// The fee in parts per million: exactDelegationFee where the node gives
	// it, else its percentage.
	shares := uint32(float64(v.DelegationFee)*10_000 + 0.5)
	if v.ExactDelegationFee != nil {
		shares = uint32(*v.ExactDelegationFee)
	}
	kAddr := bech32Of(t, hrp, key.Address())

	// By address: K's one delegation, its net reward.
	byAddr := listPendingE2E(t, ctx, url.Values{"addresses": {"P-" + kAddr}}, 10)
	require.Len(t, byAddr, 1)
	p := byAddr[0]
	_, net := reward.Split(uint64(*mine.PotentialReward), shares)
	require.Equal(t, tx.ID().String(), p.TxHash)
	require.Equal(t, "DELEGATOR", p.RewardType)
	require.Equal(t, target.String(), p.NodeID)
	require.Equal(t, []string{kAddr}, p.Addresses)
	harness.RequireUintString(t, 25*units.Avax, p.AmountStaked, "amountStaked")
	require.Equal(t, int64(mine.StartTime), p.StartTimestamp)
	require.Equal(t, int64(mine.EndTime), p.EndTimestamp)
	harness.RequireUintString(t, net, p.EstimatedReward.Amount, "K's estimated reward: the node's potential reward less the fee")
	require.Equal(t, avaxID.String(), p.EstimatedReward.AssetID)
	// Listed within seconds of its start: some way into its period, not done.
	elapsed := float64(time.Now().Unix()-p.StartTimestamp) / float64(p.EndTimestamp-p.StartTimestamp) * 100
	require.GreaterOrEqual(t, p.Progress, 0.0)
	require.LessOrEqual(t, p.Progress, elapsed+1e-9)
	require.Less(t, p.Progress, 100.0)

	// By node: the validation and each active delegation, paged one by one.
	byNode := listPendingE2E(t, ctx, url.Values{"nodeIds": {target.String()}}, 1)
	got := map[string]uint64{}
	for _, r := range byNode {
		amount, err := strconv.ParseUint(r.EstimatedReward.Amount, 10, 64)
		require.NoError(t, err)
		if r.RewardType == "DELEGATOR" {
			require.Contains(t, potential, r.TxHash)
			_, want := reward.Split(potential[r.TxHash], shares)
			require.Equal(t, want, amount, "delegation %s", r.TxHash)
			amount = potential[r.TxHash] // compare the gross below
		} else {
			require.Equal(t, "VALIDATOR", r.RewardType)
		}
		got[r.TxHash] = amount
	}
	require.Equal(t, potential, got, "pending rewards of the node: its validation and delegations, the node's figures")
	for i := 1; i < len(byNode); i++ {
		require.GreaterOrEqual(t, byNode[i-1].StartTimestamp, byNode[i].StartTimestamp, "newest start first")
	}

	checkNetworkDetails(t, ctx, uri)

	for _, c := range []struct{ name, query, mentions string }{
		{"neither", "", "addresses"},
		{"both", "addresses=P-" + kAddr + "&nodeIds=" + target.String(), "not both"},
		{"bad address", "addresses=P-fuji1xyz", "addresses"},
		{"bad node", "nodeIds=NodeID-1", "nodeIds"},
		{"sortOrder", "nodeIds=" + target.String() + "&sortOrder=up", "sortOrder"},
		{"pageSize", "nodeIds=" + target.String() + "&pageSize=0", "pageSize"},
	} {
		r := harness.GetWithRetryAfter(t, ctx, networkURL(t, "rewards:listPending", nil)+"?"+c.query)
		harness.RequireErrorBody(t, r, http.StatusBadRequest, c.mentions)
	}
	r := harness.GetWithRetryAfter(t, ctx, env.Base(t)+"/v1/networks/mainnet")
	harness.RequireErrorBody(t, r, http.StatusBadRequest, "network")
}

// networkDetailsE2E is GetNetworkDetailsResponse.
type networkDetailsE2E struct {
	ValidatorDetails struct {
		ValidatorCount               int               `json:"validatorCount"`
		TotalAmountStaked            string            `json:"totalAmountStaked"`
		EstimatedAnnualStakingReward string            `json:"estimatedAnnualStakingReward"`
		StakingDistributionByVersion []json.RawMessage `json:"stakingDistributionByVersion"`
		StakingRatio                 string            `json:"stakingRatio"`
	} `json:"validatorDetails"`
	DelegatorDetails struct {
		DelegatorCount    uint64 `json:"delegatorCount"`
		TotalAmountStaked string `json:"totalAmountStaked"`
	} `json:"delegatorDetails"`
}

// checkNetworkDetails compares getNetworkDetails with the totals of
// getCurrentValidators (validators' own stake, their delegations, and the
// potential rewards of both: the delegators' read per node) and its ratio
// with getCurrentSupply. A staker that starts or ends between the node's
// reads and avadata's answer makes it try again.
func checkNetworkDetails(t *testing.T, ctx context.Context, uri string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		vals := nodeCurrentValidators(t, ctx, uri)
		var validatorStake, delegatorStake, delegators uint64
		rewards := new(big.Int)
		for _, v := range vals {
			validatorStake += uint64(v.Weight)
			delegators += uint64(*v.DelegatorCount)
			delegatorStake += uint64(*v.DelegatorWeight)
			rewards.Add(rewards, new(big.Int).SetUint64(uint64(*v.PotentialReward)))
			if *v.DelegatorCount > 0 {
				one := nodeCurrentValidators(t, ctx, uri, v.NodeID)
				for _, d := range *one[0].Delegators {
					rewards.Add(rewards, new(big.Int).SetUint64(uint64(*d.PotentialReward)))
				}
			}
		}
		var supply struct {
			Supply avajson.Uint64 `json:"supply"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentSupply", map[string]any{}, &supply))
		time.Sleep(liveSetReuse) // past avadata's reuse of an older read
		var got networkDetailsE2E
		harness.GetOK(t, ctx, env.Base(t)+"/v1/networks/"+primaryNetwork, &got)
		again := nodeCurrentValidators(t, ctx, uri)
		if len(again) != len(vals) && attempt < 5 {
			continue
		}
		vd := got.ValidatorDetails
		require.Equal(t, len(vals), vd.ValidatorCount, "validatorCount")
		harness.RequireUintString(t, validatorStake, vd.TotalAmountStaked, "validators' totalAmountStaked")
		require.Equal(t, delegators, got.DelegatorDetails.DelegatorCount, "delegatorCount")
		harness.RequireUintString(t, delegatorStake, got.DelegatorDetails.TotalAmountStaked, "delegators' totalAmountStaked")
		harness.RequireDecimal(t, rewards, vd.EstimatedAnnualStakingReward, "estimatedAnnualStakingReward")
		require.NotNil(t, vd.StakingDistributionByVersion)
		ratio, err := strconv.ParseFloat(vd.StakingRatio, 64)
		require.NoError(t, err)
		want := float64(validatorStake+delegatorStake) / float64(supply.Supply)
		require.InEpsilon(t, want, ratio, 1e-6, "stakingRatio over getCurrentSupply (the supply grows with each reward)")
		t.Logf("network: %d validators, %d delegators, staking ratio %s", vd.ValidatorCount, delegators, vd.StakingRatio)
		return
	}
}

// liveSetReuse is how long avadata reuses a read of the node's current
// validators (liveSetTTL), with a margin.
const liveSetReuse = 6 * time.Second

// bech32Of is a without-chain-prefix address ("local1...").
func bech32Of(t *testing.T, hrp string, a ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32(hrp, a.Bytes())
	require.NoError(t, err)
	return s
}
