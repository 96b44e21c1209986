package primary

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	avmtxs "github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	xbuilder "github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// getTxByHash (GET .../blockchains/{blockchainId}/transactions/{txHash})
// for every tx of the primary scenario on P, X and C, against the node:
// the fields the node's getTx (json) shows, the tx the node's own bytes
// decode to with avalanchego's codecs, and the object the transactions
// listing shows for the same tx.

// nodeTx is a P or X tx decoded from the bytes the node's getTx returns.
type nodeTx struct {
	txType string
	// consumed and emitted map UTXO IDs to amounts (0 for outputs without
	// one, as a mint output); emitted in output index order: outputs,
	// initial states or operation outputs, then exported outputs.
	consumed, emitted   map[string]uint64
	memo                []byte
	source, destination ids.ID
	// assets are every asset the tx consumes or emits.
	assets map[ids.ID]bool
	// mints: the tx hands out a mint output (a CreateAssetTx of a
	// variable-cap asset, or a mint operation's new mint output).
	mints bool
	// created is the asset a CreateAssetTx creates (its own ID).
	created *avmtxs.CreateAssetTx
}

// nodeTxBytes reads a P or X tx's signed bytes with getTx (hex).
func nodeTxBytes(t *testing.T, ctx context.Context, chain string, id ids.ID) []byte {
	t.Helper()
	var reply struct {
		Tx string `json:"tx"`
	}
	method := map[string]string{"P": "platform.getTx", "X": "avm.getTx"}[chain]
	require.NoError(t, truth.Call(ctx, env.URI(t)+"/ext/bc/"+chain, method, map[string]any{"txID": id, "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Tx)
	require.NoError(t, err, "%s %s", method, id)
	return b
}

// decodeNodeTx decodes the node's bytes of a P or X tx and checks that they
// are the tx of that ID.
func decodeNodeTx(t *testing.T, ctx context.Context, chain string, id ids.ID) nodeTx {
	t.Helper()
	b := nodeTxBytes(t, ctx, chain, id)
	n := nodeTx{consumed: map[string]uint64{}, emitted: map[string]uint64{}, assets: map[ids.ID]bool{}}
	consume := func(ins []*avax.TransferableInput) {
		for _, in := range ins {
			n.consumed[in.InputID().String()] = in.In.Amount()
			n.assets[in.AssetID()] = true
		}
	}
	emit := func(index int, asset ids.ID, out any) {
		amount := uint64(0)
		if a, ok := out.(interface{ Amount() uint64 }); ok {
			amount = a.Amount()
		}
		switch out.(type) {
		case *secp256k1fx.MintOutput, *nftfx.MintOutput:
			n.mints = true
		}
		n.emitted[id.Prefix(uint64(index)).String()] = amount
		n.assets[asset] = true
	}
	if chain == "P" {
		tx, err := txs.Parse(txs.Codec, b)
		require.NoError(t, err, "platform tx %s", id)
		require.Equal(t, id, tx.ID(), "the node's bytes are the tx %s", id)
		var base *avax.BaseTx
		var exported []*avax.TransferableOutput
		switch u := tx.Unsigned.(type) {
		case *txs.BaseTx:
			n.txType, base = "BaseTx", &u.BaseTx
		case *txs.ImportTx:
			n.txType, base, n.source = "ImportTx", &u.BaseTx.BaseTx, u.SourceChain
			consume(u.ImportedInputs)
		case *txs.ExportTx:
			n.txType, base, n.destination, exported = "ExportTx", &u.BaseTx.BaseTx, u.DestinationChain, u.ExportedOutputs
		default:
			t.Fatalf("P tx %s: the scenario makes no %T", id, u)
		}
		consume(base.Ins)
		n.memo = base.Memo
		for i, o := range append(append([]*avax.TransferableOutput{}, base.Outs...), exported...) {
			emit(i, o.AssetID(), o.Out)
		}
		return n
	}
	tx, err := xbuilder.Parser.ParseGenesisTx(b) // the genesis codec reads every tx, genesis ones too
	require.NoError(t, err, "avm tx %s", id)
	require.Equal(t, id, tx.ID(), "the node's bytes are the tx %s", id)
	var base *avax.BaseTx
	var exported []*avax.TransferableOutput
	switch u := tx.Unsigned.(type) {
	case *avmtxs.BaseTx:
		n.txType, base = "BaseTx", &u.BaseTx
	case *avmtxs.CreateAssetTx:
		n.txType, base, n.created = "CreateAssetTx", &u.BaseTx.BaseTx, u
	case *avmtxs.OperationTx:
		n.txType, base = "OperationTx", &u.BaseTx.BaseTx
		for _, op := range u.Ops {
			for _, utxo := range op.UTXOIDs {
				n.consumed[utxo.InputID().String()] = 0 // a mint output has no amount
				n.assets[op.AssetID()] = true
			}
		}
	case *avmtxs.ImportTx:
		n.txType, base, n.source = "ImportTx", &u.BaseTx.BaseTx, u.SourceChain
		consume(u.ImportedIns)
	case *avmtxs.ExportTx:
		n.txType, base, n.destination, exported = "ExportTx", &u.BaseTx.BaseTx, u.DestinationChain, u.ExportedOuts
	default:
		t.Fatalf("X tx %s: unexpected %T", id, u)
	}
	consume(base.Ins)
	n.memo = base.Memo
	// avm's own list of what the tx keeps on the X-chain (outputs, then
	// initial states or operation outputs), then the exports.
	utxos := tx.UTXOs()
	for _, u := range utxos {
		emit(int(u.OutputIndex), u.AssetID(), u.Out)
	}
	for i, o := range exported {
		emit(len(base.Outs)+i, o.AssetID(), o.Out)
	}
	return n
}

// requireMatchesNodeBytes compares a tx reply with the tx the node's bytes
// decode to: type, consumed and emitted UTXOs with their amounts, memo and
// the two chains of an import or export.
func requireMatchesNodeBytes(t *testing.T, chain string, id ids.ID, n nodeTx, got dataapi.PrimaryTx) {
	t.Helper()
	what := chain + " tx " + id.String()
	sc := &scenarioTx{label: what, chain: chain, id: id}
	require.Equal(t, id.String(), got.TxHash, "%s: txHash", what)
	require.Equal(t, n.txType, got.TxType, "%s: txType (node bytes: %s)", what, n.txType)
	require.Equal(t, n.consumed, listedUTXOAmounts(t, sc, "consumedUtxos", got.ConsumedUTXOs), "%s: consumed UTXOs = the inputs of the node's bytes", what)
	require.Equal(t, n.emitted, listedUTXOAmounts(t, sc, "emittedUtxos", got.EmittedUTXOs), "%s: emitted UTXOs = the outputs of the node's bytes", what)
	if len(n.memo) > 0 {
		require.Equal(t, hexutil.Encode(n.memo), got.Memo, "%s: memo", what)
	} else {
		require.Contains(t, []string{"", "0x"}, got.Memo, "%s: memo of a tx without one", what)
	}
	switch n.txType {
	case "ImportTx":
		require.Equal(t, n.source.String(), got.SourceChain, "%s: sourceChain", what)
	case "ExportTx":
		require.Equal(t, n.destination.String(), got.DestinationChain, "%s: destinationChain", what)
	default:
		require.Empty(t, got.SourceChain, "%s: sourceChain", what)
		require.Empty(t, got.DestinationChain, "%s: destinationChain", what)
	}
}

// getTxByHash fetches one tx, decoded and raw.
func getTxByHash(t *testing.T, ctx context.Context, chain string, id ids.ID) (dataapi.PrimaryTx, map[string]any) {
	t.Helper()
	var raw map[string]any
	harness.GetOK(t, ctx, primaryURL(t, chainAlias(chain), "transactions/"+id.String(), nil), &raw)
	b, err := json.Marshal(raw)
	require.NoError(t, err)
	var tx dataapi.PrimaryTx
	require.NoError(t, json.Unmarshal(b, &tx))
	return tx, raw
}

// rawListingOrdered pages through a tx listing and returns its items raw,
// in order, failing on a repeated txHash.
func rawListingOrdered(t *testing.T, ctx context.Context, chain, rest string, q url.Values) []map[string]any {
	t.Helper()
	var out []map[string]any
	seen := map[string]bool{}
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s %s: paging does not end", chain, rest)
		var page struct {
			Transactions  []map[string]any `json:"transactions"`
			NextPageToken string           `json:"nextPageToken"`
		}
		harness.GetOK(t, ctx, primaryURL(t, chainAlias(chain), rest, q), &page)
		for _, tx := range page.Transactions {
			hash := tx["txHash"].(string)
			require.False(t, seen[hash], "%s %s %v: %s repeated across pages", chain, rest, q, hash)
			seen[hash] = true
			out = append(out, tx)
		}
		if page.NextPageToken == "" {
			return out
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

// rawListing is rawListingOrdered by txHash.
func rawListing(t *testing.T, ctx context.Context, chain, rest string, q url.Values) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, tx := range rawListingOrdered(t, ctx, chain, rest, q) {
		out[tx["txHash"].(string)] = tx
	}
	return out
}

// TestPrimaryTxByHash: every tx of the scenario, read by its hash, is the
// tx the node holds (getTx json fields and the decoded bytes; on C the
// atomic tx avax.getAtomicTx returns, decoded with coreth's codec), and the
// very object the listings show for it.
func TestPrimaryTxByHash(t *testing.T) {
	s, ctx := primaryFixture(t)
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			var blocks []truth.IndexedBlock
			if chain != "C" {
				blocks = truth.IndexedBlocks(t, ctx, env.URI(t), chain)
			}
			listedA := rawListing(t, ctx, chain, "transactions", url.Values{"addresses": {s.addressFor(t, chain)}, "pageSize": {"100"}})
			var listedAsset map[string]map[string]any
			if chain == "X" {
				listedAsset = rawListing(t, ctx, chain, "assets/"+s.asset.String()+"/transactions", url.Values{"pageSize": {"100"}})
			}
			scTxs := s.txsOn(chain, false)
			require.NotEmpty(t, scTxs)
			for _, sc := range scTxs {
				got, raw := getTxByHash(t, ctx, chain, sc.id)
				checkPrimaryTx(t, ctx, s, sc, got, blocks)
				if chain != "C" {
					requireMatchesNodeBytes(t, chain, sc.id, decodeNodeTx(t, ctx, chain, sc.id), got)
				}
				t.Logf("%s: by hash = node (getTx json, bytes) = listing item", sc)
				switch listed, ok := listedA[sc.id.String()]; {
				case ok:
					require.Equal(t, listed, raw, "%s: getTxByHash = the transactions listing's item", sc)
				case sc.txType == "CreateAssetTx":
					require.Equal(t, listedAsset[sc.id.String()], raw, "%s: getTxByHash = the asset listing's item", sc)
					require.Equal(t, s.asset.String(), raw["assetCreated"].(map[string]any)["assetId"], "%s: assetCreated", sc)
				default:
					require.False(t, sc.involvesA, "%s: in A's listing", sc)
				}
			}
		})
	}
}

// TestPrimaryTxByHashDAG: the local network was born linear, so it has no
// DAG-era X-chain txs to read by hash; this says so from the node's vertex
// index (avadata's vertex listing is read from it), so that a network that
// has some is noticed.
func TestPrimaryTxByHashDAG(t *testing.T) {
	_, ctx := primaryFixture(t)
	var page struct {
		Vertices []map[string]any `json:"vertices"`
	}
	harness.GetOK(t, ctx, primaryURL(t, "x-chain", "vertices", nil), &page)
	require.Empty(t, page.Vertices, "the local network has DAG vertices: getTxByHash of their txs is not proven here")
	t.Log("the local network has no DAG-era X-chain txs (no vertices); getTxByHash of a non-linear tx is proven by unit tests only")
}

// TestPrimaryTxByHashBadInput: malformed hashes are 400s, unknown ones and
// those of another chain 404s, each with the spec's error body.
func TestPrimaryTxByHashBadInput(t *testing.T) {
	s, ctx := primaryFixture(t)
	xTx := s.txsOn("X", true)[0].id.String()
	pTx := s.txsOn("P", true)[0].id.String()
	unknown := ids.GenerateTestID().String()
	cases := []struct {
		name, url string
		status    int
		mentions  string
	}{
		{"malformed hash", primaryURL(t, "x-chain", "transactions/not-a-hash", nil), http.StatusBadRequest, "txHash"},
		{"hex hash", primaryURL(t, "p-chain", "transactions/"+hexutil.Encode(make([]byte, 32)), nil), http.StatusBadRequest, "txHash"},
		{"unknown chain", primaryURL(t, "d-chain", "transactions/"+xTx, nil), http.StatusBadRequest, "blockchainId"},
		{"unknown hash", primaryURL(t, "x-chain", "transactions/"+unknown, nil), http.StatusNotFound, unknown},
		{"X tx on the P-chain", primaryURL(t, "p-chain", "transactions/"+xTx, nil), http.StatusNotFound, "x-chain transaction"},
		{"P tx on the C-chain", primaryURL(t, "c-chain", "transactions/"+pTx, nil), http.StatusNotFound, "p-chain transaction"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			harness.RequireErrorBody(t, harness.GetWithRetryAfter(t, ctx, c.url), c.status, c.mentions)
		})
	}
}
