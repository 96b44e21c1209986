package primary

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/platformvm/stakeable"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	ethcommon "github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// The primary-network tests share one scenario of
// real activity on P, X and C, made once per package run by whichever test
// asks first. It moves funds to and from a fresh key A, so A's history is
// exactly what the scenario did, and it records after every step what the
// node said A held then: the tests ask avadata for balances "at" those past
// times and compare with the node's answers of that moment.

// primaryScenarioTimeout bounds the scenario (about a minute in practice:
// 13 txs, each waiting for acceptance and for the next second to begin).
const primaryScenarioTimeout = 4 * time.Minute

// scenarioTx is one transaction the scenario issued, as the wallet returned
// it and as the node located it after acceptance.
type scenarioTx struct {
	label string
	chain string // "P", "X" or "C"
	id    ids.ID
	// txType is the Data API txType the tx must have (PrimaryNetworkTxType).
	txType string
	// involvesA: A owns one of its inputs or outputs (or A's EVM address is
	// its EVM input/output), so it belongs in A's transaction list.
	involvesA bool
	memo      []byte
	// sourceChain/destinationChain are the counterparty chain of an
	// import/export (the tx's own chain for the other side), else empty.
	sourceChain, destinationChain ids.ID
	// The block that accepted it: height, time and (for P/X) the inner
	// block ID platform/avm.getBlockByHeight shows; for C the eth hash.
	height    uint64
	blockTime int64
	blockID   string
}

// balanceSnapshot is what the node said A held right after a step. Every
// block after it has a later time (the scenario waits for the next second
// before each step), so it is A's state "at" time.
type balanceSnapshot struct {
	label string
	time  int64
	// p is platform.getBalance of A.
	p truth.PBalance
	// x is avm.getAllBalances of A: unlocked, A-only outputs per asset ID.
	x map[ids.ID]uint64
	// utxos are A's UTXOs on "P" and "X" (getUTXOs without sourceChain):
	// what the per-bucket utxoCount comes from.
	utxos map[string][]truth.UTXO
	// atomic holds the UTXOs exported to A and not yet imported, by
	// destination chain ("P", "X", "C") and then source chain ID.
	atomic map[string]map[ids.ID][]truth.UTXO
}

// primaryScenario is the shared activity and what was recorded about it.
type primaryScenario struct {
	keyA *secp256k1.PrivateKey
	addr ids.ShortID       // A's short ID
	evm  ethcommon.Address // A's EVM address (C-chain import target, export source)
	hrp  string            // "local"

	avax, asset               ids.ID // AVAX and the asset the scenario created
	assetName, assetSymbol    string
	assetDenomination         byte
	pChain, xChain, cChain    ids.ID
	lockTime                  uint64 // locktime of the locked P outputs (far future)
	lockedPlatform, lockedStk uint64 // amounts sent to A with that locktime

	txs       []*scenarioTx
	snapshots []balanceSnapshot
	start     time.Time
	took      time.Duration
}

// bech32 is A's address without a chain prefix ("local1...").
func (s *primaryScenario) bech32(t *testing.T) string {
	t.Helper()
	a, err := address.FormatBech32(s.hrp, s.addr.Bytes())
	require.NoError(t, err)
	return a
}

// chainAddr is A's address with a chain prefix ("P-local1...").
func (s *primaryScenario) chainAddr(t *testing.T, chain string) string {
	return chain + "-" + s.bech32(t)
}

// txsOn returns the scenario's txs on chain, optionally only A's.
func (s *primaryScenario) txsOn(chain string, onlyA bool) []*scenarioTx {
	var out []*scenarioTx
	for _, tx := range s.txs {
		if tx.chain == chain && (!onlyA || tx.involvesA) {
			out = append(out, tx)
		}
	}
	return out
}

// chainID returns the blockchain ID of "P", "X" or "C".
func (s *primaryScenario) chainID(chain string) ids.ID {
	return map[string]ids.ID{"P": s.pChain, "X": s.xChain, "C": s.cChain}[chain]
}

// primaryScenarioFixture returns the shared scenario, running it on first
// use.
func primaryScenarioFixture(t *testing.T) *primaryScenario {
	t.Helper()
	return env.primary.Get(t, "the primary-network scenario", func() *primaryScenario { return runPrimaryScenario(t) })
}

