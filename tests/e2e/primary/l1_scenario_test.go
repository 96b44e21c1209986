package primary

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/chaincreate"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The L1 tests share one scenario: a fresh key L, funded by EWOQ on P,
// creates a subnet and a chain on it (the avadata VM: the node runs every
// chain with sybil protection off, and a VM it lacks would make it
// unhealthy), converts the subnet to an L1 with one validator whose BLS key
// the test holds, tops up that validator's balance, tries to re-weight it
// with a warp message from the L1's manager signed with that key, and
// disables it (L is its deactivation owner).
//
// The re-weight (and any RegisterL1ValidatorTx) cannot pass on this network:
// with sybil protection off, avalanchego's chain manager (chains/manager.go,
// createChain for the P-chain) wraps the P-chain's own ctx.ValidatorState in
// validators.NewNoValidatorsState, whose GetValidatorSet is empty for every
// subnet at every height. The P-chain's warp verifier
// (txs/executor/warp_verifier.go → warp.GetCanonicalValidatorSetFromChainID)
// therefore sees an L1 with no validators, and refuses every warp message:
// "failed verifying warp messages: unknown validator: NumIndices (0) >=
// NumFilteredValidators (0)". The scenario records that refusal; if a network
// with sybil protection on runs it, the tx is accepted and checked like the
// others. TestPrimaryL1WarpTxsSigned (l1_signed_test.go) issues both
// warp-authorized L1 txs, SetL1ValidatorWeightTx and RegisterL1ValidatorTx,
// on a 2-node network with sybil protection on and checks them there.

const l1ScenarioTimeout = 3 * time.Minute

// The first L1 validator's weight and balance at the conversion.
const l1FirstWeight, l1FirstBalance = 100, units.Avax

// l1Tx is one tx of the L1 scenario.
type l1Tx struct {
	label, txType     string
	id                ids.ID
	validationID      ids.ID // the L1 validator it is about, if any
	height            uint64
	blockTime         int64
	json              json.RawMessage // platform.getTx, json encoding
	balance, weight   uint64          // the tx's L1 validator balance/weight figure
	amountBalanceBurn uint64          // AVAX moved into L1 validator balances
	refund            *truth.UTXO     // a disable's refund, as platform.getUTXOs shows it
}

// l1Validator is one L1 validator the scenario made.
type l1Validator struct {
	*harness.BLSValidator
	validationID ids.ID
	// balanceBeforeDisable is getL1Validator's balance just before the
	// DisableL1ValidatorTx.
	balanceBeforeDisable uint64
	// node is platform.getL1Validator at the end.
	node nodeL1Validator
}

type l1Scenario struct {
	hrp            string
	key            *secp256k1.PrivateKey
	addr           ids.ShortID
	avax           ids.ID
	subnetID       ids.ID
	chainID        ids.ID // the CreateChainTx, also the L1's manager chain
	chainName      string
	managerAddress []byte
	genesisData    []byte
	first          *l1Validator
	txs            []*l1Tx
	fromHeight     uint64
	took           time.Duration
	// warpRefusal is why the node refused the SetL1ValidatorWeightTx.
	warpRefusal string
}

func (s *l1Scenario) pAddr(t *testing.T) string {
	t.Helper()
	a, err := address.FormatBech32(s.hrp, s.addr.Bytes())
	require.NoError(t, err)
	return "P-" + a
}

// txsOf returns the scenario's txs about validation ID v.
func (s *l1Scenario) txsOf(v ids.ID) []*l1Tx {
	var out []*l1Tx
	for _, tx := range s.txs {
		if tx.validationID == v {
			out = append(out, tx)
		}
	}
	return out
}

// l1ScenarioFixture returns the shared scenario, running it on first use.
func l1ScenarioFixture(t *testing.T) *l1Scenario {
	t.Helper()
	return env.l1.Get(t, "the L1 scenario", func() *l1Scenario { return runL1Scenario(t) })
}

type l1Run struct {
	*l1Scenario
	t   *testing.T
	ctx context.Context
	uri string // the node the txs go to and are read back from
	w   walletP
}

