package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The staking series against the node: a fresh validator (2000 AVAX, 50 s)
// and a delegation to it (25 AVAX, 30 s) on the primary network. While
// both are current, after the delegation's RewardValidatorTx and after the
// validator's, the newest day of getStakingMetrics (all four metrics) for
// the primary network and every subnet of the local network equals what
// platform.getCurrentValidators answers at the same P-chain height (count
// and summed weights, delegators from each validator's delegatorCount and
// delegatorWeight); getValidatorsByDateRange lists the validation with its
// reward address and start.

const (
	stakingTestTimeout = 4 * time.Minute
	stakeValidatorEnd  = 50 * time.Second
	stakeDelegatorEnd  = 30 * time.Second
	stakeValidatorAVAX = 2000 * units.Avax
	stakeDelegatorAVAX = 25 * units.Avax
	stakeDelegationFee = 100_000 // 10%
)

// stakingFigures are the four figures as decimal strings.
type stakingFigures map[string]string

// nodeStakingFigures is platform.getCurrentValidators of subnet, summed.
func nodeStakingFigures(t *testing.T, ctx context.Context, uri string, subnet ids.ID) stakingFigures {
	t.Helper()
	var reply struct {
		Validators []struct {
			TxID            ids.ID  `json:"txID"`
			Weight          *string `json:"weight"`
			DelegatorCount  *string `json:"delegatorCount"`
			DelegatorWeight *string `json:"delegatorWeight"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators",
		map[string]any{"subnetID": subnet.String()}, &reply))
	sum := func(dst *big.Int, s *string) {
		if s == nil {
			return
		}
		v, ok := new(big.Int).SetString(*s, 10)
		require.True(t, ok, "a number: %q", *s)
		dst.Add(dst, v)
	}
	vw, dc, dw := new(big.Int), new(big.Int), new(big.Int)
	for _, v := range reply.Validators {
		sum(vw, v.Weight)
		sum(dc, v.DelegatorCount)
		sum(dw, v.DelegatorWeight)
	}
	return stakingFigures{"validatorCount": strconv.Itoa(len(reply.Validators)), "validatorWeight": vw.String(),
		"delegatorCount": dc.String(), "delegatorWeight": dw.String()}
}

// avadataStakingFigures is the newest day of each staking metric of subnet
// (nil: an empty series), and that day.
func avadataStakingFigures(t *testing.T, ctx context.Context, subnet ids.ID) (stakingFigures, int64) {
	t.Helper()
	out := stakingFigures{}
	var day int64
	for _, m := range []string{"validatorCount", "validatorWeight", "delegatorCount", "delegatorWeight"} {
		u := env.Metrics(t) + "/v2/networks/testnet/metrics/" + m + "?pageSize=1"
		if subnet != constants.PrimaryNetworkID {
			u += "&subnetId=" + subnet.String()
		}
		r := harness.Get(t, ctx, u)
		require.Equal(t, 200, r.Status, "%s: %s", u, r.Body)
		var body struct {
			Results []struct {
				Value     json.Number `json:"value"`
				Timestamp int64       `json:"timestamp"`
			} `json:"results"`
		}
		d := json.NewDecoder(bytesReader(r.Body))
		d.UseNumber()
		require.NoError(t, d.Decode(&body))
		if len(body.Results) == 0 {
			return nil, 0
		}
		out[m], day = body.Results[0].Value.String(), body.Results[0].Timestamp
	}
	return out, day
}

// checkStakingNow compares avadata's newest day with the node's current set
// for every subnet, at one P-chain height both stand at (retried while the
// P-chain moves).
func checkStakingNow(t *testing.T, ctx context.Context, when string) {
	t.Helper()
	uri := env.URI(t)
	subnets := []ids.ID{constants.PrimaryNetworkID}
	seen := map[string]bool{}
	for _, b := range truth.Blockchains(t, ctx, uri) {
		if id, err := ids.FromString(b.SubnetID); err == nil && id != constants.PrimaryNetworkID && !seen[b.SubnetID] {
			seen[b.SubnetID] = true
			subnets = append(subnets, id)
		}
	}
	for attempt := 0; ; attempt++ {
		require.Less(t, attempt, 20, "%s: the P-chain kept moving", when)
		h := truth.Height(t, ctx, uri, "P")
		node := map[ids.ID]stakingFigures{}
		for _, s := range subnets {
			node[s] = nodeStakingFigures(t, ctx, uri, s)
		}
		if truth.Height(t, ctx, uri, "P") != h {
			continue
		}
		harness.WaitIndexed(t, ctx, env.Base(t), map[string]uint64{"P": h})
		got := map[ids.ID]stakingFigures{}
		for _, s := range subnets {
			got[s], _ = avadataStakingFigures(t, ctx, s)
		}
		if truth.Height(t, ctx, uri, "P") != h {
			continue
		}
		for _, s := range subnets {
			want := node[s]
			if got[s] == nil {
				// No series: the subnet never had a validator.
				require.Equal(t, "0", want["validatorCount"], "%s: subnet %s has validators but no series", when, s)
				continue
			}
			require.Equal(t, want, got[s], "%s: subnet %s at P height %d", when, s, h)
		}
		t.Logf("staking %s: P height %d, %d subnets match the node (primary: %v)", when, h, len(subnets),
			node[constants.PrimaryNetworkID])
		return
	}
}

func TestMetricsStakingSeries(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), stakingTestTimeout)
	defer cancel()
	uri := env.URI(t)
	checkStakingNow(t, ctx, "before")
	before, _ := avadataStakingFigures(t, ctx, constants.PrimaryNetworkID)

	// Fund a validator key and a delegator key from EWOQ.
	keyS, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	keyD, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	ewoq, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{})
	require.NoError(t, err)
	avaxID := ewoq.Builder().Context().AVAXAssetID
	owner := func(k *secp256k1.PrivateKey) *secp256k1fx.OutputOwners {
		return &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{k.Address()}}
	}
	_, err = ewoq.IssueBaseTx([]*avax.TransferableOutput{
		{Asset: avax.Asset{ID: avaxID}, Out: &secp256k1fx.TransferOutput{Amt: stakeValidatorAVAX + units.Avax, OutputOwners: *owner(keyS)}},
		{Asset: avax.Asset{ID: avaxID}, Out: &secp256k1fx.TransferOutput{Amt: stakeDelegatorAVAX + units.Avax, OutputOwners: *owner(keyD)}},
	}, opts...)
	require.NoError(t, err, "funding the stakers")
	walletS, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(keyS), primary.WalletConfig{})
	require.NoError(t, err)
	walletD, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(keyD), primary.WalletConfig{})
	require.NoError(t, err)

	vdr := harness.NewBLSValidator(t)
	t0 := time.Now()
	vtx, err := walletS.IssueAddPermissionlessValidatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: vdr.NodeID, End: uint64(t0.Add(stakeValidatorEnd).Unix()), Wght: stakeValidatorAVAX},
		Subnet:    constants.PrimaryNetworkID}, vdr.PoP, avaxID, owner(keyS), owner(keyS), stakeDelegationFee, opts...)
	require.NoError(t, err, "adding the validator")
	dtx, err := walletD.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: vdr.NodeID, End: uint64(t0.Add(stakeDelegatorEnd).Unix()), Wght: stakeDelegatorAVAX},
		Subnet:    constants.PrimaryNetworkID}, avaxID, owner(keyD), opts...)
	require.NoError(t, err, "adding the delegator")

	checkStakingNow(t, ctx, "while both are current")
	active, _ := avadataStakingFigures(t, ctx, constants.PrimaryNetworkID)
	requireAdded(t, before, active, "validatorCount", 1)
	requireAdded(t, before, active, "delegatorCount", 1)
	requireAdded(t, before, active, "validatorWeight", stakeValidatorAVAX)
	requireAdded(t, before, active, "delegatorWeight", stakeDelegatorAVAX)

	// getValidatorsByDateRange lists the validation from its start on.
	start := nodeValidatorStart(t, ctx, uri, vdr.NodeID)
	pAddr, err := address.Format("P", constants.GetHRP(constants.LocalID), keyS.Address().Bytes())
	require.NoError(t, err)
	u := fmt.Sprintf("%s/v2/subnets/%s/validators:getAddresses?network=testnet&startTimestamp=%d&pageSize=2", env.Metrics(t),
		constants.PrimaryNetworkID, start)
	items := harness.ListAll[struct {
		Addresses []string `json:"addresses"`
		SortKey   string   `json:"sortKey"`
	}](t, ctx, u, "addresses", 2)
	found := false
	for _, it := range items {
		if it.SortKey == strconv.FormatInt(start, 10) && len(it.Addresses) == 1 && it.Addresses[0] == pAddr {
			found = true
		}
	}
	require.True(t, found, "validation %s (start %d, rewards to %s) in %+v", vtx.ID(), start, pAddr, items)

	waitStakerGone(t, ctx, uri, dtx.ID(), vdr.NodeID)
	checkStakingNow(t, ctx, "after the delegation's reward tx")
	waitStakerGone(t, ctx, uri, vtx.ID(), vdr.NodeID)
	checkStakingNow(t, ctx, "after the validator's reward tx")
	after, _ := avadataStakingFigures(t, ctx, constants.PrimaryNetworkID)
	require.Equal(t, before, after, "every stake of the test ended")
}

// requireAdded checks that metric grew by n between two figures.
func requireAdded(t *testing.T, before, after stakingFigures, metric string, n uint64) {
	t.Helper()
	b, _ := new(big.Int).SetString(before[metric], 10)
	a, _ := new(big.Int).SetString(after[metric], 10)
	require.Equal(t, new(big.Int).Add(b, new(big.Int).SetUint64(n)).String(), a.String(), metric)
}

// nodeValidatorStart is the node's startTime of nodeID's validation.
func nodeValidatorStart(t *testing.T, ctx context.Context, uri string, nodeID ids.NodeID) int64 {
	t.Helper()
	var reply struct {
		Validators []struct {
			StartTime string `json:"startTime"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators",
		map[string]any{"nodeIDs": []string{nodeID.String()}}, &reply))
	require.Len(t, reply.Validators, 1)
	start, err := strconv.ParseInt(reply.Validators[0].StartTime, 10, 64)
	require.NoError(t, err)
	return start
}

// waitStakerGone waits until the node no longer lists staking tx txID
// among nodeID's validator and delegators (its RewardValidatorTx came).
func waitStakerGone(t *testing.T, ctx context.Context, uri string, txID ids.ID, nodeID ids.NodeID) {
	t.Helper()
	for {
		var reply struct {
			Validators []struct {
				TxID       ids.ID `json:"txID"`
				Delegators []struct {
					TxID ids.ID `json:"txID"`
				} `json:"delegators"`
			} `json:"validators"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators",
			map[string]any{"nodeIDs": []string{nodeID.String()}}, &reply))
		listed := false
		for _, v := range reply.Validators {
			listed = listed || v.TxID == txID
			for _, d := range v.Delegators {
				listed = listed || d.TxID == txID
			}
		}
		if !listed {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("staker %s was never rewarded: %v", txID, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
