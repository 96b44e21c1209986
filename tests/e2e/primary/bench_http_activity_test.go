package primary

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/components/gas"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/status"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs/fee"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/p"
	pbuilder "github.com/ava-labs/avalanchego/wallet/chain/p/builder"
	psigner "github.com/ava-labs/avalanchego/wallet/chain/p/signer"
	pwallet "github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// The real activity BenchmarkPrimaryHTTPRoutes serves: an X-chain address
// holding httpBenchUTXOs UTXOs, and httpBenchValidators primary-network
// validators, every one a real tx the node accepted.

const (
	// httpBenchOutputsPerTx is how many outputs one X-chain BaseTx pays
	// the UTXO holder: about 80 bytes each, and the X-chain takes txs of
	// up to 64 KiB.
	httpBenchOutputsPerTx = 700
	// httpBenchFundingOutputs is how many outputs one P-chain BaseTx pays
	// the validators' key: each costs a DB write of gas, and 50 keep a
	// funding tx to a twentieth of the P-chain's gas capacity.
	httpBenchFundingOutputs = 50
	// httpBenchStake is a validator's least stake (the local network's
	// minimum); validator i stakes i%10 AVAX more, so that their delegation
	// capacities differ.
	httpBenchStake = 2 * units.KiloAvax
	// httpBenchFeeRoom is what a validator's UTXO holds beyond its stake,
	// for the fee.
	httpBenchFeeRoom = 15 * units.Avax
	// httpBenchGasPriceFactor is how far above the P-chain's gas price at
	// the start the validator txs bid: thousands of them keep the chain
	// busy for minutes, and its price rises while it is above its target.
	httpBenchGasPriceFactor = 100_000
	// httpBenchGasPerSecond is the pace the P-chain txs are issued at, in
	// gas: under the local network's refill (100,000 a second), so that the
	// chain's capacity never runs out. A tx beyond the capacity is refused,
	// and one the mempool took while a block could not hold it waited there
	// until the next tx came.
	httpBenchGasPerSecond = 90_000
)

// issueUTXOs pays holder n UTXOs on X from EWOQ, httpBenchOutputsPerTx per
// BaseTx (amounts 1000+i nAVAX, all different, for the amount sort), and
// returns the txs.
func issueUTXOs(b *testing.B, ctx context.Context, uri string, holder ids.ShortID, n int) []ids.ID {
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, uri, kc, kc, primary.WalletConfig{})
	if err != nil {
		b.Fatal(err)
	}
	avaxID := w.X().Builder().Context().AVAXAssetID
	owner := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{holder}}
	var out []ids.ID
	for paid := 0; paid < n; paid += httpBenchOutputsPerTx {
		var outs []*avax.TransferableOutput
		for i := paid; i < min(paid+httpBenchOutputsPerTx, n); i++ {
			outs = append(outs, &avax.TransferableOutput{Asset: avax.Asset{ID: avaxID},
				Out: &secp256k1fx.TransferOutput{Amt: uint64(1000 + i), OutputOwners: owner}})
		}
		tx, err := w.X().IssueBaseTx(outs, common.WithContext(ctx), common.WithPollFrequency(20*time.Millisecond))
		if err != nil {
			b.Fatalf("X BaseTx paying UTXOs %d+: %v", paid, err)
		}
		out = append(out, tx.ID())
	}
	return out
}

// benchValidator is one validator the benchmark added.
type benchValidator struct {
	nodeID ids.NodeID
	txID   ids.ID
}

