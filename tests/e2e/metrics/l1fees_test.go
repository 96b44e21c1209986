package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
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
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The L1 validator fee series (getMetricsByValidationId,
// getMetricsBySubnetId, getMetricsByNodeId, getTotalL1ValidatorMetrics)
// against the P-chain: a fresh key converts a fresh subnet to an L1 with
// two validators, tops one up twice and disables the other, with pauses
// so the continuous fee charges them over several blocks. Ground truth: a
// validation's cumulative fee after the newest P block is what its
// creating tx and its IncreaseL1ValidatorBalanceTxs gave it, less the
// disable's refund (the refund UTXO, platform.getUTXOs), less its balance
// (platform.getL1Validator, read at the same P height).

// l1FeeVal is a validation of the scenario with its ground truth.
type l1FeeVal struct {
	id        ids.ID
	node      ids.NodeID
	deposited uint64
	refunded  uint64
	balance   uint64 // getL1Validator at the tip
}

func (v *l1FeeVal) fees() uint64 { return v.deposited - v.refunded - v.balance }

type l1FeeScenario struct {
	subnet ids.ID
	vals   []*l1FeeVal
}

func runL1FeeScenario(t *testing.T, ctx context.Context, uri string) *l1FeeScenario {
	t.Helper()
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
	pOwner := message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{key.Address()}}

	ewoq, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{})
	require.NoError(t, err, "EWOQ P wallet")
	avaxID := ewoq.Builder().Context().AVAXAssetID
	_, err = ewoq.IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: avaxID},
		Out: &secp256k1fx.TransferOutput{Amt: 10 * units.Avax, OutputOwners: *owner}}}, opts...)
	require.NoError(t, err, "funding the L1's owner")

	kc := secp256k1fx.NewKeychain(key)
	w, err := primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	require.NoError(t, err)
	tx, err := w.IssueCreateSubnetTx(owner, opts...)
	require.NoError(t, err, "CreateSubnetTx")
	s := &l1FeeScenario{subnet: tx.ID()}
	w, err = primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{SubnetIDs: []ids.ID{s.subnet}})
	require.NoError(t, err)

	// The manager chain is not checked by the P-chain; the local
	// subnet-evm chain stands in (as in the primary L1 scenario).
	manager := env.Net(t).EVMChains()[1].BlockchainID
	// The tx lists its validators by node ID, and the i-th one's
	// validation ID is the subnet ID with i appended.
	vs := []*harness.BLSValidator{harness.NewBLSValidator(t), harness.NewBLSValidator(t)}
	slices.SortFunc(vs, func(x, y *harness.BLSValidator) int { return x.NodeID.Compare(y.NodeID) })
	var convert []*txs.ConvertSubnetToL1Validator
	for i, balance := range []uint64{units.Avax, 500 * units.MilliAvax} {
		v := vs[i]
		s.vals = append(s.vals, &l1FeeVal{id: s.subnet.Append(uint32(i)), node: v.NodeID, deposited: balance})
		convert = append(convert, &txs.ConvertSubnetToL1Validator{NodeID: v.NodeID.Bytes(), Weight: 100, Balance: balance,
			Signer: *v.PoP, RemainingBalanceOwner: pOwner, DeactivationOwner: pOwner})
	}
	_, err = w.IssueConvertSubnetToL1Tx(s.subnet, manager, []byte{0xad, 0xa0, 0x1f}, convert, opts...)
	require.NoError(t, err, "ConvertSubnetToL1Tx")
	a, b := s.vals[0], s.vals[1]

	pause := func() {
		select {
		case <-ctx.Done():
		case <-time.After(2 * time.Second):
		}
	}
	pause()
	_, err = w.IssueIncreaseL1ValidatorBalanceTx(a.id, 300*units.MilliAvax, opts...)
	require.NoError(t, err, "IncreaseL1ValidatorBalanceTx")
	a.deposited += 300 * units.MilliAvax
	pause()
	tx, err = w.IssueDisableL1ValidatorTx(b.id, opts...)
	require.NoError(t, err, "DisableL1ValidatorTx")
	// The refund is (txID, len(Outs)), as platform.getUTXOs shows it.
	refundID := tx.ID().Prefix(uint64(len(tx.Unsigned.(*txs.DisableL1ValidatorTx).Outs)))
	addr, err := address.FormatBech32(constants.GetHRP(constants.LocalID), key.Address().Bytes())
	require.NoError(t, err)
	for _, u := range truth.UTXOs(t, ctx, uri, "P", "", "P-"+addr) {
		if u.ID == refundID {
			b.refunded = u.Amount
		}
	}
	require.NotZero(t, b.refunded, "the disable's refund UTXO %s", refundID)
	pause()
	_, err = w.IssueIncreaseL1ValidatorBalanceTx(a.id, 100*units.MilliAvax, opts...)
	require.NoError(t, err, "IncreaseL1ValidatorBalanceTx")
	a.deposited += 100 * units.MilliAvax
	return s
}