func (r *l1Run) opts() []common.Option {
	return []common.Option{common.WithContext(r.ctx), common.WithPollFrequency(20 * time.Millisecond)}
}

func (r *l1Run) ownerL() *secp256k1fx.OutputOwners {
	return &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{r.addr}}
}

func (r *l1Run) pchainOwnerL() message.PChainOwner {
	return message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{r.addr}}
}

func newL1Validator(t *testing.T) *l1Validator {
	t.Helper()
	return &l1Validator{BLSValidator: harness.NewBLSValidator(t)}
}

func runL1Scenario(t *testing.T) *l1Scenario {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), l1ScenarioTimeout)
	defer cancel()
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	s := &l1Scenario{hrp: constants.GetHRP(constants.LocalID), key: key, addr: key.Address(),
		chainName: "avadatal1", genesisData: chaincreate.DefaultGenesis(),
		managerAddress: []byte{0xad, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11}}
	r := &l1Run{l1Scenario: s, t: t, ctx: ctx, uri: env.URI(t)}
	s.fromHeight = truth.Height(t, ctx, env.URI(t), "P")

	// EWOQ funds L on P.
	ewoqKC := secp256k1fx.NewKeychain(genesis.EWOQKey)
	ewoq, err := primary.MakePWallet(ctx, env.URI(t), ewoqKC, primary.WalletConfig{})
	require.NoError(t, err, "EWOQ P wallet")
	s.avax = ewoq.Builder().Context().AVAXAssetID
	tx, err := ewoq.IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: s.avax},
		Out: &secp256k1fx.TransferOutput{Amt: 20 * units.Avax, OutputOwners: *r.ownerL()}}}, r.opts()...)
	require.NoError(t, err, "funding L")
	r.record(&l1Tx{label: "fund L", txType: "BaseTx", id: tx.ID()})

	kc := secp256k1fx.NewKeychain(key)
	r.w, err = primary.MakePWallet(ctx, env.URI(t), kc, primary.WalletConfig{})
	require.NoError(t, err, "L's P wallet")
	tx, err = r.w.IssueCreateSubnetTx(r.ownerL(), r.opts()...)
	require.NoError(t, err, "CreateSubnetTx")
	s.subnetID = tx.ID()
	r.record(&l1Tx{label: "create subnet", txType: "CreateSubnetTx", id: tx.ID()})
	// A wallet that knows the subnet's owner (L) signs for it.
	r.w, err = primary.MakePWallet(ctx, env.URI(t), kc, primary.WalletConfig{SubnetIDs: []ids.ID{s.subnetID}})
	require.NoError(t, err, "L's P wallet with the subnet")

	// The L1's manager chain: the P-chain does not check that it exists,
	// and creating a chain here would make the node (sybil protection off:
	// it runs every chain) start a second avadata, or fail a chain of a VM
	// it lacks, on the network every test shares. The local subnet-evm
	// chain stands in.
	s.chainID = env.Net(t).EVMChains()[1].BlockchainID

	r.convertFirst()

	const increase = 500 * units.MilliAvax
	tx, err = r.w.IssueIncreaseL1ValidatorBalanceTx(s.first.validationID, increase, r.opts()...)
	require.NoError(t, err, "IncreaseL1ValidatorBalanceTx")
	r.record(&l1Tx{label: "increase balance", txType: "IncreaseL1ValidatorBalanceTx", id: tx.ID(),
		validationID: s.first.validationID, balance: increase, amountBalanceBurn: increase})

	// Re-weight the first validator: 100 → 250, nonce 0.
	const newWeight = 250
	weightMsg, err := message.NewL1ValidatorWeight(s.first.validationID, 0, newWeight)
	require.NoError(t, err)
	setTx := &l1Tx{label: "set weight", txType: "SetL1ValidatorWeightTx", validationID: s.first.validationID, weight: newWeight}
	tx, err = r.w.IssueSetL1ValidatorWeightTx(signL1Warp(t, constants.LocalID, r.l1Scenario, weightMsg.Bytes()), r.opts()...)
	if err != nil {
		require.ErrorContains(t, err, "failed verifying warp messages", "SetL1ValidatorWeightTx")
		s.warpRefusal = err.Error()
		t.Logf("set weight: refused, as every warp tx is without sybil protection: %v", err)
	} else {
		setTx.id = tx.ID()
		r.record(setTx)
	}

	// L, the deactivation owner, disables it: the rest of its balance
	// goes back to L.
	s.first.balanceBeforeDisable = uint64(truth.GetL1Validator(t, ctx, env.URI(t), s.first.validationID).Balance)
	tx, err = r.w.IssueDisableL1ValidatorTx(s.first.validationID, r.opts()...)
	require.NoError(t, err, "DisableL1ValidatorTx")
	disable := &l1Tx{label: "disable validator", txType: "DisableL1ValidatorTx", id: tx.ID(), validationID: s.first.validationID}
	r.record(disable)
	// The refund is (txID, len(Outs)), as platform.getUTXOs shows it.
	refundID := tx.ID().Prefix(uint64(len(tx.Unsigned.(*txs.DisableL1ValidatorTx).Outs)))
	for _, u := range truth.UTXOs(t, ctx, env.URI(t), "P", "", s.pAddr(t)) {
		if u.ID == refundID {
			disable.refund = &u
		}
	}
	require.NotNil(t, disable.refund, "the disable's refund UTXO %s is not among L's UTXOs", refundID)

	for _, v := range []*l1Validator{s.first} {
		v.node = truth.GetL1Validator(t, ctx, env.URI(t), v.validationID)
	}
	s.took = time.Since(start)
	t.Logf("L1 scenario: %d txs in %v", len(s.txs), s.took.Round(time.Millisecond))
	return s
}

