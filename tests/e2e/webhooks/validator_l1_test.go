package webhooks

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestWebhooksValidatorL1: a fresh key L creates a subnet and converts it
// to an L1 with validators A (1 AVAX) and B (3 nAVAX: it runs out within
// seconds). Two validator_activity webhooks watch it: by the subnet ID,
// and by A's node ID narrowed to the subnet, both with a balance threshold
// 5 nAVAX below A's initial balance. In the next seconds the P-chain's fees
// run B out (no tx; the node builds a block of its own for it) and take A
// below the threshold; then L tops A up and disables it. Each webhook gets
// exactly the events the node's data gives (the fee config and state, the
// P blocks' times, platform.getL1Validator, the disable's refund UTXO),
// each once, in chain order, signed as the SDK verifies.
// TestWebhooksValidatorL1Removed does the removal on the 2-node network.
func TestWebhooksValidatorL1(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	uri, base := env.URI(t), env.Base(t)
	pChainID := blockchainID(t, ctx, uri, "P")
	l := newPKey(t)
	fundOnP(t, ctx, uri, map[*pKey]uint64{l: 20 * units.Avax})
	tx, err := l.wallet(t, ctx, uri).IssueCreateSubnetTx(l.owner(), pOpts(ctx)...)
	require.NoError(t, err, "CreateSubnetTx")
	subnet := tx.ID()
	w := l.wallet(t, ctx, uri, subnet)

	const balanceA, balanceB, weightA, weightB = units.Avax, 3, 100, 50
	a, b := harness.NewBLSValidator(t), harness.NewBLSValidator(t)
	l1Subs := []string{"l1_validator_balance_increased", "l1_validator_disabled", "l1_validator_removed", "l1_validator_balance_threshold"}
	threshold := strconv.FormatUint(balanceA-5, 10)
	bySubnet, byNode := harness.NewWebhookReceiver(t), harness.NewWebhookReceiver(t)
	subnetHook := harness.CreateWebhook(t, ctx, base, validatorHookRequest(bySubnet.URL, "subnetId", subnet.String(), l1Subs,
		map[string]any{"l1ValidatorFeeBalanceThreshold": threshold}))
	nodeHook := harness.CreateWebhook(t, ctx, base, validatorHookRequest(byNode.URL, "nodeId", a.NodeID.String(), l1Subs,
		map[string]any{"l1ValidatorFeeBalanceThreshold": threshold, "subnetIds": []string{subnet.String()}}))

	owner := message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{l.addr}}
	manager := env.Net(t).EVMChains()[1].BlockchainID // the P-chain does not check it
	tx, err = w.IssueConvertSubnetToL1Tx(subnet, manager, []byte{0xad, 0xa0, 0x33}, []*txs.ConvertSubnetToL1Validator{
		{NodeID: a.NodeID.Bytes(), Weight: weightA, Balance: balanceA, Signer: *a.PoP, RemainingBalanceOwner: owner, DeactivationOwner: owner},
		{NodeID: b.NodeID.Bytes(), Weight: weightB, Balance: balanceB, Signer: *b.PoP, RemainingBalanceOwner: owner, DeactivationOwner: owner},
	}, pOpts(ctx)...)
	require.NoError(t, err, "ConvertSubnetToL1Tx")
	convertHeight, convertTime := truth.LocatePTx(t, ctx, uri, 1, tx.ID())
	validations := convertedValidations(t, ctx, uri, tx.ID())
	va, vb := validations[a.NodeID], validations[b.NodeID]
	require.NotZero(t, uint64(truth.GetL1Validator(t, ctx, uri, vb).Balance), "B is active after the conversion")

	// Seconds later, a P block: by then the fees have taken A below the
	// threshold and run B out. The node builds a block of its own when an
	// L1 validator's balance runs out, so the first of those may come
	// before.
	time.Sleep(7 * time.Second)
	harness.NewTxIssuer(t, ctx, uri).IssueP(t, ctx, 1)
	tick := truth.GetL1Validator(t, ctx, uri, va)
	require.Less(t, uint64(tick.Balance), uint64(balanceA-5), "A's balance is below the threshold")
	require.Zero(t, uint64(truth.GetL1Validator(t, ctx, uri, vb).Balance), "B ran out")
	// Where each happened, from the node's fee state and block times:
	// with the excess at 0 every second costs an active validator the
	// minimum price, charged at each block's time advance.
	price := minL1Price(t, ctx, uri)
	crossed := func(spent uint64) (uint64, uint64) {
		for h := convertHeight + 1; h <= uint64(tick.Height); h++ {
			cost := price * uint64(truth.PBlockTime(t, truth.PBlock(t, ctx, uri, h))-convertTime)
			if cost >= spent {
				return h, cost
			}
		}
		t.Fatalf("no block after the conversion charged %d", spent)
		return 0, 0
	}
	thresholdHeight, thresholdCost := crossed(6)
	ranOutHeight, _ := crossed(balanceB)
	if thresholdHeight == uint64(tick.Height) {
		require.Equal(t, uint64(balanceA)-thresholdCost, uint64(tick.Balance), "getL1Validator at the crossing block")
	}

	const increase = 500 * units.MilliAvax
	tx, err = w.IssueIncreaseL1ValidatorBalanceTx(va, increase, pOpts(ctx)...)
	require.NoError(t, err, "IncreaseL1ValidatorBalanceTx")
	increased := truth.GetL1Validator(t, ctx, uri, va)
	increaseTx := tx.ID()
	incHeight, _ := truth.LocatePTx(t, ctx, uri, convertHeight, increaseTx)
	require.Equal(t, incHeight, uint64(increased.Height))

	tx, err = w.IssueDisableL1ValidatorTx(va, pOpts(ctx)...)
	require.NoError(t, err, "DisableL1ValidatorTx")
	disableTx := tx.ID()
	disHeight, _ := truth.LocatePTx(t, ctx, uri, incHeight, disableTx)
	refund := l1Refund(t, ctx, uri, l, disableTx, len(tx.Unsigned.(*txs.DisableL1ValidatorTx).Outs))
	require.Zero(t, uint64(truth.GetL1Validator(t, ctx, uri, va).Balance), "A disabled")

	l1Event := func(sub string, h uint64, v ids.ID, node ids.NodeID, balance, weight uint64, members map[string]any) map[string]any {
		e := withMembers(pBlockEvent(t, ctx, uri, pChainID, sub, h), map[string]any{"nodeId": node.String(),
			"subnetId": subnet.String(), "validationId": v.String(), "balance": strconv.FormatUint(balance, 10),
			"weight": strconv.FormatUint(weight, 10)})
		return withMembers(e, members)
	}
	thresholdA := l1Event("l1_validator_balance_threshold", thresholdHeight, va, a.NodeID, balanceA-thresholdCost, weightA, nil)
	ranOutB := l1Event("l1_validator_disabled", ranOutHeight, vb, b.NodeID, 0, weightB, nil)
	// In a block, the time advance's events come first, the threshold's
	// before the run-outs.
	first, second := thresholdA, ranOutB
	if ranOutHeight < thresholdHeight {
		first, second = ranOutB, thresholdA
	}
	increasedA := l1Event("l1_validator_balance_increased", incHeight, va, a.NodeID, uint64(increased.Balance), weightA,
		map[string]any{"txHash": increaseTx.String(), "txType": "IncreaseL1ValidatorBalanceTx", "amount": strconv.FormatUint(increase, 10)})
	disabledA := l1Event("l1_validator_disabled", disHeight, va, a.NodeID, refund.Amount, weightA,
		map[string]any{"txHash": disableTx.String(), "txType": "DisableL1ValidatorTx"})

	expectDeliveries(t, ctx, base, bySubnet, subnetHook["id"].(string), "validator_activity",
		[]map[string]any{first, second, increasedA, disabledA})
	expectDeliveries(t, ctx, base, byNode, nodeHook["id"].(string), "validator_activity",
		[]map[string]any{thresholdA, increasedA, disabledA})
}

// minL1Price is the L1 validator fee per second while the fee state's
// excess is 0 (platform.getValidatorFeeConfig, getValidatorFeeState).
func minL1Price(t *testing.T, ctx context.Context, uri string) uint64 {
	t.Helper()
	var config struct {
		MinPrice avajson.Uint64 `json:"minPrice"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getValidatorFeeConfig", struct{}{}, &config))
	var state struct {
		Excess avajson.Uint64 `json:"excess"`
		Price  avajson.Uint64 `json:"price"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getValidatorFeeState", struct{}{}, &state))
	require.Zero(t, uint64(state.Excess), "the L1 validator fee excess")
	require.Equal(t, uint64(config.MinPrice), uint64(state.Price))
	return uint64(state.Price)
}
