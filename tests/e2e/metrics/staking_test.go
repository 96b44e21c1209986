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
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
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
func checkStakingNow(t *testing.T, ctx context.Context, when string, more ...ids.ID) map[ids.ID]stakingFigures {
	t.Helper()
	uri := env.URI(t)
	subnets := append([]ids.ID{constants.PrimaryNetworkID}, more...)
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
		for _, s := range subnets {
			t.Logf("staking %s: P height %d, subnet %s matches the node: %v", when, h, s, node[s])
		}
		return node
	}
}

func TestMetricsStakingSeries(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), stakingTestTimeout)
	defer cancel()
	uri := env.URI(t)
	checkStakingNow(t, ctx, "before")
	before, newestDay := avadataStakingFigures(t, ctx, constants.PrimaryNetworkID)
	// The primary network's series is dense and newest first, paged, back
	// to the genesis day, where the genesis validators stand.
	days := harness.ListAll[struct {
		Value     json.Number `json:"value"`
		Timestamp int64       `json:"timestamp"`
	}](t, ctx, env.Metrics(t)+"/v2/networks/testnet/metrics/validatorCount?pageSize=500", "results", 500)
	require.NotEmpty(t, days)
	require.Equal(t, newestDay, days[0].Timestamp)
	for i := 1; i < len(days); i++ {
		require.Equal(t, days[i-1].Timestamp-86400, days[i].Timestamp, "day %d of the series", i)
	}
	t.Logf("the primary network's validatorCount series: %d days, %s on the first (%s)", len(days),
		days[len(days)-1].Value, time.Unix(days[len(days)-1].Timestamp, 0).UTC().Format(time.DateOnly))

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

	l1 := makeStakingL1(t, ctx, opts)

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

	now := checkStakingNow(t, ctx, "while both are current", l1)
	require.Equal(t, stakingFigures{"validatorCount": "2", "validatorWeight": "107", "delegatorCount": "0",
		"delegatorWeight": "0"}, now[l1], "the L1: its legacy subnet validator and its L1 validator")
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
	waitSubnetValidators(t, ctx, uri, l1, 1)
	now = checkStakingNow(t, ctx, "after the delegation's reward tx and the legacy subnet validator's end", l1)
	require.Equal(t, "1", now[l1]["validatorCount"], "the chain time ended the legacy subnet validator")
	require.Equal(t, "100", now[l1]["validatorWeight"])
	waitStakerGone(t, ctx, uri, vtx.ID(), vdr.NodeID)
	checkStakingNow(t, ctx, "after the validator's reward tx", l1)
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

// makeStakingL1 makes an L1 with a validator of each kind: EWOQ creates a
// subnet, adds a genesis validator's node as a permissioned subnet
// validator (weight 7) for 24 s, then converts the subnet to an L1 with one
// L1 validator (weight 100, a fresh node) while the legacy one is still
// current. It returns the subnet ID.
func makeStakingL1(t *testing.T, ctx context.Context, opts []common.Option) ids.ID {
	t.Helper()
	uri := env.URI(t)
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	require.NoError(t, err)
	ewoqOwner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}}
	tx, err := w.IssueCreateSubnetTx(ewoqOwner, opts...)
	require.NoError(t, err, "CreateSubnetTx")
	subnet := tx.ID()
	w, err = primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{SubnetIDs: []ids.ID{subnet}})
	require.NoError(t, err)

	var reply struct {
		Validators []struct {
			NodeID  ids.NodeID `json:"nodeID"`
			EndTime string     `json:"endTime"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators", struct{}{}, &reply))
	var node ids.NodeID
	for _, v := range reply.Validators {
		if end, _ := strconv.ParseInt(v.EndTime, 10, 64); end > time.Now().Add(time.Hour).Unix() {
			node = v.NodeID
		}
	}
	require.NotEqual(t, ids.EmptyNodeID, node, "a primary validator lasting an hour")
	_, err = w.IssueAddSubnetValidatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: node, End: uint64(time.Now().Add(24 * time.Second).Unix()), Wght: 7},
		Subnet:    subnet}, opts...)
	require.NoError(t, err, "AddSubnetValidatorTx")

	l1v := harness.NewBLSValidator(t)
	owner := message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{genesis.EWOQKey.Address()}}
	_, err = w.IssueConvertSubnetToL1Tx(subnet, env.Net(t).EVMChains()[1].BlockchainID, []byte{0xAB},
		[]*txs.ConvertSubnetToL1Validator{{NodeID: l1v.NodeID.Bytes(), Weight: 100, Balance: units.Avax,
			Signer: *l1v.PoP, RemainingBalanceOwner: owner, DeactivationOwner: owner}}, opts...)
	require.NoError(t, err, "ConvertSubnetToL1Tx")
	return subnet
}

// waitSubnetValidators waits until the node lists n current validators of
// subnet.
func waitSubnetValidators(t *testing.T, ctx context.Context, uri string, subnet ids.ID, n int) {
	t.Helper()
	for {
		var reply struct {
			Validators []json.RawMessage `json:"validators"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators",
			map[string]any{"subnetID": subnet.String()}, &reply))
		if len(reply.Validators) == n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("subnet %s kept %d validators, want %d: %v", subnet, len(reply.Validators), n, ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}
