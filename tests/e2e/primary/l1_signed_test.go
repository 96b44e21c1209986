package primary

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/chaincreate"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/vm"
)

// TestPrimaryL1WarpTxsSigned runs the L1 steps the shared single-node network
// refuses (its P-chain sees no L1 validators, sybil protection being off: see
// l1_scenario_test.go) on the package's 2-node network: create a subnet and a
// chain on it (its manager chain: the P-chain maps a warp message's source
// chain to its subnet, so the manager must be a chain of the converted
// subnet; the nodes do not track that subnet, so the chain never runs),
// convert the subnet to an L1 with one validator whose BLS key the test
// holds, re-weight it (SetL1ValidatorWeightTx) and register a second
// validator (RegisterL1ValidatorTx), both authorized by warp messages from
// the L1's manager signed with that key. listLatestPrimaryNetworkTransactions
// with l1ValidationId must list each validator's txs, with the fields
// platform.getTx and platform.getL1Validator give.
//
// Two things make those txs pass, both found the hard way:
//   - The P-chain verifies warp messages at the P-chain height of the
//     preferred block's ACP-181 epoch (block/executor/manager.go VerifyTx,
//     proposervm SetPreference), which is fixed for the epoch (30 s on
//     these networks). Until an epoch starting after the conversion, the
//     L1 has no validators at that height.
//   - The P-chain mempool remembers a refused tx ID with its reason and
//     answers a resubmission with that reason without verifying again. A
//     retry must therefore be a different tx: each attempt carries its
//     own memo.
func TestPrimaryL1WarpTxsSigned(t *testing.T) {
	sn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	uri := sn.URI

	x := harness.NewTxIssuer(t, ctx, uri)
	networkID := x.Wallet.P().Builder().Context().NetworkID
	require.Equal(t, uint32(88888), networkID)
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	s := &l1Scenario{hrp: constants.GetHRP(networkID), key: key, addr: key.Address(),
		chainName: "avadatal1signed", genesisData: chaincreate.DefaultGenesis(),
		managerAddress: []byte{0xad, 0xa0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x22, 0x22}}
	s.avax = x.Wallet.P().Builder().Context().AVAXAssetID
	r := &l1Run{l1Scenario: s, t: t, ctx: ctx, uri: uri}
	s.fromHeight = truth.Height(t, ctx, uri, "P")

	// EWOQ funds L on P.
	tx, err := x.Wallet.P().IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: s.avax},
		Out: &secp256k1fx.TransferOutput{Amt: 20 * units.Avax, OutputOwners: *r.ownerL()}}}, r.opts()...)
	require.NoError(t, err, "funding L")
	r.record(&l1Tx{label: "fund L", txType: "BaseTx", id: tx.ID()})

	kc := secp256k1fx.NewKeychain(key)
	r.w, err = primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	require.NoError(t, err, "L's P wallet")
	tx, err = r.w.IssueCreateSubnetTx(r.ownerL(), r.opts()...)
	require.NoError(t, err, "CreateSubnetTx")
	s.subnetID = tx.ID()
	r.record(&l1Tx{label: "create subnet", txType: "CreateSubnetTx", id: tx.ID()})
	r.w, err = primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{SubnetIDs: []ids.ID{s.subnetID}})
	require.NoError(t, err, "L's P wallet with the subnet")

	tx, err = r.w.IssueCreateChainTx(s.subnetID, s.genesisData, vm.ID, nil, s.chainName, r.opts()...)
	require.NoError(t, err, "CreateChainTx")
	s.chainID = tx.ID()
	r.record(&l1Tx{label: "create chain", txType: "CreateChainTx", id: tx.ID()})

	r.convertFirst()

	convertHeight := s.txs[len(s.txs)-1].height
	harness.WaitWarpHeight(t, ctx, uri, x, convertHeight)

	// issueWarp issues a warp-authorized tx, retried while the epoch's
	// height lags (harness.IssueWarpTx).
	issueWarp := func(what string, issue func(attempt uint64) (*txs.Tx, error)) *txs.Tx {
		t.Helper()
		return harness.IssueWarpTx(t, ctx, uri, x, what, issue)
	}

	// Re-weight the first validator: 100 → 250, with the attempt's nonce.
	const newWeight = 250
	var weightNonce uint64
	tx = issueWarp("SetL1ValidatorWeightTx", func(attempt uint64) (*txs.Tx, error) {
		weightNonce = attempt
		msg, err := message.NewL1ValidatorWeight(s.first.validationID, weightNonce, newWeight)
		require.NoError(t, err)
		return r.w.IssueSetL1ValidatorWeightTx(signL1Warp(t, networkID, s, msg.Bytes()), r.opts()...)
	})
	r.record(&l1Tx{label: "set weight", txType: "SetL1ValidatorWeightTx", id: tx.ID(), validationID: s.first.validationID, weight: newWeight})

	// Register a second validator, authorized the same way (the attempt
	// moves the expiry, and so the validation ID, by a second).
	second := newL1Validator(t)
	const secondWeight, secondBalance = 40, 300 * units.MilliAvax
	expiry := uint64(time.Now().Add(time.Hour).Unix())
	tx = issueWarp("RegisterL1ValidatorTx", func(attempt uint64) (*txs.Tx, error) {
		msg, err := message.NewRegisterL1Validator(s.subnetID, second.NodeID,
			[bls.PublicKeyLen]byte(bls.PublicKeyToCompressedBytes(second.Signer.PublicKey())),
			expiry+attempt, r.pchainOwnerL(), r.pchainOwnerL(), secondWeight)
		require.NoError(t, err)
		second.validationID = msg.ValidationID()
		return r.w.IssueRegisterL1ValidatorTx(secondBalance, second.PoP.ProofOfPossession,
			signL1Warp(t, networkID, s, msg.Bytes()), r.opts()...)
	})
	r.record(&l1Tx{label: "register second", txType: "RegisterL1ValidatorTx", id: tx.ID(), validationID: second.validationID,
		weight: secondWeight, balance: secondBalance, amountBalanceBurn: secondBalance})
	registerHeight := s.txs[len(s.txs)-1].height

	// A third validator funded for 3 s at the minimum price (1 nAVAX/s):
	// the time advance of the first block 5 s later deactivates it, and
	// an IncreaseL1ValidatorBalanceTx reactivates it. The node's fee state
	// is taken after each step, for the L1 fee checks
	// (l1_fees_signed_test.go).
	third := newL1Validator(t)
	const thirdBalance, thirdIncrease = 3, 100 * units.MilliAvax
	tx = issueWarp("RegisterL1ValidatorTx (third)", func(attempt uint64) (*txs.Tx, error) {
		msg, err := message.NewRegisterL1Validator(s.subnetID, third.NodeID,
			[bls.PublicKeyLen]byte(bls.PublicKeyToCompressedBytes(third.Signer.PublicKey())),
			expiry+100+attempt, r.pchainOwnerL(), r.pchainOwnerL(), 10)
		require.NoError(t, err)
		third.validationID = msg.ValidationID()
		return r.w.IssueRegisterL1ValidatorTx(thirdBalance, third.PoP.ProofOfPossession,
			signL1Warp(t, networkID, s, msg.Bytes()), r.opts()...)
	})
	thirdHeight, _ := truth.LocatePTx(t, ctx, uri, registerHeight, tx.ID())
	feeVals := []l1FeeValidation{
		{id: s.first.validationID, balance: l1FirstBalance, height: convertHeight},
		{id: second.validationID, balance: secondBalance, height: registerHeight},
		{id: third.validationID, balance: thirdBalance, height: thirdHeight},
	}
	registered := nodeL1Fees(t, ctx, uri, feeVals)
	time.Sleep(5 * time.Second)
	x.IssueP(t, ctx, 1)
	ranOut := nodeL1Fees(t, ctx, uri, feeVals)
	require.Zero(t, ranOut.balances[third.validationID], "the third validator's balance 5 s on")
	tx, err = r.w.IssueIncreaseL1ValidatorBalanceTx(third.validationID, thirdIncrease, r.opts()...)
	require.NoError(t, err, "IncreaseL1ValidatorBalanceTx")
	increaseHeight, _ := truth.LocatePTx(t, ctx, uri, registerHeight, tx.ID())
	t.Logf("third validator %s: registered at P height %d, ran out by %d, reactivated at %d",
		third.validationID, thirdHeight, ranOut.height, increaseHeight)
	feeVals[2] = l1FeeValidation{id: third.validationID, balance: thirdIncrease, height: increaseHeight}

	s.first.node = truth.GetL1Validator(t, ctx, uri, s.first.validationID)
	second.node = truth.GetL1Validator(t, ctx, uri, second.validationID)
	require.Equal(t, uint64(newWeight), uint64(s.first.node.Weight), "getL1Validator weight after the re-weight")
	require.Equal(t, weightNonce+1, uint64(s.first.node.MinNonce), "getL1Validator minNonce after the re-weight")
	require.Equal(t, uint64(secondWeight), uint64(second.node.Weight), "second validator's weight")
	require.Equal(t, second.NodeID, second.node.NodeID, "second validator's nodeID")

	waitCtx, waitCancel := context.WithTimeout(ctx, primaryIndexTimeout)
	harness.WaitIndexed(t, waitCtx, sn.Base, map[string]uint64{"P": truth.Height(t, ctx, uri, "P")})
	waitCancel()

	byID := map[string]*l1Tx{}
	for _, tx := range s.txs {
		byID[tx.id.String()] = tx
	}
	for _, v := range []*l1Validator{s.first, second} {
		// checkL1Tx checks the details against s.first: v's view.
		view := *s
		view.first = v
		want := s.txsOf(v.validationID)
		got := listL1TxsAt(t, ctx, sn.Base, sn.Network, url.Values{"l1ValidationId": {v.validationID.String()}})
		require.ElementsMatch(t, l1TxHashes(want), l1Hashes(got), "txs of L1 validator %s", v.validationID)
		for _, g := range got {
			view.checkL1Tx(t, byID[g.TxHash], g)
			t.Logf("validation %s: %s %s listed and checked", v.validationID, g.TxType, g.TxHash)
		}
	}
	checkL1FeesSigned(t, ctx, sn, []l1FeeNode{registered, ranOut, nodeL1Fees(t, ctx, uri, feeVals)})
	checkL1ValidatorsSigned(t, ctx, sn, r, issueWarp, second, third)
}