// TestPrimaryScenario runs the scenario and prints what it recorded,
// without asking avadata anything: it proves the wallet operations and the
// node reads work on their own.
func TestPrimaryScenario(t *testing.T) {
	s := primaryScenarioFixture(t)
	t.Logf("A = %s (%s), EVM %s; asset %s (%s); scenario took %v",
		s.bech32(t), s.addr, s.evm, s.asset, s.assetSymbol, s.took.Round(time.Millisecond))
	for _, tx := range s.txs {
		t.Logf("%-28s %s %-13s %s height %d time %d block %s involvesA=%v src=%s dst=%s",
			tx.label, tx.chain, tx.txType, tx.id, tx.height, tx.blockTime, tx.blockID, tx.involvesA, tx.sourceChain, tx.destinationChain)
	}
	checkGroundTruth(t, s)
	for _, snap := range s.snapshots {
		t.Logf("snapshot %-28s t=%d P=%+v X=%v", snap.label, snap.time, snap.p, snap.x)
		for dest, bySource := range snap.atomic {
			for src, utxos := range bySource {
				for _, u := range utxos {
					t.Logf("    atomic %s<-%s %s %d of %s locktime %d", dest, src, u.ID, u.Amount, u.Asset, u.Locktime)
				}
			}
		}
	}
}

// checkGroundTruth runs the node-side readers the avadata tests compare
// with, so a mistake in them shows here and not as an avadata failure: the
// index API's containers wrap the blocks getBlockByHeight shows, every tx
// balances (inputs = outputs + fee), and the snapshots classify.
func checkGroundTruth(t *testing.T, s *primaryScenario) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, chain := range []string{"P", "X", "C"} {
		blocks := truth.IndexedBlocks(t, ctx, env.URI(t), chain)
		signed := 0
		for _, b := range blocks {
			if b.Proposer != ids.EmptyNodeID {
				signed++
			}
		}
		t.Logf("%s: %d indexed blocks, %d signed by a proposer", chain, len(blocks), signed)
		for _, tx := range s.txsOn(chain, false) {
			if chain != "C" {
				require.Equal(t, tx.blockID, blocks[tx.height-1].InnerID, "%s: index container %d", tx, tx.height-1)
				n := truth.GetTx(t, ctx, env.URI(t), chain, tx.id)
				var in, out uint64
				for _, i := range n.Ins {
					if i.Asset == s.avax {
						in += i.Amount
					}
				}
				for _, o := range n.Outs {
					if o.Asset == s.avax {
						out += o.Amount
					}
				}
				t.Logf("%s: %d inputs, %d outputs, AVAX fee %d, memo %q, outer block %s proposer %s",
					tx, len(n.Ins), len(n.Outs), in-out, n.Memo, blocks[tx.height-1].OuterID, blocks[tx.height-1].Proposer)
				continue
			}
			atx := truth.AtomicTx(t, ctx, env.URI(t), tx.id)
			require.Equal(t, tx.blockID, blocks[tx.height-1].InnerID, "%s: index container %d", tx, tx.height-1)
			t.Logf("%s: %T, outer block %s proposer %s", tx, atx.UnsignedAtomicTx, blocks[tx.height-1].OuterID, blocks[tx.height-1].Proposer)
		}
	}
	for _, snap := range s.snapshots {
		for _, chain := range []string{"P", "X", "C"} {
			expectedBalances(t, s, snap, chain)
		}
	}
}

// scenarioRun is the state of running the scenario.
type scenarioRun struct {
	*primaryScenario
	t    *testing.T
	ctx  context.Context
	ewoq *primary.Wallet // EWOQ's wallet: funds A
	a    *primary.Wallet // A's wallet: A's own moves
	// cursor is the last P/X height already searched for scenario txs.
	cursor map[string]uint64
}