// issueValidators adds n primary-network validators, each a fresh node ID
// with a BLS key staking from a UTXO of its own, with different stakes,
// end times (an hour and more from now) and fees (2% to 50%), and waits
// until the node has accepted every one. The txs are independent, so they
// are issued without waiting for one another, at the pace the chain's gas
// refill allows (about six minutes for 2,000 on a local network).
func issueValidators(b *testing.B, ctx context.Context, uri string, n int) []benchValidator {
	key, err := secp256k1.NewPrivateKey()
	if err != nil {
		b.Fatal(err)
	}
	fundValidatorKey(b, ctx, uri, key.Address(), n)

	// The validators' wallet: the key's UTXOs, and a gas price far above
	// the chain's, so that no tx is short of its fee while the price rises.
	kc := secp256k1fx.NewKeychain(key)
	client, pctx, utxos, err := primary.FetchPState(ctx, uri, kc.Addresses())
	if err != nil {
		b.Fatal(err)
	}
	pctx.GasPrice *= httpBenchGasPriceFactor
	backend := pwallet.NewBackend(common.NewChainUTXOs(constants.PlatformChainID, utxos), nil)
	w := pwallet.New(p.NewClient(client, backend), pbuilder.New(kc.Addresses(), pctx, backend), psigner.New(kc, backend))

	rewards := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ids.GenerateTestShortID()}}
	// Change goes to an address the wallet does not hold, so that no tx
	// spends another's change: each spends its own UTXO, and the node
	// takes them in any order.
	change := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ids.GenerateTestShortID()}}
	end := time.Now().Add(time.Hour)
	out := make([]benchValidator, n)
	for i := range n {
		id := harness.NewBLSValidator(b)
		vdr := &txs.SubnetValidator{Subnet: constants.PrimaryNetworkID, Validator: txs.Validator{
			NodeID: id.NodeID, End: uint64(end.Add(time.Duration(i) * time.Second).Unix()), Wght: httpBenchStake + uint64(i%10)*units.Avax}}
		shares := uint32(20_000 + (i*4_999)%480_000)
		var tx *txs.Tx
		err := whenCapacity(ctx, func() (err error) {
			tx, err = w.IssueAddPermissionlessValidatorTx(vdr, id.PoP, pctx.AVAXAssetID, rewards, rewards, shares,
				common.WithContext(ctx), common.WithAssumeDecided(), common.WithChangeOwner(change))
			return err
		})
		if err != nil {
			b.Fatalf("validator %d: %v", i, err)
		}
		out[i] = benchValidator{nodeID: id.NodeID, txID: tx.ID()}
		pace(b, ctx, tx, pctx.ComplexityWeights)
	}
	waitCommitted(b, ctx, client, out)
	return out
}

// fundValidatorKey pays addr n UTXOs on P from EWOQ, each a validator's
// stake and fee room.
func fundValidatorKey(b *testing.B, ctx context.Context, uri string, addr ids.ShortID, n int) {
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	if err != nil {
		b.Fatal(err)
	}
	avaxID := w.Builder().Context().AVAXAssetID
	owner := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{addr}}
	for paid := 0; paid < n; paid += httpBenchFundingOutputs {
		var outs []*avax.TransferableOutput
		for range min(httpBenchFundingOutputs, n-paid) {
			outs = append(outs, &avax.TransferableOutput{Asset: avax.Asset{ID: avaxID},
				Out: &secp256k1fx.TransferOutput{Amt: httpBenchStake + 10*units.Avax + httpBenchFeeRoom, OutputOwners: owner}})
		}
		var tx *txs.Tx
		err := whenCapacity(ctx, func() (err error) {
			tx, err = w.IssueBaseTx(outs, common.WithContext(ctx), common.WithPollFrequency(20*time.Millisecond))
			return err
		})
		if err != nil {
			b.Fatalf("P BaseTx funding validators %d+: %v", paid, err)
		}
		pace(b, ctx, tx, w.Builder().Context().ComplexityWeights)
	}
}

// pace waits as long as the chain's capacity takes to refill what tx
// spends, at httpBenchGasPerSecond.
func pace(b *testing.B, ctx context.Context, tx *txs.Tx, weights gas.Dimensions) {
	complexity, err := fee.TxComplexity(tx.Unsigned)
	if err != nil {
		b.Fatal(err)
	}
	g, err := complexity.ToGas(weights)
	if err != nil {
		b.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(g) * time.Second / httpBenchGasPerSecond):
	}
}

// whenCapacity issues a P-chain tx, again and again while the node refuses
// it for the chain's gas capacity: the node takes a tx only when the gas
// the chain can spend now covers it, and the capacity refills each second.
func whenCapacity(ctx context.Context, issue func() error) error {
	for {
		err := issue()
		if err == nil || !strings.Contains(err.Error(), "exceeds current gas capacity") {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %w)", ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitCommitted waits until the node has committed every validator's tx,
// asking in the order they were issued (the mempool's).
func waitCommitted(b *testing.B, ctx context.Context, client *platformvm.Client, vdrs []benchValidator) {
	began := time.Now()
	for next := 0; next < len(vdrs); {
		s, err := client.GetTxStatus(ctx, vdrs[next].txID)
		if err != nil {
			b.Fatal(err)
		}
		switch s.Status {
		case status.Committed:
			next++
			continue
		case status.Aborted, status.Dropped:
			b.Fatalf("validator %d, %s: %s (%s)", next, vdrs[next], s.Status, s.Reason)
		}
		select {
		case <-ctx.Done():
			b.Fatalf("%d of %d validator txs not committed after %v", len(vdrs)-next, len(vdrs), time.Since(began))
		case <-time.After(time.Second):
		}
	}
	b.Logf("%d validator txs committed %v after the last was issued", len(vdrs), time.Since(began).Round(time.Second))
}

// String names the validator in failure messages.
func (v benchValidator) String() string { return fmt.Sprintf("%s (tx %s)", v.nodeID, v.txID) }
