package webhooks

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
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
// 5 nAVAX below A's initial balance. A P block some seconds later takes A
// below the threshold and runs B out (no tx); L tops A up and disables
// it. Each webhook gets exactly the events the node's data gives
// (platform.getL1Validator at each block's height, the disable's refund
// UTXO), each once, in chain order, signed as the SDK verifies.
//
// A SetL1ValidatorWeightTx to 0 (l1_validator_removed) needs a warp
// message the single-node network's P-chain cannot verify (sybil
// protection off: see the primary tests' L1 scenario); the store's tests
// cover it.
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
	convertHeight, _ := truth.LocatePTx(t, ctx, uri, 1, tx.ID())
	va, vb := subnet.Append(0), subnet.Append(1)
	afterConvert := truth.GetL1Validator(t, ctx, uri, vb)
	require.Equal(t, convertHeight, uint64(afterConvert.Height), "no P block after the conversion yet")
	require.NotZero(t, uint64(afterConvert.Balance), "B is active after the conversion")

	// Seconds later, one P block: its time advance takes A below the
	// threshold and runs B out.
	time.Sleep(7 * time.Second)
	harness.NewTxIssuer(t, ctx, uri).IssueP(t, ctx, 1)
	tick := truth.GetL1Validator(t, ctx, uri, va)
	require.Equal(t, convertHeight+1, uint64(tick.Height), "one P block after the conversion")
	require.Less(t, uint64(tick.Balance), uint64(balanceA-5), "A's balance is below the threshold")
	ranOut := truth.GetL1Validator(t, ctx, uri, vb)
	require.Equal(t, uint64(tick.Height), uint64(ranOut.Height))
	require.Zero(t, uint64(ranOut.Balance), "B ran out")

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
	// The refund is (txID, len(Outs)), as platform.getUTXOs shows it.
	refundID := disableTx.Prefix(uint64(len(tx.Unsigned.(*txs.DisableL1ValidatorTx).Outs)))
	var refund *truth.UTXO
	for _, u := range truth.UTXOs(t, ctx, uri, "P", "", "P-"+l.bech32) {
		if u.ID == refundID {
			refund = &u
		}
	}
	require.NotNil(t, refund, "the disable's refund UTXO %s", refundID)
	require.Zero(t, uint64(truth.GetL1Validator(t, ctx, uri, va).Balance), "A disabled")

	l1Event := func(sub string, h uint64, v ids.ID, node ids.NodeID, balance, weight uint64, members map[string]any) map[string]any {
		e := withMembers(pBlockEvent(t, ctx, uri, pChainID, sub, h), map[string]any{"nodeId": node.String(),
			"subnetId": subnet.String(), "validationId": v.String(), "balance": strconv.FormatUint(balance, 10),
			"weight": strconv.FormatUint(weight, 10)})
		return withMembers(e, members)
	}
	thresholdA := l1Event("l1_validator_balance_threshold", uint64(tick.Height), va, a.NodeID, uint64(tick.Balance), weightA, nil)
	ranOutB := l1Event("l1_validator_disabled", uint64(tick.Height), vb, b.NodeID, 0, weightB, nil)
	increasedA := l1Event("l1_validator_balance_increased", incHeight, va, a.NodeID, uint64(increased.Balance), weightA,
		map[string]any{"txHash": increaseTx.String(), "txType": "IncreaseL1ValidatorBalanceTx", "amount": strconv.FormatUint(increase, 10)})
	disabledA := l1Event("l1_validator_disabled", disHeight, va, a.NodeID, refund.Amount, weightA,
		map[string]any{"txHash": disableTx.String(), "txType": "DisableL1ValidatorTx"})

	expectDeliveries(t, ctx, bySubnet, subnetHook["id"].(string), "validator_activity",
		[]map[string]any{thresholdA, ranOutB, increasedA, disabledA})
	expectDeliveries(t, ctx, byNode, nodeHook["id"].(string), "validator_activity",
		[]map[string]any{thresholdA, increasedA, disabledA})
}