func runPrimaryScenario(t *testing.T) *primaryScenario {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), primaryScenarioTimeout)
	defer cancel()
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	s := &primaryScenario{
		keyA: key, addr: key.Address(), evm: key.EthAddress(), hrp: constants.GetHRP(constants.LocalID),
		assetName: "Avadata Primary Coin", assetSymbol: "APC", assetDenomination: 3,
		start: time.Now(),
	}
	r := &scenarioRun{primaryScenario: s, t: t, ctx: ctx, cursor: map[string]uint64{}}
	ewoqKC := secp256k1fx.NewKeychain(genesis.EWOQKey)
	r.ewoq, err = primary.MakeWallet(ctx, env.URI(t), ewoqKC, ewoqKC, primary.WalletConfig{})
	require.NoError(t, err, "EWOQ wallet")
	xCtx := r.ewoq.X().Builder().Context()
	s.avax, s.xChain = xCtx.AVAXAssetID, xCtx.BlockchainID
	s.pChain = constants.PlatformChainID
	s.cChain = r.ewoq.C().Builder().Context().BlockchainID
	for _, chain := range []string{"P", "X"} {
		r.cursor[chain] = truth.Height(t, ctx, env.URI(t), chain)
	}
	// A has no history yet: the first snapshot says so, at a time before
	// any of A's blocks.
	r.snapshot("before any activity", time.Now().Unix())
	r.waitNextSecond(time.Now().Unix())

	r.fundA()
	// A's own wallet is made once A has funds on X: it reads A's UTXOs,
	// and from then on tracks them itself, atomic memory included.
	aKC := secp256k1fx.NewKeychain(key)
	r.a, err = primary.MakeWallet(ctx, env.URI(t), aKC, aKC, primary.WalletConfig{})
	require.NoError(t, err, "A's wallet")
	r.crossChain()
	r.lockedOnP()
	s.took = time.Since(s.start)
	t.Logf("primary scenario: %d txs, %d snapshots in %v", len(s.txs), len(s.snapshots), s.took.Round(time.Millisecond))
	return s
}

func (r *scenarioRun) opts(extra ...common.Option) []common.Option {
	return append([]common.Option{common.WithContext(r.ctx), common.WithPollFrequency(20 * time.Millisecond)}, extra...)
}

func (r *scenarioRun) ownerA() secp256k1fx.OutputOwners {
	return secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{r.addr}}
}

func (r *scenarioRun) out(asset ids.ID, amount uint64) *avax.TransferableOutput {
	return &avax.TransferableOutput{
		Asset: avax.Asset{ID: asset},
		Out:   &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: r.ownerA()},
	}
}

// fundA: X transfers from EWOQ to A (one with a memo, one with two outputs
// for A), a new asset that A does not take part in creating, and some of it
// to A.
func (r *scenarioRun) fundA() {
	t := r.t
	memo := []byte("avadata e2e: first transfer to A")
	tx, err := r.ewoq.X().IssueBaseTx([]*avax.TransferableOutput{r.out(r.avax, 3*units.Avax)},
		r.opts(common.WithMemo(memo))...)
	require.NoError(t, err, "X transfer 1")
	r.record(&scenarioTx{label: "X transfer 1 (memo)", chain: "X", id: tx.ID(), txType: "BaseTx", involvesA: true, memo: memo})

	tx, err = r.ewoq.X().IssueBaseTx([]*avax.TransferableOutput{
		r.out(r.avax, units.Avax+1), r.out(r.avax, units.Avax+2),
	}, r.opts()...)
	require.NoError(t, err, "X transfer 2")
	r.record(&scenarioTx{label: "X transfer 2 (two outputs)", chain: "X", id: tx.ID(), txType: "BaseTx", involvesA: true})

	ewoqOwner := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}}
	tx, err = r.ewoq.X().IssueCreateAssetTx(r.assetName, r.assetSymbol, r.assetDenomination, map[uint32][]verify.State{
		0: {&secp256k1fx.TransferOutput{Amt: 1_000_000, OutputOwners: ewoqOwner}},
	}, r.opts()...)
	require.NoError(t, err, "CreateAssetTx")
	r.asset = tx.ID()
	r.record(&scenarioTx{label: "X create asset", chain: "X", id: tx.ID(), txType: "CreateAssetTx"})

	tx, err = r.ewoq.X().IssueBaseTx([]*avax.TransferableOutput{r.out(r.asset, 12_345)}, r.opts()...)
	require.NoError(t, err, "X asset transfer")
	r.record(&scenarioTx{label: "X asset to A", chain: "X", id: tx.ID(), txType: "BaseTx", involvesA: true})
}

