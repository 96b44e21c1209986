package aggregator

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/ava-labs/avalanchego/database"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/network/p2p"
	"github.com/ava-labs/avalanchego/network/p2p/acp118"
	"github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/ava-labs/avalanchego/snow/engine/enginetest"
	"github.com/ava-labs/avalanchego/snow/snowtest"
	"github.com/ava-labs/avalanchego/snow/validators/validatorstest"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/vms/components/gas"
	"github.com/ava-labs/avalanchego/vms/platformvm/config"
	pnetwork "github.com/ava-labs/avalanchego/vms/platformvm/network"
	"github.com/ava-labs/avalanchego/vms/platformvm/state"
	"github.com/ava-labs/avalanchego/vms/platformvm/state/statetest"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs/mempool"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
)

// The requests built for L1 validator txs are checked by the P-chain's own
// ACP-118 handler (vms/platformvm/network: its signature request verifier
// and warp signer), run in-process over a real P-chain state: whatever it
// signs is what a validator signs, and the messages a GET refuses are the
// ones it refuses.

const testNetworkID = 88888

// pchain is the P-chain side of the tests: a P-chain state, the P-chain's
// network with its signature handler, and a fake API over the same state.
type pchain struct {
	t      *testing.T
	state  *state.State
	net    *pnetwork.Network
	sk     bls.Signer
	chains map[ids.ID]ids.ID
	txs    map[ids.ID]*txs.Tx

	mu      sync.Mutex
	replies map[uint32]pchainReply
}

type pchainReply struct {
	signature []byte
	code      int32
	message   string
}

func newPChain(t *testing.T) *pchain {
	sk, err := localsigner.New()
	require.NoError(t, err)
	p := &pchain{t: t, state: statetest.New(t, statetest.Config{}), sk: sk,
		chains: map[ids.ID]ids.ID{}, txs: map[ids.ID]*txs.Tx{}, replies: map[uint32]pchainReply{}}
	pool, err := mempool.New("", gas.Dimensions{1, 1, 1, 1}, 1_000_000, snowtest.AVAXAssetID, prometheus.NewRegistry())
	require.NoError(t, err)
	sender := &enginetest.Sender{
		SendAppResponseF: func(_ context.Context, _ ids.NodeID, requestID uint32, b []byte) error {
			var resp sdk.SignatureResponse
			if err := proto.Unmarshal(b, &resp); err != nil {
				return err
			}
			p.reply(requestID, pchainReply{signature: resp.Signature})
			return nil
		},
		SendAppErrorF: func(_ context.Context, _ ids.NodeID, requestID uint32, code int32, msg string) error {
			p.reply(requestID, pchainReply{code: code, message: msg})
			return nil
		},
	}
	p.net, err = pnetwork.New(logging.NoLog{}, ids.GenerateTestNodeID(), constants.PrimaryNetworkID, &validatorstest.State{},
		acceptAll{}, pool, false, sender, &sync.Mutex{}, p.state,
		warp.NewSigner(sk, testNetworkID, constants.PlatformChainID), prometheus.NewRegistry(), config.DefaultNetwork)
	require.NoError(t, err)
	return p
}

type acceptAll struct{}

func (acceptAll) VerifyTx(*txs.Tx) error { return nil }

func (p *pchain) reply(requestID uint32, r pchainReply) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.replies[requestID] = r
}

// ask sends req as the aggregator does (an ACP-118 request) to the
// P-chain's handler and returns its answer: a verified signature, or the
// AppError code and message.
func (p *pchain) ask(req Request) pchainReply {
	t := p.t
	t.Helper()
	body, err := proto.Marshal(&sdk.SignatureRequest{Message: req.Message, Justification: req.Justification})
	require.NoError(t, err)
	requestID := uint32(len(p.replies) + 1)
	msg := p2p.PrefixMessage(p2p.ProtocolPrefix(acp118.HandlerID), body)
	require.NoError(t, p.net.AppRequest(context.Background(), ids.GenerateTestNodeID(), requestID, time.Now().Add(time.Minute), msg))
	p.mu.Lock()
	r, ok := p.replies[requestID]
	p.mu.Unlock()
	require.True(t, ok, "the P-chain handler did not answer")
	if r.signature != nil {
		sig, err := bls.SignatureFromBytes(r.signature)
		require.NoError(t, err)
		require.True(t, bls.Verify(p.sk.PublicKey(), sig, req.Message), "the P-chain's signature verifies")
	}
	return r
}

// The fake P-chain API, over the same state.
func (p *pchain) committedTx(_ context.Context, txID ids.ID) (*txs.Tx, error) {
	tx, ok := p.txs[txID]
	if !ok {
		return nil, newError(KindNotFound, "transaction %s is not committed", txID)
	}
	return tx, nil
}