// signL1Warp wraps an L1 validator manager message (from the L1's manager
// chain and address) in a warp message of networkID signed by the first L1
// validator, the only signer of a fresh L1 (bit 0 of its canonical set).
func signL1Warp(t *testing.T, networkID uint32, s *l1Scenario, msgBytes []byte) []byte {
	t.Helper()
	return harness.SignL1Warp(t, networkID, s.chainID, s.managerAddress, s.first.Signer, 0, msgBytes)
}

// record locates an accepted tx and reads it back from the node.
func (r *l1Run) record(tx *l1Tx) {
	t := r.t
	t.Helper()
	h, bt := truth.LocatePTx(t, r.ctx, r.uri, r.fromHeight+1, tx.id)
	tx.height, tx.blockTime = h, bt
	tx.json = nodePTxJSON(t, r.ctx, r.uri, tx.id)
	r.txs = append(r.txs, tx)
	t.Logf("%-18s %-28s %s at P height %d", tx.label, tx.txType, tx.id, tx.height)
}

// convertFirst converts the scenario's subnet to an L1 managed from its
// chain, with one validator whose BLS key the test holds (s.first).
func (r *l1Run) convertFirst() {
	t := r.t
	t.Helper()
	s := r.l1Scenario
	s.first = newL1Validator(t)
	s.first.validationID = s.subnetID.Append(0)
	tx, err := r.w.IssueConvertSubnetToL1Tx(s.subnetID, s.chainID, s.managerAddress, []*txs.ConvertSubnetToL1Validator{{
		NodeID: s.first.NodeID.Bytes(), Weight: l1FirstWeight, Balance: l1FirstBalance, Signer: *s.first.PoP,
		RemainingBalanceOwner: r.pchainOwnerL(), DeactivationOwner: r.pchainOwnerL(),
	}}, r.opts()...)
	require.NoError(t, err, "ConvertSubnetToL1Tx")
	r.record(&l1Tx{label: "convert to L1", txType: "ConvertSubnetToL1Tx", id: tx.ID(), validationID: s.first.validationID,
		weight: l1FirstWeight, balance: l1FirstBalance, amountBalanceBurn: l1FirstBalance})
}

// nodeL1Validator is platform.getL1Validator's reply.
type nodeL1Validator = truth.L1Validator