// l1Point is one value of a series, exactly.
type l1Point struct {
	value     uint64
	timestamp int64
}

func getL1Series(t *testing.T, ctx context.Context, u string) []l1Point {
	t.Helper()
	reply := harness.Get(t, ctx, u)
	require.Equal(t, http.StatusOK, reply.Status, "%s: %s", u, reply.Body)
	var body struct {
		Results []struct {
			Value     json.Number `json:"value"`
			Timestamp int64       `json:"timestamp"`
		} `json:"results"`
		NextPageToken *string `json:"nextPageToken"`
	}
	dec := json.NewDecoder(bytes.NewReader(reply.Body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&body), "%s", reply.Body)
	require.Nil(t, body.NextPageToken, "%s: the whole range in one reply", u)
	out := make([]l1Point, len(body.Results))
	for i, r := range body.Results {
		v, err := strconv.ParseUint(string(r.Value), 10, 64)
		require.NoError(t, err, "%s: value %q is an exact integer", u, r.Value)
		out[i] = l1Point{v, r.Timestamp}
		require.Zero(t, r.Timestamp%86400, "%s: UTC days", u)
		if i > 0 {
			require.Equal(t, out[i-1].timestamp-86400, r.Timestamp, "%s: dense, newest first", u)
		}
	}
	return out
}

// checkL1Daily holds a daily series against its cumulative one: each day
// is the difference of two cumulative values, the first the whole first.
func checkL1Daily(t *testing.T, daily, cumulative []l1Point, what string) {
	t.Helper()
	require.Equal(t, len(cumulative), len(daily), what)
	for i := range daily {
		want := cumulative[i].value
		if i+1 < len(cumulative) {
			want -= cumulative[i+1].value
		}
		require.Equal(t, l1Point{want, cumulative[i].timestamp}, daily[i], "%s day %d", what, i)
	}
}

