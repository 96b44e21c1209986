package sigagg

import (
	"context"
	"encoding/hex"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/proto/pb/platformvm"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// sigAggL1 is the L1 sigAggL1Conversion made: managed by EWOQ on the
// C-chain, validated by four of the network's nodes.
type sigAggL1 struct {
	subnetID ids.ID
	wallet   wallet.Wallet // EWOQ's, knowing the subnet
	opts     []common.Option
	owner    message.PChainOwner
}

// sigAggL1ValidatorTxsWeight is the registered validator's weight: it runs
// on no node, so it must stay well below a third of the L1's 400.
const sigAggL1ValidatorTxsWeight = 10

// sigAggL1ValidatorTxs registers a validator on the L1, re-weights it
// twice and removes it, each authorized by a message the manager sends
// through sendWarpMessage and the aggregator has the primary network sign
// (the P-chain verifies a manager message against its source chain's
// subnet). After each tx, GET by its hash must return what the P-chain now
// signs for it, signed by the L1's validators and verified against them
// at the height returned; the same message signed by the primary network
// (POST with signingSubnetId) verifies against the primary network. A
// weight change a later one superseded, or made to a validator removed
// since, is a 400 saying why. A removal's GET returns
// L1ValidatorRegistration(false), justified by the tx that created the
// validation, which the plugin finds in its P-chain index: the
// RegisterL1ValidatorTx, or the conversion (whose L1 a C-chain manager's
// message does not name).
func sigAggL1ValidatorTxs(t *testing.T, ctx context.Context, sn *sigAggNet, l1 *sigAggL1) {
	v := harness.NewBLSValidator(t)
	register, err := message.NewRegisterL1Validator(l1.subnetID, v.NodeID,
		[bls.PublicKeyLen]byte(bls.PublicKeyToCompressedBytes(v.Signer.PublicKey())),
		uint64(time.Now().Add(time.Hour).Unix()), l1.owner, l1.owner, sigAggL1ValidatorTxsWeight)
	require.NoError(t, err)
	validationID := register.ValidationID()
	registerTx, err := l1.wallet.IssueRegisterL1ValidatorTx(units.Avax, v.PoP.ProofOfPossession,
		sn.managerMessage(t, ctx, register.Bytes()), l1.opts...)
	require.NoError(t, err, "RegisterL1ValidatorTx")
	t.Logf("validator %s registered by %s", validationID, registerTx.ID())

	registered, err := message.NewL1ValidatorRegistration(validationID, true)
	require.NoError(t, err)
	sn.requireTxMessage(t, ctx, registerTx.ID(), l1.subnetID, pchainWarp(t, registered), nil)

	setWeightOf := func(validationID ids.ID, nonce, weight uint64) *txs.Tx {
		t.Helper()
		msg, err := message.NewL1ValidatorWeight(validationID, nonce, weight)
		require.NoError(t, err)
		tx, err := l1.wallet.IssueSetL1ValidatorWeightTx(sn.managerMessage(t, ctx, msg.Bytes()), l1.opts...)
		require.NoError(t, err, "SetL1ValidatorWeightTx nonce %d weight %d", nonce, weight)
		t.Logf("validator %s: weight %d (nonce %d) by %s", validationID, weight, nonce, tx.ID())
		return tx
	}
	setWeight := func(nonce, weight uint64) *txs.Tx { return setWeightOf(validationID, nonce, weight) }
	ack := func(nonce, weight uint64) *avalancheWarp.UnsignedMessage {
		msg, err := message.NewL1ValidatorWeight(validationID, nonce, weight)
		require.NoError(t, err)
		return pchainWarp(t, msg)
	}

	first := setWeight(0, 2*sigAggL1ValidatorTxsWeight)
	sn.requireTxMessage(t, ctx, first.ID(), l1.subnetID, ack(0, 2*sigAggL1ValidatorTxsWeight), nil)
	second := setWeight(1, 3*sigAggL1ValidatorTxsWeight)
	harness.RequireErrorBody(t, harness.Get(t, ctx, sn.url+"/"+first.ID().String()), http.StatusBadRequest,
		"superseded by a later weight change (the P-chain now has weight 30, minNonce 2)")
	sn.requireTxMessage(t, ctx, second.ID(), l1.subnetID, ack(1, 3*sigAggL1ValidatorTxsWeight), nil)

	// Removed: the P-chain now signs L1ValidatorRegistration(false),
	// justified by the registration message, which the removal does not
	// carry: its GET finds the RegisterL1ValidatorTx in the plugin's P-chain
	// index. The registration's GET yields the same message.
	removal := setWeight(2, 0)
	harness.RequireErrorBody(t, harness.Get(t, ctx, sn.url+"/"+second.ID().String()), http.StatusBadRequest, "has since been removed")
	unregistered, err := message.NewL1ValidatorRegistration(validationID, false)
	require.NoError(t, err)
	justification, err := proto.Marshal(&platformvm.L1ValidatorRegistrationJustification{
		Preimage: &platformvm.L1ValidatorRegistrationJustification_RegisterL1ValidatorMessage{
			RegisterL1ValidatorMessage: register.Bytes(),
		},
	})
	require.NoError(t, err)
	r := sn.requireTxMessage(t, ctx, removal.ID(), l1.subnetID, pchainWarp(t, unregistered), justification)
	requireUnregistered(t, r, validationID)
	sn.requireTxMessage(t, ctx, registerTx.ID(), l1.subnetID, pchainWarp(t, unregistered), justification)

	// The removal of a conversion's validator is justified by the subnet
	// and its index; with the manager on the C-chain the removal does not
	// name the L1, the conversion the index finds does.
	const index = 3
	converted := l1.subnetID.Append(index)
	removal = setWeightOf(converted, 0, 0)
	unregistered, err = message.NewL1ValidatorRegistration(converted, false)
	require.NoError(t, err)
	justification, err = proto.Marshal(&platformvm.L1ValidatorRegistrationJustification{
		Preimage: &platformvm.L1ValidatorRegistrationJustification_ConvertSubnetToL1TxData{
			ConvertSubnetToL1TxData: &platformvm.SubnetIDIndex{SubnetId: l1.subnetID[:], Index: index},
		},
	})
	require.NoError(t, err)
	r = sn.requireTxMessage(t, ctx, removal.ID(), l1.subnetID, pchainWarp(t, unregistered), justification)
	requireUnregistered(t, r, converted)
}

// requireUnregistered checks that a 200 reply's signed message is the
// P-chain's L1ValidatorRegistration(validationID, false).
func requireUnregistered(t *testing.T, r harness.Reply, validationID ids.ID) {
	t.Helper()
	signed := signedMessage(t, r)
	require.Equal(t, constants.PlatformChainID, signed.SourceChainID)
	call, err := payload.ParseAddressedCall(signed.Payload)
	require.NoError(t, err)
	require.Empty(t, call.SourceAddress)
	registration, err := message.ParseL1ValidatorRegistration(call.Payload)
	require.NoError(t, err)
	require.Equal(t, validationID, registration.ValidationID)
	require.False(t, registration.Registered)
}

// managerMessage sends payload from the L1's manager (EWOQ on the C-chain)
// through sendWarpMessage and returns it signed by the primary network,
// aggregated by the plugin (POST).
func (sn *sigAggNet) managerMessage(t *testing.T, ctx context.Context, msg []byte) []byte {
	t.Helper()
	tx, err := evmtest.WarpTx(msg)
	require.NoError(t, err)
	receipt, err := sn.evm.SendAndWait(ctx, tx)
	require.NoError(t, err)
	unsigned, err := evmtest.WarpMessage(receipt)
	require.NoError(t, err)
	r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(unsigned.Bytes())})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var body struct {
		SignedMessage string `json:"signedMessage"`
	}
	r.Decode(t, &body)
	signed, err := hex.DecodeString(body.SignedMessage)
	require.NoError(t, err)
	return signed
}

