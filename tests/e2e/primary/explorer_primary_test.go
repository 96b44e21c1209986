package primary

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The explorer's primary-network pages in Chromium, on the primary
// scenario: what each page shows (blocks, txs with their consumed and
// emitted UTXOs, addresses, the asset) against the node's own answers
// (the index API, getBlockByHeight, getTx and the node's tx bytes,
// avax.getAtomicTx, getUTXOs, platform.getBalance / avm.getAllBalances,
// avm.getAssetDescription), formatted here from the node's raw values.

// explorerPage is the URL of an explorer page below the explorer's root.
func explorerPage(t *testing.T, path string) string {
	return env.Base(t) + "/explorer" + path
}

// openExplorerPage opens path, requires a 200 and a clean page.
func openExplorerPage(t *testing.T, b *harness.Browser, path string) {
	t.Helper()
	require.EqualValues(t, http.StatusOK, b.Open(t, explorerPage(t, path)), "GET %s", path)
	b.RequireClean(t)
}

// shownUTXO is a UTXO row of a page: its amount (raw and as shown) and owners.
type shownUTXO struct {
	amount string // the raw amount (data-amount)
	text   string // the amount as shown
	owners []string
}

// shownUTXOs reads the UTXO rows of the table of kind ("consumed",
// "emitted", "held") by UTXO ID.
func shownUTXOs(t *testing.T, b *harness.Browser, kind string) map[string]shownUTXO {
	t.Helper()
	rows := fmt.Sprintf(`table.primary-utxos[data-kind=%q] tr[data-utxo]`, kind)
	idsShown := b.Attrs(t, rows, "data-utxo")
	amounts := b.Attrs(t, rows+` td[data-field=amount] span.amount`, "data-amount")
	texts := b.Texts(t, rows+` td[data-field=amount] span.amount`)
	owners := b.Texts(t, rows+` td[data-field=owners]`)
	require.Len(t, amounts, len(idsShown), "%s rows: one amount each", kind)
	require.Len(t, owners, len(idsShown), "%s rows: one owners cell each", kind)
	out := map[string]shownUTXO{}
	for i, id := range idsShown {
		_, dup := out[id]
		require.False(t, dup, "%s UTXO %s shown twice", kind, id)
		out[id] = shownUTXO{amount: amounts[i], text: texts[i], owners: strings.Fields(owners[i])}
	}
	return out
}

// expectedUTXO is what the node says of one consumed or emitted UTXO.
type expectedUTXO struct {
	amount   uint64
	decimals int
	owners   []string // nil: not checked (consumed inputs name no owners)
}

// requireUTXOsShown compares a table's rows with the node's UTXOs.
func requireUTXOsShown(t *testing.T, what string, want map[string]expectedUTXO, got map[string]shownUTXO) {
	t.Helper()
	require.ElementsMatch(t, slices.Collect(mapKeys(want)), slices.Collect(mapKeys(got)), "%s: the UTXO IDs", what)
	for id, w := range want {
		g := got[id]
		require.Equal(t, strconv.FormatUint(w.amount, 10), g.amount, "%s %s: amount", what, id)
		require.Equal(t, harness.DecimalUnitsUint(w.amount, w.decimals), g.text, "%s %s: amount as shown", what, id)
		if w.owners != nil {
			require.ElementsMatch(t, w.owners, g.owners, "%s %s: owners", what, id)
		}
	}
}

// decimalsOf is the denomination of the scenario's assets.
func decimalsOf(s *primaryScenario, asset ids.ID) int {
	if asset == s.asset {
		return int(s.assetDenomination)
	}
	return 9
}