// crossChain: A moves its own AVAX X→P, P→C, C→X, each imported, then
// exports C→P and X→C that nobody imports, so P's and C's atomic memory
// hold something of A's at the end.
func (r *scenarioRun) crossChain() {
	t := r.t
	owner := r.ownerA()
	xtx, err := r.a.X().IssueExportTx(r.pChain, []*avax.TransferableOutput{r.out(r.avax, 1500*units.MilliAvax)}, r.opts()...)
	require.NoError(t, err, "X export to P")
	r.record(&scenarioTx{label: "X export to P", chain: "X", id: xtx.ID(), txType: "ExportTx", involvesA: true,
		sourceChain: r.xChain, destinationChain: r.pChain})

	ptx, err := r.a.P().IssueImportTx(r.xChain, &owner, r.opts()...)
	require.NoError(t, err, "P import from X")
	r.record(&scenarioTx{label: "P import from X", chain: "P", id: ptx.ID(), txType: "ImportTx", involvesA: true,
		sourceChain: r.xChain, destinationChain: r.pChain})

	ptx, err = r.a.P().IssueExportTx(r.cChain, []*avax.TransferableOutput{r.out(r.avax, 600*units.MilliAvax)}, r.opts()...)
	require.NoError(t, err, "P export to C")
	r.record(&scenarioTx{label: "P export to C", chain: "P", id: ptx.ID(), txType: "ExportTx", involvesA: true,
		sourceChain: r.pChain, destinationChain: r.cChain})

	ctx, err := r.a.C().IssueImportTx(r.pChain, r.evm, r.opts()...)
	require.NoError(t, err, "C import from P")
	r.record(&scenarioTx{label: "C import from P", chain: "C", id: ctx.ID(), txType: "ImportTx", involvesA: true,
		sourceChain: r.pChain, destinationChain: r.cChain})

	exportC := func(dest ids.ID, amount uint64) ids.ID {
		tx, err := r.a.C().IssueExportTx(dest, []*secp256k1fx.TransferOutput{{Amt: amount, OutputOwners: owner}}, r.opts()...)
		require.NoError(t, err, "C export to %s", dest)
		return tx.ID()
	}
	r.record(&scenarioTx{label: "C export to X", chain: "C", id: exportC(r.xChain, 200*units.MilliAvax), txType: "ExportTx",
		involvesA: true, sourceChain: r.cChain, destinationChain: r.xChain})

	xtx, err = r.a.X().IssueImportTx(r.cChain, &owner, r.opts()...)
	require.NoError(t, err, "X import from C")
	r.record(&scenarioTx{label: "X import from C", chain: "X", id: xtx.ID(), txType: "ImportTx", involvesA: true,
		sourceChain: r.cChain, destinationChain: r.xChain})

	r.record(&scenarioTx{label: "C export to P (unimported)", chain: "C", id: exportC(r.pChain, 100*units.MilliAvax),
		txType: "ExportTx", involvesA: true, sourceChain: r.cChain, destinationChain: r.pChain})

	xtx, err = r.a.X().IssueExportTx(r.cChain, []*avax.TransferableOutput{r.out(r.avax, 300*units.MilliAvax)}, r.opts()...)
	require.NoError(t, err, "X export to C")
	r.record(&scenarioTx{label: "X export to C (unimported)", chain: "X", id: xtx.ID(), txType: "ExportTx", involvesA: true,
		sourceChain: r.xChain, destinationChain: r.cChain})
}

