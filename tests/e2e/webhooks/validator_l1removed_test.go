package webhooks

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/chaincreate"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/vm"
)

// TestWebhooksValidatorL1Removed: l1_validator_removed needs a warp
// message the P-chain verifies, so it runs on the 2-node network (sybil
// protection on). A fresh key L creates a subnet and a chain on it (the
// L1's manager: the P-chain maps a warp message's source chain to its
// subnet), converts it to an L1 with validators A (weight 100) and C
// (weight 1), and removes C with a SetL1ValidatorWeightTx to 0 signed by A
// alone. A validator_activity webhook by the subnet ID gets exactly that
// event, with the balance the node refunded (platform.getUTXOs), once,
// signed as the SDK verifies.
func TestWebhooksValidatorL1Removed(t *testing.T) {
	sn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	uri, base := sn.URI, sn.Base
	x := harness.NewTxIssuer(t, ctx, uri)
	networkID := x.Wallet.P().Builder().Context().NetworkID
	pChainID := blockchainID(t, ctx, uri, "P")
	l := newPKeyOn(t, constants.GetHRP(networkID))
	fundOnP(t, ctx, uri, map[*pKey]uint64{l: 20 * units.Avax})
	x = harness.NewTxIssuer(t, ctx, uri) // EWOQ's wallet after the funding spent its UTXO
	tx, err := l.wallet(t, ctx, uri).IssueCreateSubnetTx(l.owner(), pOpts(ctx)...)
	require.NoError(t, err, "CreateSubnetTx")
	subnet := tx.ID()
	w := l.wallet(t, ctx, uri, subnet)
	tx, err = w.IssueCreateChainTx(subnet, chaincreate.DefaultGenesis(), vm.ID, nil, "avadatawhl1", pOpts(ctx)...)
	require.NoError(t, err, "CreateChainTx")
	manager, managerAddress := tx.ID(), []byte{0xad, 0xa0, 0x44}

	r := harness.NewWebhookReceiver(t)
	hook := harness.CreateWebhook(t, ctx, base, validatorHookRequest(r.URL, "subnetId", subnet.String(),
		[]string{"l1_validator_removed", "l1_validator_disabled"}, nil))

	a, c := harness.NewBLSValidator(t), harness.NewBLSValidator(t)
	owner := message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{l.addr}}
	tx, err = w.IssueConvertSubnetToL1Tx(subnet, manager, managerAddress, []*txs.ConvertSubnetToL1Validator{
		{NodeID: a.NodeID.Bytes(), Weight: 100, Balance: units.Avax, Signer: *a.PoP, RemainingBalanceOwner: owner, DeactivationOwner: owner},
		{NodeID: c.NodeID.Bytes(), Weight: 1, Balance: units.Avax, Signer: *c.PoP, RemainingBalanceOwner: owner, DeactivationOwner: owner},
	}, pOpts(ctx)...)
	require.NoError(t, err, "ConvertSubnetToL1Tx")
	convertHeight, _ := truth.LocatePTx(t, ctx, uri, 1, tx.ID())
	vc := convertedValidations(t, ctx, uri, tx.ID())[c.NodeID]
	harness.WaitWarpHeight(t, ctx, uri, x, convertHeight)

	// A's bit: the canonical set sorts the validators by their
	// uncompressed BLS public keys.
	index := 0
	if bytes.Compare(bls.PublicKeyToUncompressedBytes(c.Signer.PublicKey()), bls.PublicKeyToUncompressedBytes(a.Signer.PublicKey())) < 0 {
		index = 1
	}
	tx = harness.IssueWarpTx(t, ctx, uri, x, "SetL1ValidatorWeightTx (remove C)", func(attempt uint64) (*txs.Tx, error) {
		msg, err := message.NewL1ValidatorWeight(vc, attempt, 0)
		require.NoError(t, err)
		return w.IssueSetL1ValidatorWeightTx(harness.SignL1Warp(t, networkID, manager, managerAddress, a.Signer, index, msg.Bytes()),
			pOpts(ctx)...)
	})
	removeTx := tx.ID()
	h, _ := truth.LocatePTx(t, ctx, uri, convertHeight, removeTx)
	refund := l1Refund(t, ctx, uri, l, removeTx, len(tx.Unsigned.(*txs.SetL1ValidatorWeightTx).Outs))

	want := withMembers(pBlockEvent(t, ctx, uri, pChainID, "l1_validator_removed", h), map[string]any{
		"txHash": removeTx.String(), "txType": "SetL1ValidatorWeightTx", "nodeId": c.NodeID.String(), "subnetId": subnet.String(),
		"validationId": vc.String(), "balance": strconv.FormatUint(refund.Amount, 10), "weight": "0"})
	expectDeliveries(t, ctx, base, r, hook["id"].(string), "validator_activity", []map[string]any{want})
}