// nodeTxUTXOs is a P or X tx's consumed and emitted UTXOs as the node has
// them: amounts from its bytes (decodeNodeTx), owners of the outputs from
// getTx.
func nodeTxUTXOs(t *testing.T, ctx context.Context, s *primaryScenario, chain string, id ids.ID) (consumed, emitted map[string]expectedUTXO) {
	t.Helper()
	n := decodeNodeTx(t, ctx, chain, id)
	g := truth.GetTx(t, ctx, env.URI(t), chain, id)
	consumed, emitted = map[string]expectedUTXO{}, map[string]expectedUTXO{}
	assetOf := map[string]ids.ID{}
	for _, in := range g.Ins {
		assetOf[in.UTXOID.String()] = in.Asset
	}
	for utxo, amount := range n.consumed {
		consumed[utxo] = expectedUTXO{amount: amount, decimals: decimalsOf(s, assetOf[utxo])}
	}
	for _, out := range g.Outs {
		utxo := id.Prefix(uint64(out.Index)).String()
		amount, ok := n.emitted[utxo]
		require.True(t, ok, "%s tx %s: getTx output %d is no output of its bytes", chain, id, out.Index)
		owners := make([]string, len(out.Addrs))
		for i, a := range out.Addrs {
			_, owners[i], _ = strings.Cut(a, "-") // "X-local1..." → "local1..."
		}
		emitted[utxo] = expectedUTXO{amount: amount, decimals: decimalsOf(s, out.Asset), owners: owners}
	}
	require.Len(t, emitted, len(n.emitted), "%s tx %s: getTx shows every output", chain, id)
	return consumed, emitted
}

// scenarioTxLabeled is the scenario's tx of that label.
func scenarioTxLabeled(t *testing.T, s *primaryScenario, label string) *scenarioTx {
	t.Helper()
	for _, tx := range s.txs {
		if tx.label == label {
			return tx
		}
	}
	t.Fatalf("the scenario has no tx %q", label)
	return nil
}

// TestPrimaryExplorerBlocks: a P and an X block of the scenario show the
// height, ID, parent, proposer and txs the node's index API and
// getBlockByHeight give.
func TestPrimaryExplorerBlocks(t *testing.T) {
	s, ctx := primaryFixture(t)
	b := harness.NewBrowser(t, env.URI(t))
	for _, label := range []string{"P import from X", "X transfer 1 (memo)"} {
		tx := scenarioTxLabeled(t, s, label)
		alias := chainAlias(tx.chain)
		blocks := truth.IndexedBlocks(t, ctx, env.URI(t), tx.chain)
		want := blocks[tx.height-1]
		onNode := truth.SnowmanBlockTxs(t, ctx, env.URI(t), tx.chain, tx.height)
		require.Equal(t, want.InnerID, onNode.ID, "%s block %d: index API and getBlockByHeight", tx.chain, tx.height)

		// By height and by ID, the same block.
		for _, key := range []string{strconv.FormatUint(tx.height, 10), want.OuterID.String()} {
			openExplorerPage(t, b, "/"+alias+"/block/"+key)
			require.Equal(t, strconv.FormatUint(tx.height, 10), b.Text(t, `#block [data-field=height]`), "%s block %s", alias, key)
			require.Equal(t, want.OuterID.String(), b.Text(t, `#block [data-field=id]`), "%s block %s: ID", alias, key)
			require.Equal(t, want.ParentID.String(), b.Text(t, `#block [data-field=parent]`), "%s block %s: parent", alias, key)
			var txIDs []string
			for _, id := range onNode.TxIDs {
				txIDs = append(txIDs, id.String())
			}
			require.Equal(t, txIDs, b.Attrs(t, `ul.primary-block-txs a[data-tx]`, "data-tx"), "%s block %s: txs", alias, key)
			require.Equal(t, strconv.Itoa(len(txIDs)), b.Text(t, `#block [data-field=txCount]`))
			if want.Proposer != ids.EmptyNodeID {
				require.Equal(t, want.Proposer.String(), b.Text(t, `#block [data-field=proposer]`), "%s block %s: proposer", alias, key)
			}
		}
		b.Screenshot(t, map[string]string{"P": "p-block", "X": "x-block"}[tx.chain])
	}
}