func (p *pchain) l1Validator(_ context.Context, validationID ids.ID) (l1ValidatorState, bool, error) {
	v, err := p.state.GetL1Validator(validationID)
	if errors.Is(err, database.ErrNotFound) {
		return l1ValidatorState{}, false, nil
	}
	if err != nil {
		return l1ValidatorState{}, false, err
	}
	return l1ValidatorState{SubnetID: v.SubnetID, Weight: v.Weight, MinNonce: v.MinNonce}, true, nil
}

func (p *pchain) subnetOf(_ context.Context, chainID ids.ID) (ids.ID, error) {
	subnetID, ok := p.chains[chainID]
	if !ok {
		return ids.Empty, newError(KindNotFound, "unknown chain %s", chainID)
	}
	return subnetID, nil
}

// validationCreator: this fake keeps no P-chain index (removal tests wrap
// it in one, indexedTxSource).
func (p *pchain) validationCreator(ctx context.Context, validationID ids.ID) (*txs.Tx, error) {
	return platformTxSource{}.validationCreator(ctx, validationID)
}

// commit records a tx carrying a manager message (signature irrelevant
// here: the P-chain checked it when it committed the tx).
func (p *pchain) commit(unsigned txs.UnsignedTx) *txs.Tx {
	tx := &txs.Tx{Unsigned: unsigned}
	require.NoError(p.t, tx.Initialize(txs.Codec))
	p.txs[tx.ID()] = tx
	return tx
}

// testL1 is a converted subnet with its manager chain.
type testL1 struct {
	subnetID, chainID ids.ID
}

func (p *pchain) newL1() *testL1 {
	l1 := &testL1{subnetID: ids.GenerateTestID(), chainID: ids.GenerateTestID()}
	p.chains[l1.chainID] = l1.subnetID
	p.state.SetSubnetToL1Conversion(l1.subnetID, state.SubnetToL1Conversion{
		ConversionID: ids.GenerateTestID(), ChainID: l1.chainID, Addr: []byte{0xad, 0xa0}})
	return l1
}

// putValidator sets validationID's weight and nonce (weight 0 removes it).
func (p *pchain) putValidator(l1 *testL1, validationID ids.ID, weight, minNonce uint64) {
	v, err := p.state.GetL1Validator(validationID)
	if err != nil {
		// New: the constant fields are set once.
		sk, err := localsigner.New()
		require.NoError(p.t, err)
		v = state.L1Validator{
			ValidationID: validationID, SubnetID: l1.subnetID, NodeID: ids.GenerateTestNodeID(),
			PublicKey: bls.PublicKeyToUncompressedBytes(sk.PublicKey()), EndAccumulatedFee: 1,
		}
	}
	v.Weight, v.MinNonce = weight, minNonce
	require.NoError(p.t, p.state.PutL1Validator(v))
}

// managerMessage is a warp message from the L1's manager, as a tx carries.
func (l1 *testL1) managerMessage(t *testing.T, msg []byte) []byte {
	call, err := payload.NewAddressedCall([]byte{0xad, 0xa0}, msg)
	require.NoError(t, err)
	unsigned, err := warp.NewUnsignedMessage(testNetworkID, l1.chainID, call.Bytes())
	require.NoError(t, err)
	signed, err := warp.NewMessage(unsigned, &warp.BitSetSignature{})
	require.NoError(t, err)
	return signed.Bytes()
}

func (p *pchain) request(tx *txs.Tx) (Request, error) {
	return txMessage(context.Background(), testNetworkID, p, tx)
}

// requirePayload checks req carries the P-chain message want.
func requirePayload(t *testing.T, req Request, want message.Payload) {
	t.Helper()
	unsigned, err := warp.ParseUnsignedMessage(req.Message)
	require.NoError(t, err)
	require.Equal(t, uint32(testNetworkID), unsigned.NetworkID)
	require.Equal(t, constants.PlatformChainID, unsigned.SourceChainID)
	call, err := payload.ParseAddressedCall(unsigned.Payload)
	require.NoError(t, err)
	require.Empty(t, call.SourceAddress)
	require.Equal(t, want.Bytes(), call.Payload)
}

// requireSignedRemoval checks that req carries L1ValidatorRegistration(vID,
// false), the message of a removed validator, and that the P-chain signs it.
func (p *pchain) requireSignedRemoval(req Request, vID ids.ID) {
	t := p.t
	t.Helper()
	removed, err := message.NewL1ValidatorRegistration(vID, false)
	require.NoError(t, err)
	requirePayload(t, req, removed)
	r := p.ask(req)
	require.NotNil(t, r.signature, "the P-chain signs the removal: %d %s", r.code, r.message)
}

