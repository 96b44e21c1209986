package aggregator

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	pnetwork "github.com/ava-labs/avalanchego/vms/platformvm/network"
	pchainsigner "github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/state"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
)

// The GET of a removal (SetL1ValidatorWeightTx, weight 0) finds the tx
// that created the validation in the plugin's P-chain index (here a fake
// one holding the txs' signed bytes) and builds the justification from
// it; the P-chain's own signature handler (pchain, validatormessages_test)
// decides whether that is what it signs.

// fakeIndex is the plugin's P-chain index: the signed txs that created
// validations, up to a P-chain height.
type fakeIndex struct {
	height   uint64
	creators map[ids.ID][]byte
}

func (f *fakeIndex) ValidationCreator(_ context.Context, validationID ids.ID) (ValidationLookup, error) {
	return ValidationLookup{SignedTx: f.creators[validationID], IndexedHeight: f.height}, nil
}

// indexedRequest is the request the GET of tx builds with the index.
func (p *pchain) indexedRequest(index *fakeIndex, tx *txs.Tx) (Request, error) {
	return txMessage(context.Background(), testNetworkID, indexedTxSource{pchainState: p, index: index}, tx)
}

// weightTx commits the SetL1ValidatorWeightTx that sets validationID's
// weight, sent by l1's manager.
func (p *pchain) weightTx(l1 *testL1, validationID ids.ID, nonce, weight uint64) *txs.Tx {
	msg, err := message.NewL1ValidatorWeight(validationID, nonce, weight)
	require.NoError(p.t, err)
	return p.commit(&txs.SetL1ValidatorWeightTx{Message: l1.managerMessage(p.t, msg.Bytes())})
}

func TestRemovalOfRegisteredValidator(t *testing.T) {
	p := newPChain(t)
	l1 := p.newL1()
	vID, registerTx := p.registerValidator(l1, 40)
	reweight := p.weightTx(l1, vID, 0, 50)
	p.putValidator(l1, vID, 50, 1)
	removal := p.weightTx(l1, vID, 1, 0)
	p.putValidator(l1, vID, 0, 0)

	// The index has not reached the registration yet: a 404 that says so.
	index := &fakeIndex{height: 7, creators: map[ids.ID][]byte{}}
	_, err := p.indexedRequest(index, removal)
	require.Equal(t, KindNotFound, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "this node's P-chain index (through P-chain height 7) holds no transaction that created it")
	require.ErrorContains(t, err, "try again shortly")

	// Once it has: L1ValidatorRegistration(false), justified by the
	// registration's message, signed by the L1; the P-chain signs it.
	index.creators[vID] = registerTx.Bytes()
	req, err := p.indexedRequest(index, removal)
	require.NoError(t, err)
	require.Equal(t, l1.subnetID, req.SigningSubnetID)
	require.True(t, req.HasSigningSubnetID)
	require.Equal(t, uint64(txQuorumPercentage), req.QuorumPercentage)
	p.requireSignedRemoval(req, vID)

	// The registration's GET gives the same request.
	viaRegister, err := p.indexedRequest(index, registerTx)
	require.NoError(t, err)
	require.Equal(t, req, viaRegister)

	// The weight change before the removal: the P-chain refuses its ack
	// now, and the GET says what it signs instead.
	ack, err := message.NewL1ValidatorWeight(vID, 0, 50)
	require.NoError(t, err)
	ackMsg, err := pchainMessage(testNetworkID, ack.Bytes())
	require.NoError(t, err)
	require.Equal(t, int32(pnetwork.ErrValidationDoesNotExist), p.ask(l1Request(ackMsg, nil, l1.subnetID)).code)
	_, err = p.indexedRequest(index, reweight)
	require.Equal(t, KindInvalidRequest, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "has since been removed")
	require.ErrorContains(t, err, "only L1ValidatorRegistration(false)")
}

// A conversion's validator of an L1 managed from a chain outside it (the
// C-chain, say): the removal's source chain does not name the L1, the
// index's conversion tx does.
func TestRemovalOfConversionValidatorManagedOutside(t *testing.T) {
	p := newPChain(t)
	l1 := &testL1{subnetID: ids.GenerateTestID(), chainID: ids.GenerateTestID()}
	p.chains[l1.chainID] = constants.PrimaryNetworkID
	p.state.SetSubnetToL1Conversion(l1.subnetID, state.SubnetToL1Conversion{
		ConversionID: ids.GenerateTestID(), ChainID: l1.chainID, Addr: []byte{0xad, 0xa0}})
	convert := &txs.ConvertSubnetToL1Tx{Subnet: l1.subnetID, ChainID: l1.chainID, Address: []byte{0xad, 0xa0},
		SubnetAuth: &secp256k1fx.Input{}}
	for range 3 {
		sk, err := localsigner.New()
		require.NoError(t, err)
		pop, err := pchainsigner.NewProofOfPossession(sk)
		require.NoError(t, err)
		convert.Validators = append(convert.Validators, &txs.ConvertSubnetToL1Validator{
			NodeID: ids.GenerateTestNodeID().Bytes(), Weight: 100, Balance: 1, Signer: *pop})
	}
	convertTx := p.commit(convert)
	vID := l1.subnetID.Append(2)
	p.putValidator(l1, vID, 100, 0)
	removal := p.weightTx(l1, vID, 0, 0)
	p.putValidator(l1, vID, 0, 0)

	_, err := p.request(removal)
	require.Equal(t, KindNotFound, KindOf(err), "without an index: %v", err)
	require.ErrorContains(t, err, "this node keeps no index of the P-chain")

	index := &fakeIndex{height: 3, creators: map[ids.ID][]byte{vID: convertTx.Bytes()}}
	req, err := p.indexedRequest(index, removal)
	require.NoError(t, err)
	require.Equal(t, l1.subnetID, req.SigningSubnetID)
	p.requireSignedRemoval(req, vID)
}

// An index that answers with a tx that did not create the validation is
// an internal failure, not a message the P-chain would refuse.
func TestRemovalIndexGivesAnotherTx(t *testing.T) {
	p := newPChain(t)
	l1 := p.newL1()
	vID := ids.GenerateTestID()
	removal := p.weightTx(l1, vID, 0, 0)
	for _, creator := range []*txs.Tx{
		p.weightTx(l1, vID, 0, 5),
		p.commit(&txs.ConvertSubnetToL1Tx{Subnet: l1.subnetID, ChainID: l1.chainID, SubnetAuth: &secp256k1fx.Input{}}),
	} {
		_, err := p.indexedRequest(&fakeIndex{creators: map[ids.ID][]byte{vID: creator.Bytes()}}, removal)
		require.Error(t, err)
		require.Zero(t, KindOf(err), "%v", err)
	}
}

func TestUseValidationIndex(t *testing.T) {
	a := &Aggregator{txs: platformTxSource{}}
	vID := ids.GenerateTestID()
	_, err := a.txs.validationCreator(context.Background(), vID)
	require.Equal(t, KindNotFound, KindOf(err), "%v", err)

	p := newPChain(t)
	creator := p.weightTx(p.newL1(), vID, 0, 5)
	a.UseValidationIndex(&fakeIndex{creators: map[ids.ID][]byte{vID: creator.Bytes()}})
	got, err := a.txs.validationCreator(context.Background(), vID)
	require.NoError(t, err)
	require.Equal(t, creator.ID(), got.ID())
}