// TestPrimaryExplorerTxs: P, X and C atomic txs of the scenario show their
// type, block, chains, memo, and the UTXOs they consumed and emitted (IDs,
// amounts in the asset's denomination, owners) as the node has them.
func TestPrimaryExplorerTxs(t *testing.T) {
	s, ctx := primaryFixture(t)
	b := harness.NewBrowser(t, env.URI(t))
	for _, label := range []string{"X transfer 1 (memo)", "X asset to A", "X export to P", "P import from X", "P locked outputs to A"} {
		tx := scenarioTxLabeled(t, s, label)
		alias := chainAlias(tx.chain)
		openExplorerPage(t, b, "/"+alias+"/tx/"+tx.id.String())
		require.Equal(t, tx.id.String(), b.Text(t, `#tx [data-field=id]`), label)
		require.Equal(t, tx.txType, b.Text(t, `#tx [data-field=type]`), label)
		require.Equal(t, strconv.FormatUint(tx.height, 10), b.Text(t, `#tx [data-field=block] a`), label)
		if tx.memo != nil {
			require.Equal(t, string(tx.memo), b.Text(t, `#tx [data-field=memo]`), label)
		}
		if tx.sourceChain != ids.Empty {
			require.Equal(t, []string{tx.sourceChain.String()}, b.Attrs(t, `#tx [data-field=source] a`, "title"), label)
			require.Equal(t, []string{tx.destinationChain.String()}, b.Attrs(t, `#tx [data-field=destination] a`, "title"), label)
		}
		consumed, emitted := nodeTxUTXOs(t, ctx, s, tx.chain, tx.id)
		requireUTXOsShown(t, label+" consumed", consumed, shownUTXOs(t, b, "consumed"))
		requireUTXOsShown(t, label+" emitted", emitted, shownUTXOs(t, b, "emitted"))
		t.Logf("%s: the page is %d bytes", label, len(b.HTML(t)))
		switch label {
		case "X transfer 1 (memo)":
			b.Screenshot(t, "x-tx")
		case "P locked outputs to A":
			b.Screenshot(t, "p-tx")
		}
	}

	for _, label := range []string{"C import from P", "C export to X"} {
		tx := scenarioTxLabeled(t, s, label)
		openExplorerPage(t, b, "/c-chain/tx/"+tx.id.String())
		require.Equal(t, tx.txType, b.Text(t, `#tx [data-field=type]`), label)
		require.Equal(t, strconv.FormatUint(tx.height, 10), b.Text(t, `#tx [data-field=block] a`), label)
		require.Equal(t, []string{tx.sourceChain.String()}, b.Attrs(t, `#tx [data-field=source] a`, "title"), label)
		atx := truth.AtomicTx(t, ctx, env.URI(t), tx.id)
		switch u := atx.UnsignedAtomicTx.(type) {
		case *atomic.UnsignedImportTx:
			consumed := map[string]expectedUTXO{}
			for _, in := range u.ImportedInputs {
				consumed[in.InputID().String()] = expectedUTXO{amount: in.In.Amount(), decimals: decimalsOf(s, in.AssetID())}
			}
			requireUTXOsShown(t, label+" consumed", consumed, shownUTXOs(t, b, "consumed"))
			var outs []string
			for _, o := range u.Outs {
				outs = append(outs, strings.ToLower(o.Address.Hex())+" "+harness.DecimalUnitsUint(o.Amount, 9))
			}
			var shown []string
			addrs := b.Attrs(t, `#evm-outputs tr[data-evm]`, "data-evm")
			amounts := b.Texts(t, `#evm-outputs tr[data-evm] span.amount`)
			require.Len(t, amounts, len(addrs))
			for i, a := range addrs {
				shown = append(shown, strings.ToLower(a)+" "+amounts[i])
			}
			require.ElementsMatch(t, outs, shown, "%s: EVM outputs", label)
			b.Screenshot(t, "c-atomic-tx")
		case *atomic.UnsignedExportTx:
			emitted := map[string]expectedUTXO{}
			for i, o := range u.ExportedOutputs {
				out, ok := o.Out.(*secp256k1fx.TransferOutput)
				require.True(t, ok, "%s: output %d is %T", label, i, o.Out)
				var owners []string
				for _, a := range out.Addrs {
					owners = append(owners, bech32Of(t, s.hrp, a))
				}
				emitted[tx.id.Prefix(uint64(i)).String()] = expectedUTXO{amount: out.Amt, decimals: decimalsOf(s, o.AssetID()), owners: owners}
			}
			requireUTXOsShown(t, label+" emitted", emitted, shownUTXOs(t, b, "emitted"))
		default:
			t.Fatalf("%s: %T", label, u)
		}
	}

	// A memo is untrusted text: shown as text, never markup.
	memoTx := issueMemoTx(t, ctx, s, `<script>alert("avadata")</script>`)
	openExplorerPage(t, b, "/x-chain/tx/"+memoTx.String())
	require.Equal(t, `<script>alert("avadata")</script>`, b.Text(t, `#tx [data-field=memo]`))
	require.Zero(t, b.Count(t, "script"), "no script element on the page")

	// On a phone's width the page needs no sideways scrolling.
	restore := b.PhoneWidth(t)
	openExplorerPage(t, b, "/x-chain/tx/"+scenarioTxLabeled(t, s, "X transfer 2 (two outputs)").id.String())
	require.True(t, b.FitsWidth(t), "the tx page fits a phone's width")
	restore()
}

