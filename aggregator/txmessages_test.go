package aggregator

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	pchainsigner "github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/stretchr/testify/require"
)

type fakeTxSource map[ids.ID]*txs.Tx

func (f fakeTxSource) committedTx(_ context.Context, txID ids.ID) (*txs.Tx, error) {
	tx, ok := f[txID]
	if !ok {
		return nil, newError(KindNotFound, "transaction %s is not committed", txID)
	}
	return tx, nil
}

func (fakeTxSource) l1Validator(context.Context, ids.ID) (l1ValidatorState, bool, error) {
	return l1ValidatorState{}, false, nil
}

func (fakeTxSource) subnetOf(_ context.Context, chainID ids.ID) (ids.ID, error) {
	return ids.Empty, newError(KindNotFound, "unknown chain %s", chainID)
}

func (fakeTxSource) validationCreator(ctx context.Context, validationID ids.ID) (*txs.Tx, error) {
	return platformTxSource{}.validationCreator(ctx, validationID)
}

func TestConversionMessage(t *testing.T) {
	sk, err := localsigner.New()
	require.NoError(t, err)
	pop, err := pchainsigner.NewProofOfPossession(sk)
	require.NoError(t, err)
	nodeID := ids.GenerateTestNodeID()
	convert := &txs.ConvertSubnetToL1Tx{
		Subnet: ids.GenerateTestID(), ChainID: ids.GenerateTestID(), Address: []byte{0xad, 0xa0},
		Validators: []*txs.ConvertSubnetToL1Validator{{NodeID: nodeID.Bytes(), Weight: 100, Balance: 5, Signer: *pop}},
		SubnetAuth: &secp256k1fx.Input{},
	}
	tx := &txs.Tx{Unsigned: convert}
	require.NoError(t, tx.Initialize(txs.Codec))

	req, err := txMessage(context.Background(), 88888, fakeTxSource{}, tx)
	require.NoError(t, err)
	require.Equal(t, convert.Subnet, req.SigningSubnetID)
	require.True(t, req.HasSigningSubnetID)
	require.Equal(t, convert.Subnet[:], req.Justification)
	require.Equal(t, uint64(txQuorumPercentage), req.QuorumPercentage)

	// From the P-chain, an empty source address, the ID of the data the
	// P-chain stores for the conversion.
	unsigned, err := parseUnsigned(req.Message)
	require.NoError(t, err)
	require.Equal(t, uint32(88888), unsigned.NetworkID)
	require.Equal(t, constants.PlatformChainID, unsigned.SourceChainID)
	call, err := payload.ParseAddressedCall(unsigned.Payload)
	require.NoError(t, err)
	require.Empty(t, call.SourceAddress)
	conversion, err := message.ParseSubnetToL1Conversion(call.Payload)
	require.NoError(t, err)
	wantID, err := message.SubnetToL1ConversionID(message.SubnetToL1ConversionData{
		SubnetID: convert.Subnet, ManagerChainID: convert.ChainID, ManagerAddress: convert.Address,
		Validators: []message.SubnetToL1ConversionValidatorData{{NodeID: nodeID.Bytes(), BLSPublicKey: pop.PublicKey, Weight: 100}},
	})
	require.NoError(t, err)
	require.Equal(t, wantID, conversion.ID)
}

func TestAggregateForTx(t *testing.T) {
	n := newFakeNetwork(t, 100)
	a, _, _ := newTestAggregator(t, n)
	other := &txs.Tx{Unsigned: &txs.CreateSubnetTx{Owner: &secp256k1fx.OutputOwners{}}}
	require.NoError(t, other.Initialize(txs.Codec))
	a.txs = fakeTxSource{other.ID(): other}

	_, err := a.AggregateForTx(context.Background(), ids.GenerateTestID())
	require.Equal(t, KindNotFound, KindOf(err), "%v", err)
	_, err = a.AggregateForTx(context.Background(), other.ID())
	require.Equal(t, KindInvalidRequest, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "is a CreateSubnetTx, which has no P-chain L1 warp message")
}

func parseUnsigned(b []byte) (*warp.UnsignedMessage, error) { return warp.ParseUnsignedMessage(b) }