// requireTxMessage GETs txID's message: it must be want, signed by the
// L1 and verified against its validators at the height returned. The
// validators may not all have accepted the tx's block when the node that
// issued it has; those refuse at first, so a refusal is asked again for a
// while (and so is a 404 of an index that has not reached the tx a
// message needs yet). want, with justification, signed by the primary
// network instead, must verify against the primary network. It returns
// the GET's reply.
func (sn *sigAggNet) requireTxMessage(t *testing.T, ctx context.Context, txID, l1 ids.ID,
	want *avalancheWarp.UnsignedMessage, justification []byte,
) harness.Reply {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var r harness.Reply
	for {
		start := time.Now()
		r = harness.Get(t, ctx, sn.url+"/"+txID.String())
		if r.Status == http.StatusOK {
			t.Logf("GET %s answered in %v", txID, time.Since(start))
			break
		}
		require.True(t, time.Now().Before(deadline), "GET %s: %d %s", txID, r.Status, r.Body)
		t.Logf("GET %s: %d %s; asking again", txID, r.Status, r.Body)
		time.Sleep(time.Second)
	}
	require.Equal(t, l1.String(), r.Header.Get("X-Signing-Subnet-Id"))
	sn.verifyAgainst(t, ctx, r, want, l1, 67)

	body := map[string]any{"message": hex.EncodeToString(want.Bytes()), "signingSubnetId": constants.PrimaryNetworkID.String()}
	if justification != nil {
		body["justification"] = hex.EncodeToString(justification)
	}
	primary := sn.aggregate(t, ctx, body)
	require.Equal(t, http.StatusOK, primary.Status, "%s", primary.Body)
	sn.verifyAgainst(t, ctx, primary, want, constants.PrimaryNetworkID, 67)
	return r
}

// pchainWarp is msg as the P-chain sends it.
func pchainWarp(t *testing.T, msg message.Payload) *avalancheWarp.UnsignedMessage {
	t.Helper()
	call, err := payload.NewAddressedCall(nil, msg.Bytes())
	require.NoError(t, err)
	unsigned, err := avalancheWarp.NewUnsignedMessage(88888, constants.PlatformChainID, call.Bytes())
	require.NoError(t, err)
	return unsigned
}