func TestMetricsL1Fees(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	uri := env.URI(t)
	s := runL1FeeScenario(t, ctx, uri)

	tip := truth.Height(t, ctx, uri, "P")
	tipDay := truth.SnowmanBlockTxs(t, ctx, uri, "P", tip).Time / 86400 * 86400
	harness.WaitIndexed(t, ctx, env.Base(t), map[string]uint64{"P": tip})
	for _, v := range s.vals {
		var reply struct {
			Balance avajson.Uint64 `json:"balance"`
			Height  avajson.Uint64 `json:"height"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getL1Validator", map[string]any{"validationID": v.id}, &reply))
		require.Equal(t, tip, uint64(reply.Height), "getL1Validator read at the tip")
		v.balance = uint64(reply.Balance)
		t.Logf("validation %s: deposited %d refunded %d balance %d: fees %d", v.id, v.deposited, v.refunded, v.balance, v.fees())
		require.NotZero(t, v.fees(), "the continuous fee charged %s", v.id)
	}
	require.Zero(t, s.vals[1].balance, "disabled")

	m := env.Metrics(t) + "/v2"
	// Each validation and its node (each node has only this validation).
	var subnetFees uint64
	paying := map[int64]uint64{}
	for _, v := range s.vals {
		subnetFees += v.fees()
		cum := getL1Series(t, ctx, m+"/validation/"+v.id.String()+"/metrics/validationCumulativeFeesDaily")
		require.NotEmpty(t, cum)
		require.Equal(t, l1Point{v.fees(), tipDay}, cum[0], "validation %s: cumulative at the newest P block", v.id)
		daily := getL1Series(t, ctx, m+"/validation/"+v.id.String()+"/metrics/validationFeesDaily")
		checkL1Daily(t, daily, cum, "validation "+v.id.String())
		for _, p := range daily {
			if p.value > 0 {
				paying[p.timestamp]++
			}
		}
		node := getL1Series(t, ctx, m+"/validator/"+v.node.String()+"/metrics/perNodeCumulativeFeesPaid")
		require.Equal(t, cum, node, "node %s", v.node)
		nodeDaily := getL1Series(t, ctx, m+"/validator/"+v.node.String()+"/metrics/perNodeDailyFeesPaid")
		require.Equal(t, daily, nodeDaily, "node %s", v.node)
	}

	// The subnet: the sum, and the validations charged each day.
	subnet := m + "/subnet/" + s.subnet.String() + "/metrics/"
	cum := getL1Series(t, ctx, subnet+"perSubnetCumulativeFeesPaid")
	require.Equal(t, l1Point{subnetFees, tipDay}, cum[0])
	checkL1Daily(t, getL1Series(t, ctx, subnet+"perSubnetDailyFeesPaid"), cum, "subnet")
	payingSeries := getL1Series(t, ctx, subnet+"perSubnetPayingValidators")
	require.Len(t, payingSeries, len(cum))
	for _, p := range payingSeries {
		require.Equal(t, paying[p.timestamp], p.value, "paying validators on day %d", p.timestamp)
	}
	if len(payingSeries) == 1 {
		require.Equal(t, uint64(2), payingSeries[0].value, "both were charged (the scenario ran within one day)")
	}

	// Every L1: at least this one, consistent with itself.
	total := getL1Series(t, ctx, m+"/validators/metrics/totalCumulativeFeesDaily")
	require.Equal(t, tipDay, total[0].timestamp)
	require.GreaterOrEqual(t, total[0].value, subnetFees)
	checkL1Daily(t, getL1Series(t, ctx, m+"/validators/metrics/totalValidatorFeesDaily"), total, "total")
	for _, p := range getL1Series(t, ctx, m+"/validators/metrics/totalPayingValidatorsDaily") {
		require.GreaterOrEqual(t, p.value, paying[p.timestamp], "day %d", p.timestamp)
	}

	// Known subjects without L1 validations: a primary network validator
	// and the subnet-evm subnet (not an L1).
	var current struct {
		Validators []struct {
			NodeID ids.NodeID `json:"nodeID"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators", struct{}{}, &current))
	require.NotEmpty(t, current.Validators)
	require.Empty(t, getL1Series(t, ctx, m+"/validator/"+current.Validators[0].NodeID.String()+"/metrics/perNodeDailyFeesPaid"))
	require.Empty(t, getL1Series(t, ctx, m+"/subnet/"+env.Net(t).EVMChains()[1].SubnetID.String()+"/metrics/perSubnetPayingValidators"))

	// A range of one day; the SDK's other parameters refused; unknown
	// subjects.
	one := getL1Series(t, ctx, subnet+"perSubnetCumulativeFeesPaid?"+url.Values{
		"startTimestamp": {strconv.FormatInt(tipDay+5, 10)}, "endTimestamp": {strconv.FormatInt(tipDay+6, 10)}}.Encode())
	require.Equal(t, cum[:1], one)
	for path, status := range map[string]int{
		"/validation/" + ids.GenerateTestID().String() + "/metrics/validationFeesDaily":     http.StatusNotFound,
		"/validator/" + ids.GenerateTestNodeID().String() + "/metrics/perNodeDailyFeesPaid": http.StatusNotFound,
		"/subnet/" + ids.GenerateTestID().String() + "/metrics/perSubnetDailyFeesPaid":      http.StatusNotFound,
		"/subnet/" + s.subnet.String() + "/metrics/validatorCount":                          http.StatusBadRequest,
		"/validators/metrics/totalValidatorFeesDaily?pageSize=10":                           http.StatusBadRequest,
		"/validation/nope/metrics/validationFeesDaily":                                      http.StatusBadRequest,
	} {
		reply := harness.Get(t, ctx, m+path)
		require.Equal(t, status, reply.Status, "%s: %s", path, reply.Body)
		var body struct {
			Message    []string `json:"message"`
			StatusCode int      `json:"statusCode"`
			Error      string   `json:"error"`
		}
		require.NoError(t, json.Unmarshal(reply.Body, &body), "%s: %s", path, reply.Body)
		require.Len(t, body.Message, 1, "%s", path)
		require.Equal(t, status, body.StatusCode)
	}
	require.Equal(t, tip, truth.Height(t, ctx, uri, "P"), "no P block arrived while the test compared")
}