// registerValidator commits a RegisterL1ValidatorTx of a new validator of
// l1 with weight, and puts the validator in the P-chain's state.
func (p *pchain) registerValidator(l1 *testL1, weight uint64) (ids.ID, *txs.Tx) {
	sk, err := localsigner.New()
	require.NoError(p.t, err)
	owner := message.PChainOwner{}
	expiry := uint64(time.Now().Add(time.Hour).Unix())
	register, err := message.NewRegisterL1Validator(l1.subnetID, ids.GenerateTestNodeID(),
		[bls.PublicKeyLen]byte(bls.PublicKeyToCompressedBytes(sk.PublicKey())), expiry, owner, owner, weight)
	require.NoError(p.t, err)
	vID := register.ValidationID()
	tx := p.commit(&txs.RegisterL1ValidatorTx{Balance: 1, Message: l1.managerMessage(p.t, register.Bytes())})
	p.putValidator(l1, vID, weight, 0)
	p.state.PutExpiry(state.ExpiryEntry{Timestamp: expiry, ValidationID: vID})
	return vID, tx
}

func TestRegisterL1ValidatorTxMessage(t *testing.T) {
	p := newPChain(t)
	l1 := p.newL1()
	vID, tx := p.registerValidator(l1, 40)

	// Registered: L1ValidatorRegistration(true), no justification, the
	// L1 signs.
	req, err := p.request(tx)
	require.NoError(t, err)
	registered, err := message.NewL1ValidatorRegistration(vID, true)
	require.NoError(t, err)
	requirePayload(t, req, registered)
	require.Empty(t, req.Justification)
	require.Equal(t, l1.subnetID, req.SigningSubnetID)
	require.True(t, req.HasSigningSubnetID)
	require.Equal(t, uint64(txQuorumPercentage), req.QuorumPercentage)
	require.NotNil(t, p.ask(req).signature, "the P-chain signs the registration")

	// Removed since: L1ValidatorRegistration(false), justified by the
	// tx's RegisterL1Validator message.
	p.putValidator(l1, vID, 0, 0)
	require.Equal(t, int32(pnetwork.ErrValidationDoesNotExist), p.ask(req).code, "the old message is refused now")
	req, err = p.request(tx)
	require.NoError(t, err)
	require.NotEmpty(t, req.Justification)
	p.requireSignedRemoval(req, vID)
}

func TestSetL1ValidatorWeightTxMessage(t *testing.T) {
	p := newPChain(t)
	l1 := p.newL1()
	// The conversion's second validator.
	vID := l1.subnetID.Append(1)
	weightTx := func(nonce, weight uint64) *txs.Tx {
		msg, err := message.NewL1ValidatorWeight(vID, nonce, weight)
		require.NoError(t, err)
		return p.commit(&txs.SetL1ValidatorWeightTx{Message: l1.managerMessage(t, msg.Bytes())})
	}
	reweight := weightTx(3, 250)
	p.putValidator(l1, vID, 250, 4)

	// Current: the P-chain acknowledges the tx's own nonce and weight.
	req, err := p.request(reweight)
	require.NoError(t, err)
	ack, err := message.NewL1ValidatorWeight(vID, 3, 250)
	require.NoError(t, err)
	requirePayload(t, req, ack)
	require.Empty(t, req.Justification)
	require.Equal(t, l1.subnetID, req.SigningSubnetID)
	require.NotNil(t, p.ask(req).signature, "the P-chain signs the current weight")

	// Superseded by a later change: refused here, as the P-chain does.
	stale := req
	weightTx(5, 300)
	p.putValidator(l1, vID, 300, 6)
	require.Equal(t, int32(pnetwork.ErrWrongNonce), p.ask(stale).code)
	_, err = p.request(reweight)
	require.Equal(t, KindInvalidRequest, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "superseded by a later weight change (the P-chain now has weight 300, minNonce 6)")

	// Removed: the weight tx is superseded by the removal, whose message
	// is L1ValidatorRegistration(false) with the conversion's subnet and
	// index as justification.
	removal := weightTx(6, 0)
	p.putValidator(l1, vID, 0, 0)
	_, err = p.request(reweight)
	require.Equal(t, KindInvalidRequest, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "has since been removed")
	req, err = p.request(removal)
	require.NoError(t, err)
	require.Equal(t, l1.subnetID, req.SigningSubnetID)
	p.requireSignedRemoval(req, vID)

	// A removed validator that is none of the conversion's: its
	// justification is the tx that created it, which only an index of the
	// P-chain finds (validatormessages_removal_test.go); without one, a 404
	// says so.
	other := ids.GenerateTestID()
	msg, err := message.NewL1ValidatorWeight(other, 0, 0)
	require.NoError(t, err)
	tx := p.commit(&txs.SetL1ValidatorWeightTx{Message: l1.managerMessage(t, msg.Bytes())})
	_, err = p.request(tx)
	require.Equal(t, KindNotFound, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "this node keeps no index of the P-chain")
}