// issueMemoTx sends 1 nAVAX on X from EWOQ to a fresh key with memo, and
// waits until avadata indexed it.
func issueMemoTx(t *testing.T, ctx context.Context, s *primaryScenario, memo string) ids.ID {
	t.Helper()
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, env.URI(t), kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "EWOQ wallet")
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	tx, err := w.X().IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: s.avax},
		Out: &secp256k1fx.TransferOutput{Amt: units.NanoAvax, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}}}},
		common.WithContext(ctx), common.WithPollFrequency(20*time.Millisecond), common.WithMemo([]byte(memo)))
	require.NoError(t, err, "X BaseTx with a memo")
	waitPrimaryIndexed(t, ctx)
	return tx.ID()
}

// TestPrimaryExplorerAddresses: A's address on P, X and C shows the
// balances the node gives (platform.getBalance, avm.getAllBalances and
// getUTXOs with sourceChain, classified as the balances tests do) in every
// category, the UTXO set of getUTXOs, paged with Next, and A's history:
// the scenario's txs of A the node accepted (on C, found by A's EVM
// address).
func TestPrimaryExplorerAddresses(t *testing.T) {
	s, ctx := primaryFixture(t)
	b := harness.NewBrowser(t, env.URI(t))
	now := nodeSnapshot(t, ctx, s, "now", time.Now().Unix())
	for _, chain := range []string{"P", "X", "C"} {
		alias, addr := chainAlias(chain), s.chainAddr(t, chain)
		openExplorerPage(t, b, "/"+alias+"/address/"+addr)
		require.Equal(t, addr, b.Text(t, "#address"))
		rows := `#balances tr[data-asset]`
		categories := b.Attrs(t, rows, "data-category")
		assets := b.Attrs(t, rows, "data-asset")
		shared := b.Attrs(t, rows, "data-shared")
		amounts := b.Attrs(t, rows+` span.amount`, "data-amount")
		texts := b.Texts(t, rows+` span.amount`)
		counts := b.Texts(t, rows+` td[data-field=utxoCount]`)
		require.Len(t, amounts, len(categories))
		got := balanceView{}
		for i, c := range categories {
			asset, err := ids.FromString(assets[i])
			require.NoError(t, err)
			amount, err := strconv.ParseUint(amounts[i], 10, 64)
			require.NoError(t, err)
			count, err := strconv.Atoi(counts[i])
			require.NoError(t, err)
			require.Equal(t, harness.DecimalUnitsUint(amount, decimalsOf(s, asset)), texts[i], "%s %s: amount as shown", chain, c)
			if got[c] == nil {
				got[c] = map[bucketKey]bucketValue{}
			}
			got[c][bucketKey{asset: asset, sharedWith: shared[i]}] = bucketValue{amount: amount, count: count}
		}
		requireSameBalances(t, expectedBalances(t, s, now, chain), got, "explorer "+chain)
		var every []string
		for _, c := range b.Attrs(t, `#balances tr[data-category]`, "data-category") {
			if !slices.Contains(every, c) {
				every = append(every, c)
			}
		}
		require.ElementsMatch(t, balanceCategories[chain], every, "%s: every category shows", chain)
		t.Logf("%s address page: %d bytes", chain, len(b.HTML(t)))
		if chain != "C" {
			b.Screenshot(t, map[string]string{"P": "p-address", "X": "x-address"}[chain])
		}

		// The UTXOs, two a page: the set getUTXOs gives, atomic memory included.
		var want []string
		for _, u := range nodeUTXOKeys(t, s.hrp, nodeUTXOs(t, ctx, chain, s.bech32(t))) {
			want = append(want, u.id.String())
		}
		openExplorerPage(t, b, "/"+alias+"/address/"+addr+"?"+url.Values{"tab": {"utxos"}, "pageSize": {"2"}}.Encode())
		var shown []string
		for pages := 0; ; pages++ {
			require.Less(t, pages, 50, "%s UTXO pages do not end", chain)
			shown = append(shown, b.Attrs(t, `table.primary-utxos tr[data-utxo]`, "data-utxo")...)
			if b.Count(t, `nav.pager a[rel=next]`) == 0 {
				break
			}
			require.EqualValues(t, http.StatusOK, b.Click(t, `nav.pager a[rel=next]`))
			b.RequireClean(t)
		}
		require.ElementsMatch(t, want, shown, "%s: A's UTXOs", chain)
		if chain != "C" {
			require.Greater(t, len(shown), 2, "%s: more than one page", chain)
		}

		historyOf := addr
		if chain == "C" {
			historyOf = s.evm.Hex()
		}
		openExplorerPage(t, b, "/"+alias+"/address/"+historyOf+"?tab=history")
		var wantTxs []string
		for _, tx := range s.txsOn(chain, true) {
			wantTxs = append(wantTxs, tx.id.String())
		}
		slices.Reverse(wantTxs) // newest first
		require.Equal(t, wantTxs, b.Attrs(t, `table.primary-txs tr[data-tx]`, "data-tx"), "%s: A's history", chain)
	}
}

