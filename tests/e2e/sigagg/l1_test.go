package sigagg

import (
	"context"
	"encoding/hex"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	platformapi "github.com/ava-labs/avalanchego/vms/platformvm/api"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// sigAggL1Conversion converts a new subnet to an L1 whose validators are
// four of the network's nodes (their own NodeIDs and BLS keys, so they are
// running and can sign), then fetches the SubnetToL1Conversion message by
// the conversion's tx hash (GET), and checks it independently: it is the
// message the P-chain stored the conversion under, and its signature
// verifies against the L1's validators at the height used. The same
// message, signed by the primary network instead (signingSubnetId, with
// the subnet ID as justification), verifies against the primary network.
// The L1 is managed from the C-chain by the EWOQ address, so that its
// manager's messages are real warp messages (sendWarpMessage) the
// primary network signs: sigAggL1ValidatorTxs registers and re-weights
// validators with them, then fetches what the P-chain signs for those txs.
func sigAggL1Conversion(t *testing.T, ctx context.Context, sn *sigAggNet) {
	uri := sn.uris[0]
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	ewoq := genesis.EWOQKey.Address()
	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq}}
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(10 * time.Millisecond)}

	w, err := primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	require.NoError(t, err)
	subnetTx, err := w.IssueCreateSubnetTx(owner, opts...)
	require.NoError(t, err, "CreateSubnetTx")
	subnetID := subnetTx.ID()
	w, err = primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{SubnetIDs: []ids.ID{subnetID}})
	require.NoError(t, err)

	var vdrs []*txs.ConvertSubnetToL1Validator
	pchainOwner := message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{ewoq}}
	for _, u := range sn.uris[1:] {
		nodeID, pop, err := info.NewClient(u).GetNodeID(ctx)
		require.NoError(t, err)
		vdrs = append(vdrs, &txs.ConvertSubnetToL1Validator{
			NodeID: nodeID.Bytes(), Weight: 100, Balance: units.Avax, Signer: *pop,
			RemainingBalanceOwner: pchainOwner, DeactivationOwner: pchainOwner,
		})
	}
	// The P-chain does not ask the manager chain to be the L1's own.
	manager := sn.evm.Address().Bytes()
	convertTx, err := w.IssueConvertSubnetToL1Tx(subnetID, sn.cChainID, manager, vdrs, opts...)
	require.NoError(t, err, "ConvertSubnetToL1Tx")
	t.Logf("subnet %s converted to an L1 by %s", subnetID, convertTx.ID())

	// The message the P-chain signs, built here from the tx, and checked
	// against the conversion ID the P-chain reports.
	data := message.SubnetToL1ConversionData{SubnetID: subnetID, ManagerChainID: sn.cChainID, ManagerAddress: manager}
	for _, v := range vdrs {
		data.Validators = append(data.Validators, message.SubnetToL1ConversionValidatorData{
			NodeID: v.NodeID, BLSPublicKey: v.Signer.PublicKey, Weight: v.Weight})
	}
	conversionID, err := message.SubnetToL1ConversionID(data)
	require.NoError(t, err)
	subnet, err := platformvm.NewClient(uri).GetSubnet(ctx, subnetID)
	require.NoError(t, err)
	require.Equal(t, conversionID, subnet.ConversionID)
	conversion, err := message.NewSubnetToL1Conversion(conversionID)
	require.NoError(t, err)
	call, err := payload.NewAddressedCall(nil, conversion.Bytes())
	require.NoError(t, err)
	want, err := avalancheWarp.NewUnsignedMessage(88888, constants.PlatformChainID, call.Bytes())
	require.NoError(t, err)

	// Until the proposed P-chain height reaches the conversion, the L1 has
	// no validator set there: 404.
	url := sn.url + "/" + convertTx.ID().String()
	var r harness.Reply
	deadline := time.Now().Add(2 * time.Minute)
	for {
		start := time.Now()
		r = harness.Get(t, ctx, url)
		if r.Status == http.StatusOK {
			t.Logf("GET by ConvertSubnetToL1Tx hash answered in %v", time.Since(start))
			break
		}
		require.Equal(t, http.StatusNotFound, r.Status, "%s", r.Body)
		require.Contains(t, string(r.Body), "has no validators")
		require.True(t, time.Now().Before(deadline), "the L1's validator set never reached the proposed height: %s", r.Body)
		time.Sleep(time.Second)
	}
	require.Equal(t, subnetID.String(), r.Header.Get("X-Signing-Subnet-Id"))
	signed := sn.verifyAgainst(t, ctx, r, want, subnetID, 67)
	require.GreaterOrEqual(t, signed, 3)

	// Signed by the primary network instead.
	r = sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(want.Bytes()),
		"justification": hex.EncodeToString(subnetID[:]), "signingSubnetId": constants.PrimaryNetworkID.String()})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sn.verifyAgainst(t, ctx, r, want, constants.PrimaryNetworkID, 67)

	// A tx that has no L1 warp message, and one that is not a P-chain tx.
	harness.RequireErrorBody(t, harness.Get(t, ctx, sn.url+"/"+subnetID.String()), http.StatusBadRequest, "CreateSubnetTx")
	harness.RequireErrorBody(t, harness.Get(t, ctx, sn.url+"/"+ids.GenerateTestID().String()), http.StatusNotFound, "not a committed P-chain transaction")

	t.Run("ValidatorTxsByTxHash", func(t *testing.T) {
		sigAggL1ValidatorTxs(t, ctx, sn, &sigAggL1{subnetID: subnetID, wallet: w, opts: opts, owner: pchainOwner})
	})
}

// verifyAgainst checks a 200 reply against subnetID's validators at the
// height the reply names, read from another node; it returns the signers.
func (sn *sigAggNet) verifyAgainst(t *testing.T, ctx context.Context, r harness.Reply, msg *avalancheWarp.UnsignedMessage,
	subnetID ids.ID, quorum uint64,
) int {
	t.Helper()
	signed := signedMessage(t, r)
	require.Equal(t, msg.Bytes(), signed.UnsignedMessage.Bytes())
	height, err := strconv.ParseUint(r.Header.Get("X-Pchain-Height"), 10, 64)
	require.NoError(t, err)
	vdrs, err := platformvm.NewClient(sn.uris[1]).GetValidatorsAt(ctx, subnetID, platformapi.Height(height))
	require.NoError(t, err)
	set, err := validators.FlattenValidatorSet(vdrs)
	require.NoError(t, err)
	require.NoError(t, signed.Signature.Verify(&signed.UnsignedMessage, 88888, set, quorum, 100),
		"verifies against subnet %s at P-chain height %d", subnetID, height)
	n, err := signed.Signature.NumSigners()
	require.NoError(t, err)
	return n
}

// signedMessage is the signed warp message of a 200 reply.
func signedMessage(t *testing.T, r harness.Reply) *avalancheWarp.Message {
	t.Helper()
	var body struct {
		SignedMessage string `json:"signedMessage"`
	}
	r.Decode(t, &body)
	raw, err := hex.DecodeString(body.SignedMessage)
	require.NoError(t, err)
	signed, err := avalancheWarp.ParseMessage(raw)
	require.NoError(t, err)
	return signed
}