// lockedOnP: a P-chain BaseTx from EWOQ to A with one output locked at the
// platform level and one stake-locked, both until an hour from now (so they
// stay locked for the whole run), and one unlocked.
func (r *scenarioRun) lockedOnP() {
	t := r.t
	r.lockTime = uint64(time.Now().Add(time.Hour).Unix())
	r.lockedPlatform, r.lockedStk = 250*units.MilliAvax, 350*units.MilliAvax
	platformLocked := r.ownerA()
	platformLocked.Locktime = r.lockTime
	outs := []*avax.TransferableOutput{
		{Asset: avax.Asset{ID: r.avax}, Out: &secp256k1fx.TransferOutput{Amt: r.lockedPlatform, OutputOwners: platformLocked}},
		{Asset: avax.Asset{ID: r.avax}, Out: &stakeable.LockOut{Locktime: r.lockTime,
			TransferableOut: &secp256k1fx.TransferOutput{Amt: r.lockedStk, OutputOwners: r.ownerA()}}},
		r.out(r.avax, 150*units.MilliAvax),
	}
	// No memo: the P-chain refuses memos since Durango ("memo exceeds
	// maximum length: 12 > 0").
	tx, err := r.ewoq.P().IssueBaseTx(outs, r.opts()...)
	require.NoError(t, err, "P BaseTx with locked outputs")
	r.record(&scenarioTx{label: "P locked outputs to A", chain: "P", id: tx.ID(), txType: "BaseTx", involvesA: true})
}

// record locates an accepted tx's block on the node, snapshots A's balances
// and waits for the next second, so that the snapshot is A's state at the
// tx's block time.
func (r *scenarioRun) record(tx *scenarioTx) {
	t := r.t
	t.Helper()
	switch tx.chain {
	case "C":
		tx.height, tx.blockTime, tx.blockID = truth.LocateAtomicTx(t, r.ctx, env.URI(r.t), tx.id)
	default:
		tx.height, tx.blockTime, tx.blockID = r.locateTx(tx.chain, tx.id)
	}
	r.txs = append(r.txs, tx)
	r.snapshot(tx.label, tx.blockTime)
	r.waitNextSecond(tx.blockTime)
}

// locateTx finds the P/X block holding txID, searching the blocks after the
// last one found (the scenario's txs are accepted in order).
func (r *scenarioRun) locateTx(chain string, txID ids.ID) (height uint64, blockTime int64, blockID string) {
	t := r.t
	t.Helper()
	head := truth.Height(t, r.ctx, env.URI(r.t), chain)
	for h := r.cursor[chain] + 1; h <= head; h++ {
		b := truth.SnowmanBlockTxs(t, r.ctx, env.URI(r.t), chain, h)
		for _, id := range b.TxIDs {
			if id == txID {
				r.cursor[chain] = h
				return h, b.Time, b.ID
			}
		}
	}
	t.Fatalf("%s tx %s is accepted but not in %s blocks %d..%d", chain, txID, chain, r.cursor[chain]+1, head)
	return 0, 0, ""
}

// snapshot records A's balances as the node reports them now, as A's state
// at time at.
func (r *scenarioRun) snapshot(label string, at int64) {
	t := r.t
	t.Helper()
	snap := balanceSnapshot{label: label, time: at, atomic: map[string]map[ids.ID][]truth.UTXO{}, utxos: map[string][]truth.UTXO{}}
	for _, chain := range []string{"P", "X"} {
		snap.utxos[chain] = truth.UTXOs(t, r.ctx, env.URI(r.t), chain, "", r.chainAddr(t, chain))
	}
	snap.p = truth.BalanceOnP(t, r.ctx, env.URI(r.t), r.chainAddr(t, "P"))
	snap.x = truth.BalancesOnX(t, r.ctx, env.URI(r.t), r.chainAddr(t, "X"), r.avax)
	for _, dest := range []string{"P", "X", "C"} {
		snap.atomic[dest] = map[ids.ID][]truth.UTXO{}
		for _, src := range []string{"P", "X", "C"} {
			if src == dest {
				continue
			}
			snap.atomic[dest][r.chainID(src)] = truth.AtomicUTXOs(t, r.ctx, env.URI(r.t), dest, src, r.chainAddr(t, dest))
		}
	}
	r.snapshots = append(r.snapshots, snap)
}

// waitNextSecond returns once the wall clock is past second ts, so the
// next block's time is later than ts.
func (r *scenarioRun) waitNextSecond(ts int64) {
	d := time.Until(time.Unix(ts+1, 0))
	if d <= 0 {
		return
	}
	select {
	case <-r.ctx.Done():
		r.t.Fatalf("scenario: %v", r.ctx.Err())
	case <-time.After(d):
	}
}

// String names the tx in failure messages.
func (tx *scenarioTx) String() string {
	return fmt.Sprintf("%s (%s %s %s)", tx.label, tx.chain, tx.txType, tx.id)
}
