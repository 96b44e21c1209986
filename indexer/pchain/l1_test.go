package pchain

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"

	"github.com/avadata/avadata/indexer/pdata"
)

// warpMessage wraps an L1 message the way an L1's validator manager sends
// it: an addressed call in a warp message (the signature is irrelevant to
// decoding).
func warpMessage(t *testing.T, msg []byte) []byte {
	t.Helper()
	call, err := payload.NewAddressedCall([]byte("validator-manager"), msg)
	require.NoError(t, err)
	unsigned, err := warp.NewUnsignedMessage(constants.UnitTestID, ids.GenerateTestID(), call.Bytes())
	require.NoError(t, err)
	m, err := warp.NewMessage(unsigned, &warp.BitSetSignature{})
	require.NoError(t, err)
	return m.Bytes()
}

func newPoP(t *testing.T) *signer.ProofOfPossession {
	t.Helper()
	sk, err := localsigner.New()
	require.NoError(t, err)
	pop, err := signer.NewProofOfPossession(sk)
	require.NoError(t, err)
	return pop
}

func TestDecodeConvertSubnetToL1Tx(t *testing.T) {
	w := newTestWallet(t)
	chainID := ids.GenerateTestID()
	var vdrs []*txs.ConvertSubnetToL1Validator
	for i := range 2 {
		nodeID := ids.GenerateTestNodeID()
		vdrs = append(vdrs, &txs.ConvertSubnetToL1Validator{
			NodeID:                nodeID.Bytes(),
			Weight:                uint64(10 + i),
			Balance:               units.Avax,
			Signer:                *newPoP(t),
			RemainingBalanceOwner: message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{w.keys[2].Address()}},
			DeactivationOwner:     message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{w.keys[3].Address()}},
		})
	}
	tx := w.sign(w.builder.NewConvertSubnetToL1Tx(testSubnetID, chainID, []byte{0xab, 0xcd}, vdrs))
	d := w.decode(tx)
	utx := tx.Unsigned.(*txs.ConvertSubnetToL1Tx)
	require.Equal(t, "ConvertSubnetToL1Tx", d.Type)
	requireBase(t, w, d, &utx.BaseTx.BaseTx)
	require.Equal(t, testSubnetID, d.Subnet)
	require.Equal(t, &pdata.L1Manager{BlockchainID: chainID, Address: []byte{0xab, 0xcd}}, d.L1Manager)
	require.Len(t, d.L1Validators, 2)
	// The builder sorts the validators; the validation IDs follow the
	// order in the tx.
	for i, v := range utx.Validators {
		got := d.L1Validators[i]
		require.Equal(t, testSubnetID.Append(uint32(i)), got.ValidationID)
		require.Equal(t, []byte(v.NodeID), got.NodeID.Bytes())
		require.Equal(t, v.Weight, got.Weight)
		require.Equal(t, v.Balance, got.Balance)
		require.Equal(t, v.Signer.PublicKey[:], got.BLSPublicKey)
		require.Equal(t, v.Signer.ProofOfPossession[:], got.BLSProofOfPossession)
		require.Equal(t, []ids.ShortID{w.keys[2].Address()}, got.RemainingBalanceOwner.Addrs)
		require.Equal(t, []ids.ShortID{w.keys[3].Address()}, got.DeactivationOwner.Addrs)
	}
}

func TestDecodeRegisterL1ValidatorTx(t *testing.T) {
	w := newTestWallet(t)
	pop := newPoP(t)
	nodeID := ids.GenerateTestNodeID()
	msg, err := message.NewRegisterL1Validator(testSubnetID, nodeID, pop.PublicKey, 1_900_000_000,
		message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{w.keys[2].Address()}},
		message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{w.keys[3].Address()}},
		77)
	require.NoError(t, err)
	tx := w.sign(w.builder.NewRegisterL1ValidatorTx(5*units.Avax, pop.ProofOfPossession, warpMessage(t, msg.Bytes())))
	d := w.decode(tx)
	require.Equal(t, "RegisterL1ValidatorTx", d.Type)
	require.Equal(t, msg.ValidationID(), d.ValidationID)
	require.Equal(t, testSubnetID, d.Subnet)
	require.Equal(t, []pdata.L1Validator{{
		ValidationID:          msg.ValidationID(),
		NodeID:                nodeID,
		Subnet:                testSubnetID,
		Weight:                77,
		Balance:               5 * units.Avax,
		BLSPublicKey:          pop.PublicKey[:],
		BLSProofOfPossession:  pop.ProofOfPossession[:],
		RemainingBalanceOwner: &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{w.keys[2].Address()}},
		DeactivationOwner:     &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{w.keys[3].Address()}},
	}}, d.L1Validators)
}

func TestDecodeL1ValidatorLifecycleTxs(t *testing.T) {
	w := newTestWallet(t)
	msg, err := message.NewL1ValidatorWeight(testValidationID, 3, 0)
	require.NoError(t, err)
	tx := w.sign(w.builder.NewSetL1ValidatorWeightTx(warpMessage(t, msg.Bytes())))
	d := w.decode(tx)
	require.Equal(t, "SetL1ValidatorWeightTx", d.Type)
	require.Equal(t, testValidationID, d.ValidationID)
	require.Equal(t, []pdata.L1Validator{{ValidationID: testValidationID, Weight: 0}}, d.L1Validators)

	tx = w.sign(w.builder.NewIncreaseL1ValidatorBalanceTx(testValidationID, 3*units.Avax))
	d = w.decode(tx)
	require.Equal(t, "IncreaseL1ValidatorBalanceTx", d.Type)
	require.Equal(t, testValidationID, d.ValidationID)
	require.Equal(t, []pdata.L1Validator{{ValidationID: testValidationID, BalanceChange: 3 * units.Avax}}, d.L1Validators)

	tx = w.sign(w.builder.NewDisableL1ValidatorTx(testValidationID))
	d = w.decode(tx)
	utx := tx.Unsigned.(*txs.DisableL1ValidatorTx)
	require.Equal(t, "DisableL1ValidatorTx", d.Type)
	requireBase(t, w, d, &utx.BaseTx.BaseTx)
	require.Equal(t, testValidationID, d.ValidationID)
	require.Equal(t, []pdata.L1Validator{{ValidationID: testValidationID}}, d.L1Validators)
}

func TestDecodeL1TxRejectsBadWarpMessage(t *testing.T) {
	w := newTestWallet(t)
	msg, err := message.NewL1ValidatorWeight(testValidationID, 3, 0)
	require.NoError(t, err)
	utx, err := w.builder.NewSetL1ValidatorWeightTx(warpMessage(t, msg.Bytes()))
	require.NoError(t, err)
	// The builder refuses a bad message: corrupt it after building.
	utx.Message = []byte("not a warp message")
	tx := w.sign(utx, nil)
	_, err = DecodeTx(tx.Bytes())
	require.ErrorContains(t, err, "parsing warp message")
}