// TestPrimaryExplorerAsset: the scenario's asset shows what
// avm.getAssetDescription says, and its transactions.
func TestPrimaryExplorerAsset(t *testing.T) {
	s, ctx := primaryFixture(t)
	b := harness.NewBrowser(t, env.URI(t))
	d := assetDescription(t, ctx, s.asset)
	openExplorerPage(t, b, "/x-chain/asset/"+s.asset.String())
	require.Equal(t, d.Name, b.Text(t, `#asset [data-field=name]`))
	require.Equal(t, d.Symbol, b.Text(t, `#asset [data-field=symbol]`))
	require.Equal(t, strconv.Itoa(d.Denomination), b.Text(t, `#asset [data-field=denomination]`))
	require.Equal(t, "fixed", b.Text(t, `#asset [data-field=cap]`))
	txs := b.Attrs(t, `table.primary-txs tr[data-tx]`, "data-tx")
	for _, label := range []string{"X create asset", "X asset to A"} {
		require.Contains(t, txs, scenarioTxLabeled(t, s, label).id.String())
	}
	b.Screenshot(t, "asset")
}

// TestPrimaryExplorerNavigation: a block leads to its tx, the tx to its
// owner's address, and back; the X-chain's blocks page with Next as the
// node's index API orders them.
func TestPrimaryExplorerNavigation(t *testing.T) {
	s, ctx := primaryFixture(t)
	b := harness.NewBrowser(t, env.URI(t))
	tx := scenarioTxLabeled(t, s, "X transfer 1 (memo)")
	blockPage := explorerPage(t, "/x-chain/block/"+strconv.FormatUint(tx.height, 10))
	openExplorerPage(t, b, "/x-chain/block/"+strconv.FormatUint(tx.height, 10))
	require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf(`ul.primary-block-txs a[data-tx=%q]`, tx.id.String())))
	b.RequireClean(t)
	txPage := explorerPage(t, "/x-chain/tx/"+tx.id.String())
	require.Equal(t, txPage, b.Location(t))
	require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf(`table[data-kind=emitted] a[data-address=%q]`, s.bech32(t))))
	b.RequireClean(t)
	require.Equal(t, explorerPage(t, "/x-chain/address/"+s.chainAddr(t, "X")), b.Location(t))
	require.Equal(t, s.chainAddr(t, "X"), b.Text(t, "#address"))
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, txPage, b.Location(t))
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, blockPage, b.Location(t))
	b.RequireClean(t)

	// The X-chain's latest blocks, two a page: the index API's, newest first.
	blocks := truth.IndexedBlocks(t, ctx, env.URI(t), "X")
	openExplorerPage(t, b, "/x-chain?pageSize=2")
	var heights, blockIDs []string
	for page := 0; page < 2; page++ {
		heights = append(heights, b.Attrs(t, `table.primary-blocks tr[data-block]`, "data-block")...)
		blockIDs = append(blockIDs, b.Attrs(t, `table.primary-blocks tr[data-block] td:nth-child(2) a`, "title")...)
		if page == 0 {
			require.EqualValues(t, http.StatusOK, b.Click(t, `nav.pager a[rel=next]`))
			b.RequireClean(t)
		}
	}
	require.GreaterOrEqual(t, len(blocks), 4, "X has blocks enough for two pages")
	var wantHeights, wantIDs []string
	for h := len(blocks); h > len(blocks)-4; h-- {
		wantHeights = append(wantHeights, strconv.Itoa(h))
		wantIDs = append(wantIDs, blocks[h-1].OuterID.String())
	}
	require.Equal(t, wantHeights, heights, "X blocks over two pages")
	require.Equal(t, wantIDs, blockIDs, "X block IDs over two pages")

	// The chain pages at their default size; C's lists its atomic txs.
	shots := map[string]string{"/p-chain": "p-chain", "/x-chain": "x-chain", "/c-chain": "c-chain"}
	for _, path := range []string{"/p-chain", "/p-chain?tab=transactions", "/x-chain", "/x-chain?tab=transactions", "/c-chain"} {
		openExplorerPage(t, b, path)
		t.Logf("%s: %d bytes", path, len(b.HTML(t)))
		require.Positive(t, b.Count(t, `tr[data-block], tr[data-tx]`), "%s lists something", path)
		if name, ok := shots[path]; ok {
			b.Screenshot(t, name)
		}
	}
	require.Contains(t, b.Attrs(t, `table.primary-txs tr[data-tx]`, "data-tx"),
		scenarioTxLabeled(t, s, "C export to P (unimported)").id.String())
}

// TestPrimaryExplorerStakingTx: the staking scenario's validator and
// delegator txs show the node ID (linked to its validator page), the stake
// period and weight getCurrentValidators gave while they were active, and
// the reward owner of the tx.
func TestPrimaryExplorerStakingTx(t *testing.T) {
	s, _ := stakingFixture(t)
	b := harness.NewBrowser(t, env.URI(t))
	shown := func(ts uint64) string { return time.Unix(int64(ts), 0).UTC().Format("2006-01-02 15:04:05 UTC") }
	for _, st := range s.stakers() {
		openExplorerPage(t, b, "/p-chain/tx/"+st.id.String())
		require.Equal(t, st.txType, b.Text(t, `#tx [data-field=type]`), st.label)
		require.Equal(t, st.nodeID.String(), b.Text(t, `#tx [data-field=node]`), st.label)
		require.Equal(t, []string{strings.TrimPrefix(explorerPage(t, "/validators/"+st.nodeID.String()), env.URI(t))},
			b.Attrs(t, `#tx a[data-field=node]`, "href"), st.label)
		require.Equal(t, shown(st.start)+" – "+shown(st.end), b.Text(t, `#tx [data-field=period]`), st.label)
		require.Equal(t, []string{strconv.FormatUint(st.weight, 10)}, b.Attrs(t, `#tx [data-field=staked] span.amount`, "data-amount"), st.label)
		require.Contains(t, b.Attrs(t, `#tx [data-field=rewardOwners] a`, "data-address"), bech32Of(t, s.hrp, st.rewardTo), st.label)
	}
}
