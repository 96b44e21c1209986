package nodeapi

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// End-to-end checks of avalanchego's X-chain (avm) API on the node hosting
// avadata. The ground truth is the transactions issued here: a BaseTx that
// pays a fresh address three outputs, and a P-chain export to that address,
// whose UTXO waits in shared memory until it is imported.

// avmAmounts are the recipient's outputs of the BaseTx, in nAVAX.
var avmAmounts = []uint64{1_000_001, 2_000_002, 3_000_003}

// avmAtomicAmount is what the P-chain exports to the recipient on X.
const avmAtomicAmount uint64 = 4_000_004

// avmFixture is what was issued, as the wallet built it.
type avmFixture struct {
	g         localGenesis
	wallet    *primary.Wallet // EWOQ's
	key       *secp256k1.PrivateKey
	addr      string // the recipient's X address, X-local1...
	baseTxID  ids.ID
	baseBytes []byte
	utxos     map[ids.ID]uint64 // the recipient's X UTXOs: ID -> amount
	exportID  ids.ID            // the P-chain export to the recipient
	xURL      string
}

func (f *avmFixture) opts(ctx context.Context) []common.Option {
	return []common.Option{common.WithContext(ctx), common.WithPollFrequency(10 * time.Millisecond)}
}

func (f *avmFixture) call(t *testing.T, ctx context.Context, method string, params any) map[string]json.RawMessage {
	t.Helper()
	return jsonObject(t, harness.CallRPC(t, ctx, f.xURL, method, params), method)
}

func (f *avmFixture) owner() *secp256k1fx.OutputOwners {
	return &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{f.key.Address()}}
}

func newAVMFixture(t *testing.T, ctx context.Context) *avmFixture {
	t.Helper()
	f := &avmFixture{g: readLocalGenesis(t), xURL: extURL(t, "bc/X"), utxos: map[ids.ID]uint64{}}
	var err error
	f.key, err = secp256k1.NewPrivateKey()
	require.NoError(t, err)
	f.addr, err = address.Format("X", constants.GetHRP(constants.LocalID), f.key.Address().Bytes())
	require.NoError(t, err)

	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	f.wallet, err = primary.MakeWallet(ctx, env.URI(t), kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "making the EWOQ wallet")
	require.Equal(t, f.g.xChainID, f.wallet.X().Builder().Context().BlockchainID)
	require.Equal(t, f.g.avaxAssetID, f.wallet.X().Builder().Context().AVAXAssetID)

	outs := make([]*avax.TransferableOutput, len(avmAmounts))
	for i, amt := range avmAmounts {
		outs[i] = &avax.TransferableOutput{
			Asset: avax.Asset{ID: f.g.avaxAssetID},
			Out:   &secp256k1fx.TransferOutput{Amt: amt, OutputOwners: *f.owner()},
		}
	}
	tx, err := f.wallet.X().IssueBaseTx(outs, f.opts(ctx)...)
	require.NoError(t, err, "X BaseTx")
	f.baseTxID, f.baseBytes = tx.ID(), tx.Bytes()
	// The wallet sorts the outputs; the UTXO IDs follow the final order.
	base, ok := tx.Unsigned.(*txs.BaseTx)
	require.True(t, ok, "IssueBaseTx made a %T", tx.Unsigned)
	for i, out := range base.Outs {
		if owned, ok := out.Out.(*secp256k1fx.TransferOutput); ok && slices.Contains(owned.Addrs, f.key.Address()) {
			utxoID := avax.UTXOID{TxID: tx.ID(), OutputIndex: uint32(i)}
			f.utxos[utxoID.InputID()] = owned.Amt
		}
	}
	require.Len(t, f.utxos, len(avmAmounts))

	ptx, err := f.wallet.P().IssueExportTx(f.g.xChainID, []*avax.TransferableOutput{{
		Asset: avax.Asset{ID: f.g.avaxAssetID},
		Out:   &secp256k1fx.TransferOutput{Amt: avmAtomicAmount, OutputOwners: *f.owner()},
	}}, f.opts(ctx)...)
	require.NoError(t, err, "P ExportTx to X")
	f.exportID = ptx.ID()
	return f
}

// decodeUTXOs decodes getUTXOs' hex strings.
func decodeUTXOs(t *testing.T, raw json.RawMessage) []*avax.UTXO {
	t.Helper()
	var out []*avax.UTXO
	for i, s := range jsonStrings(t, raw, "utxos") {
		b, err := formatting.Decode(formatting.Hex, s)
		require.NoError(t, err, "utxos[%d] is not 0x-hex: %q", i, s)
		var u avax.UTXO
		_, err = builder.Parser.Codec().Unmarshal(b, &u)
		require.NoError(t, err, "utxos[%d] is not a UTXO", i)
		out = append(out, &u)
	}
	return out
}

// getUTXOs calls avm.getUTXOs, checks the result's shape and returns the
// decoded UTXOs and endIndex.
func (f *avmFixture) getUTXOs(t *testing.T, ctx context.Context, params map[string]any) ([]*avax.UTXO, map[string]json.RawMessage) {
	t.Helper()
	obj := f.call(t, ctx, "avm.getUTXOs", params)
	// The API reference also lists an optional sourceChain; the node never
	// sends it.
	requireExactKeys(t, obj, "avm.getUTXOs", "numFetched", "utxos", "endIndex", "encoding")
	require.Equal(t, "hex", jsonString(t, obj["encoding"], "encoding"))
	utxos := decodeUTXOs(t, obj["utxos"])
	require.EqualValues(t, len(utxos), jsonDecimalString(t, obj["numFetched"], "numFetched"))
	end := jsonObject(t, obj["endIndex"], "endIndex")
	requireExactKeys(t, end, "endIndex", "address", "utxo")
	jsonString(t, end["address"], "endIndex.address")
	jsonString(t, end["utxo"], "endIndex.utxo")
	for _, u := range utxos { // each references one of the addresses
		out, ok := u.Out.(*secp256k1fx.TransferOutput)
		require.True(t, ok, "UTXO %s: %T", u.InputID(), u.Out)
		require.Contains(t, out.Addrs, f.key.Address(), "UTXO %s", u.InputID())
	}
	return utxos, end
}

func utxoAmounts(t *testing.T, utxos []*avax.UTXO) map[ids.ID]uint64 {
	t.Helper()
	m := map[ids.ID]uint64{}
	for _, u := range utxos {
		m[u.InputID()] = u.Out.(*secp256k1fx.TransferOutput).Amt
	}
	return m
}

func TestNodeAPIAVMMethods(t *testing.T) {
	ctx := nodeAPIContext(t, 3*time.Minute)
	f := newAVMFixture(t, ctx)
	var total uint64
	for _, amt := range f.utxos {
		total += amt
	}
	txFee := jsonDecimalString(t, f.call(t, ctx, "avm.getTxFee", nil)["txFee"], "txFee")

	t.Run("getTxFee", func(t *testing.T) {
		obj := f.call(t, ctx, "avm.getTxFee", map[string]any{})
		requireExactKeys(t, obj, "avm.getTxFee", "txFee", "createAssetTxFee")
		require.Positive(t, jsonDecimalString(t, obj["txFee"], "txFee"))
		jsonDecimalString(t, obj["createAssetTxFee"], "createAssetTxFee")
	})

	t.Run("getTxStatus", func(t *testing.T) {
		for id, want := range map[ids.ID]string{
			f.baseTxID:           "Accepted",
			ids.GenerateTestID(): "Unknown",
			f.exportID:           "Unknown",  // a P-chain tx
			f.g.avaxAssetID:      "Accepted", // the genesis asset creation
		} {
			obj := f.call(t, ctx, "avm.getTxStatus", map[string]string{"txID": id.String()})
			requireExactKeys(t, obj, "avm.getTxStatus", "status")
			require.Equal(t, want, jsonString(t, obj["status"], "status"), "tx %s", id)
		}
	})

	t.Run("getTx", func(t *testing.T) {
		for _, params := range []map[string]string{{"txID": f.baseTxID.String()}, {"txID": f.baseTxID.String(), "encoding": "hex"}} {
			obj := f.call(t, ctx, "avm.getTx", params)
			requireExactKeys(t, obj, "avm.getTx", "tx", "encoding")
			require.Equal(t, "hex", jsonString(t, obj["encoding"], "encoding"), "params %v", params)
			b, err := formatting.Decode(formatting.Hex, jsonString(t, obj["tx"], "tx"))
			require.NoError(t, err)
			require.Equal(t, f.baseBytes, b, "params %v", params)
		}
		obj := f.call(t, ctx, "avm.getTx", map[string]string{"txID": f.baseTxID.String(), "encoding": "json"})
		requireExactKeys(t, obj, "avm.getTx", "tx", "encoding")
		require.Equal(t, "json", jsonString(t, obj["encoding"], "encoding"))
		unsigned := requireJSONTx(t, obj["tx"], f.baseTxID, f.g)
		// Inputs minus outputs is the fee avm.getTxFee gives.
		var in, out uint64
		for _, el := range jsonArray(t, unsigned["inputs"], "inputs") {
			in += jsonInteger(t, jsonObject(t, jsonObject(t, el, "input")["input"], "input.input")["amount"], "input amount")
		}
		paid := map[uint64]int{}
		for _, el := range jsonArray(t, unsigned["outputs"], "outputs") {
			o := jsonObject(t, jsonObject(t, el, "output")["output"], "output.output")
			amt := jsonInteger(t, o["amount"], "output amount")
			out += amt
			if slices.Contains(jsonStrings(t, o["addresses"], "addresses"), f.addr) {
				paid[amt]++
			}
		}
		require.Equal(t, txFee, in-out, "fee paid by the BaseTx")
		for _, amt := range avmAmounts {
			require.Equal(t, 1, paid[amt], "output of %d to %s in %s", amt, f.addr, obj["tx"])
		}
		harness.CallRPCError(t, ctx, f.xURL, "avm.getTx", map[string]string{"txID": ids.GenerateTestID().String()})
	})

	t.Run("getHeight getBlock getBlockByHeight", func(t *testing.T) {
		height := jsonDecimalString(t, f.call(t, ctx, "avm.getHeight", nil)["height"], "height")
		require.Positive(t, height, "the BaseTx made a block")
		// Find the block holding the BaseTx, from the top down.
		var found map[string]json.RawMessage
		for h := height; h > 0 && found == nil; h-- {
			blk := f.blockByHeight(t, ctx, h)
			for _, tx := range jsonArray(t, blk["txs"], "txs") {
				if jsonString(t, jsonObject(t, tx, "block tx")["id"], "tx id") == f.baseTxID.String() {
					found = blk
				}
			}
		}
		require.NotNil(t, found, "no block up to height %d holds tx %s", height, f.baseTxID)
		h := jsonInteger(t, found["height"], "height")
		blkID := jsonString(t, found["id"], "id")
		// getBlock: the same block by ID, in both encodings.
		byID := f.call(t, ctx, "avm.getBlock", map[string]string{"blockID": blkID, "encoding": "json"})
		requireExactKeys(t, byID, "avm.getBlock", "block", "encoding")
		require.Equal(t, "json", jsonString(t, byID["encoding"], "encoding"))
		require.JSONEq(t, string(f.rawBlockByHeight(t, ctx, h)), string(byID["block"]))
		hexByHeight := f.hexBlock(t, ctx, "avm.getBlockByHeight", map[string]any{"height": strconv.FormatUint(h, 10)})
		for _, params := range []map[string]any{{"blockID": blkID}, {"blockID": blkID, "encoding": "hex"}} {
			require.Equal(t, hexByHeight, f.hexBlock(t, ctx, "avm.getBlock", params), "params %v", params)
		}
		// The hex bytes are the block: their hash is its ID.
		require.Equal(t, blkID, ids.ID(hashing.ComputeHash256Array(hexByHeight)).String())
		// The parent is the block one below.
		parent := f.blockByHeight(t, ctx, h-1)
		require.Equal(t, jsonString(t, parent["id"], "parent id"), jsonString(t, found["parentID"], "parentID"))
		harness.CallRPCError(t, ctx, f.xURL, "avm.getBlockByHeight", map[string]any{"height": strconv.FormatUint(height+1000, 10)})
		harness.CallRPCError(t, ctx, f.xURL, "avm.getBlock", map[string]any{"blockID": ids.GenerateTestID().String()})
	})

	t.Run("getBalance getAllBalances", func(t *testing.T) {
		for _, asset := range []string{f.g.avaxAssetID.String(), "AVAX"} {
			obj := f.call(t, ctx, "avm.getBalance", map[string]string{"address": f.addr, "assetID": asset})
			requireExactKeys(t, obj, "avm.getBalance", "balance", "utxoIDs")
			require.Equal(t, total, jsonDecimalString(t, obj["balance"], "balance"), "asset %s", asset)
			got := map[ids.ID]uint64{}
			for _, el := range jsonArray(t, obj["utxoIDs"], "utxoIDs") {
				u := jsonObject(t, el, "utxoID")
				requireExactKeys(t, u, "utxoID", "txID", "outputIndex")
				txID, err := ids.FromString(jsonString(t, u["txID"], "txID"))
				require.NoError(t, err)
				utxoID := avax.UTXOID{TxID: txID, OutputIndex: uint32(jsonInteger(t, u["outputIndex"], "outputIndex"))}
				got[utxoID.InputID()] = f.utxos[utxoID.InputID()]
			}
			require.Equal(t, f.utxos, got)
		}
		obj := f.call(t, ctx, "avm.getAllBalances", map[string]string{"address": f.addr})
		requireExactKeys(t, obj, "avm.getAllBalances", "balances")
		balances := jsonArray(t, obj["balances"], "balances")
		require.Len(t, balances, 1, "%s", obj["balances"])
		b := jsonObject(t, balances[0], "balance")
		requireExactKeys(t, b, "balance", "asset", "balance")
		// The asset is named by its primary alias, AVAX, not by its ID.
		require.Equal(t, "AVAX", jsonString(t, b["asset"], "asset"))
		require.Equal(t, total, jsonDecimalString(t, b["balance"], "balance"))
		// An address with nothing has no balances.
		empty, err := address.Format("X", constants.GetHRP(constants.LocalID), ids.GenerateTestShortID().Bytes())
		require.NoError(t, err)
		require.Empty(t, jsonArray(t, f.call(t, ctx, "avm.getAllBalances", map[string]string{"address": empty})["balances"], "balances"))
	})

	t.Run("getAssetDescription", func(t *testing.T) {
		for _, asset := range []string{"AVAX", f.g.avaxAssetID.String()} {
			obj := f.call(t, ctx, "avm.getAssetDescription", map[string]string{"assetID": asset})
			requireExactKeys(t, obj, "avm.getAssetDescription", "assetID", "name", "symbol", "denomination")
			require.Equal(t, f.g.avaxAssetID.String(), jsonString(t, obj["assetID"], "assetID"))
			require.Equal(t, "Avalanche", jsonString(t, obj["name"], "name"))
			require.Equal(t, "AVAX", jsonString(t, obj["symbol"], "symbol"))
			// An integer in the API reference; the node writes it as a
			// decimal string.
			require.EqualValues(t, 9, jsonDecimalString(t, obj["denomination"], "denomination"))
		}
	})

	t.Run("getUTXOs", func(t *testing.T) {
		for _, params := range []map[string]any{
			{"addresses": []string{f.addr}},
			{"addresses": []string{f.addr}, "encoding": "hex"},
			{"addresses": []string{f.addr}, "limit": 5000}, // over 1024: clamped
			{"addresses": []string{f.addr}, "sourceChain": "X"},
		} {
			utxos, _ := f.getUTXOs(t, ctx, params)
			require.Equal(t, f.utxos, utxoAmounts(t, utxos), "params %v", params)
		}
		// Paging with limit 1: pass endIndex back as startIndex until a
		// page comes back empty.
		got := map[ids.ID]uint64{}
		params := map[string]any{"addresses": []string{f.addr}, "limit": 1}
		for page := 0; ; page++ {
			require.Less(t, page, 10, "paging does not end")
			utxos, end := f.getUTXOs(t, ctx, params)
			require.LessOrEqual(t, len(utxos), 1)
			if len(utxos) == 0 {
				break
			}
			maps.Copy(got, utxoAmounts(t, utxos))
			require.Equal(t, utxos[0].InputID().String(), jsonString(t, end["utxo"], "endIndex.utxo"))
			require.Equal(t, f.addr, jsonString(t, end["address"], "endIndex.address"))
			params["startIndex"] = map[string]string{
				"address": jsonString(t, end["address"], "address"),
				"utxo":    jsonString(t, end["utxo"], "utxo"),
			}
		}
		require.Equal(t, f.utxos, got)

		harness.CallRPCError(t, ctx, f.xURL, "avm.getUTXOs", map[string]any{"addresses": []string{}})
		harness.CallRPCError(t, ctx, f.xURL, "avm.getUTXOs", map[string]any{"addresses": []string{f.addr}, "encoding": "json"})
	})

	t.Run("getUTXOs sourceChain", func(t *testing.T) {
		for _, source := range []string{"P", constants.PlatformChainID.String()} {
			utxos, _ := f.getUTXOs(t, ctx, map[string]any{"addresses": []string{f.addr}, "sourceChain": source})
			require.Len(t, utxos, 1, "atomic UTXOs from %s", source)
			require.Equal(t, f.exportID, utxos[0].TxID, "the atomic UTXO comes from the P-chain export")
			require.Equal(t, avmAtomicAmount, utxos[0].Out.(*secp256k1fx.TransferOutput).Amt)
		}
		utxos, _ := f.getUTXOs(t, ctx, map[string]any{"addresses": []string{f.addr}, "sourceChain": "C"})
		require.Empty(t, utxos)
	})

	// Last: these spend what the checks above count.
	t.Run("import and export txs", func(t *testing.T) {
		f.importAndExport(t, ctx, txFee)
	})
}

// rawBlockByHeight returns avm.getBlockByHeight's json-encoded block.
func (f *avmFixture) rawBlockByHeight(t *testing.T, ctx context.Context, h uint64) json.RawMessage {
	t.Helper()
	obj := f.call(t, ctx, "avm.getBlockByHeight", map[string]string{"height": strconv.FormatUint(h, 10), "encoding": "json"})
	requireExactKeys(t, obj, "avm.getBlockByHeight", "block", "encoding")
	require.Equal(t, "json", jsonString(t, obj["encoding"], "encoding"))
	return obj["block"]
}

// blockByHeight returns the json block at height h, its shape checked (the
// API reference does not give it).
func (f *avmFixture) blockByHeight(t *testing.T, ctx context.Context, h uint64) map[string]json.RawMessage {
	t.Helper()
	blk := jsonObject(t, f.rawBlockByHeight(t, ctx, h), "block")
	requireExactKeys(t, blk, "block", "parentID", "height", "time", "merkleRoot", "txs", "id")
	require.Equal(t, h, jsonInteger(t, blk["height"], "height"))
	jsonInteger(t, blk["time"], "time")
	for _, tx := range jsonArray(t, blk["txs"], "txs") {
		requireKeys(t, jsonObject(t, tx, "block tx"), "block tx", "unsignedTx", "credentials", "id")
	}
	return blk
}

// hexBlock calls a getBlock method that must answer in hex and returns the
// block's bytes.
func (f *avmFixture) hexBlock(t *testing.T, ctx context.Context, method string, params map[string]any) []byte {
	t.Helper()
	obj := f.call(t, ctx, method, params)
	requireExactKeys(t, obj, method, "block", "encoding")
	require.Equal(t, "hex", jsonString(t, obj["encoding"], "encoding"), "%s %v", method, params)
	b, err := formatting.Decode(formatting.Hex, jsonString(t, obj["block"], "block"))
	require.NoError(t, err, "%s %v", method, params)
	return b
}

// requireJSONTx checks an X-chain tx in encoding json and returns its
// unsignedTx.
func requireJSONTx(t *testing.T, raw json.RawMessage, wantID ids.ID, g localGenesis) map[string]json.RawMessage {
	t.Helper()
	tx := jsonObject(t, raw, "tx")
	requireExactKeys(t, tx, "tx", "unsignedTx", "credentials", "id")
	require.Equal(t, wantID.String(), jsonString(t, tx["id"], "id"))
	u := jsonObject(t, tx["unsignedTx"], "unsignedTx")
	requireKeys(t, u, "unsignedTx", "networkID", "blockchainID", "outputs", "inputs", "memo")
	require.EqualValues(t, constants.LocalID, jsonInteger(t, u["networkID"], "networkID"))
	require.Equal(t, g.xChainID.String(), jsonString(t, u["blockchainID"], "blockchainID"))
	require.True(t, strings.HasPrefix(jsonString(t, u["memo"], "memo"), "0x"), "memo is 0x-hex: %s", u["memo"])

	numInputs := 0
	for _, key := range []string{"inputs", "importedInputs"} {
		if _, ok := u[key]; !ok {
			continue
		}
		for _, el := range jsonArray(t, u[key], key) {
			requireJSONInput(t, el, key, g)
			numInputs++
		}
	}
	for _, key := range []string{"outputs", "exportedOutputs"} {
		if _, ok := u[key]; !ok {
			continue
		}
		for _, el := range jsonArray(t, u[key], key) {
			requireJSONOutput(t, el, key, g)
		}
	}
	// One credential per input.
	creds := jsonArray(t, tx["credentials"], "credentials")
	require.Len(t, creds, numInputs, "%s", raw)
	for _, c := range creds {
		cred := jsonObject(t, c, "credential")
		requireExactKeys(t, cred, "credential", "fxID", "credential")
		require.Equal(t, secp256k1fx.ID.String(), jsonString(t, cred["fxID"], "fxID"))
		inner := jsonObject(t, cred["credential"], "credential.credential")
		requireExactKeys(t, inner, "credential.credential", "signatures")
		for _, sig := range jsonStrings(t, inner["signatures"], "signatures") {
			require.Len(t, hexBytes(t, sig, "signature"), secp256k1.SignatureLen)
		}
	}
	return u
}

func requireJSONOutput(t *testing.T, raw json.RawMessage, what string, g localGenesis) {
	t.Helper()
	o := jsonObject(t, raw, what)
	requireExactKeys(t, o, what, "assetID", "fxID", "output")
	require.Equal(t, g.avaxAssetID.String(), jsonString(t, o["assetID"], "assetID"))
	require.Equal(t, secp256k1fx.ID.String(), jsonString(t, o["fxID"], "fxID"))
	out := jsonObject(t, o["output"], what+".output")
	requireExactKeys(t, out, what+".output", "addresses", "amount", "locktime", "threshold")
	require.NotEmpty(t, jsonStrings(t, out["addresses"], "addresses"))
	require.Positive(t, jsonInteger(t, out["amount"], "amount"))
	jsonInteger(t, out["locktime"], "locktime")
	require.Positive(t, jsonInteger(t, out["threshold"], "threshold"))
}

func requireJSONInput(t *testing.T, raw json.RawMessage, what string, g localGenesis) {
	t.Helper()
	in := jsonObject(t, raw, what)
	requireExactKeys(t, in, what, "txID", "outputIndex", "assetID", "fxID", "input")
	_, err := ids.FromString(jsonString(t, in["txID"], "txID"))
	require.NoError(t, err)
	jsonInteger(t, in["outputIndex"], "outputIndex")
	require.Equal(t, g.avaxAssetID.String(), jsonString(t, in["assetID"], "assetID"))
	require.Equal(t, secp256k1fx.ID.String(), jsonString(t, in["fxID"], "fxID"))
	input := jsonObject(t, in["input"], what+".input")
	requireExactKeys(t, input, what+".input", "amount", "signatureIndices")
	require.Positive(t, jsonInteger(t, input["amount"], "amount"))
	for _, idx := range jsonArray(t, input["signatureIndices"], "signatureIndices") {
		jsonInteger(t, idx, "signatureIndex")
	}
}

// balance is avm.getBalance of the recipient in AVAX.
func (f *avmFixture) balance(t *testing.T, ctx context.Context) uint64 {
	t.Helper()
	obj := f.call(t, ctx, "avm.getBalance", map[string]string{"address": f.addr, "assetID": "AVAX"})
	return jsonDecimalString(t, obj["balance"], "balance")
}

// importAndExport imports the atomic UTXO into X with the recipient's key,
// exports from X to P with EWOQ's, and checks the extra json members of
// both kinds of tx.
func (f *avmFixture) importAndExport(t *testing.T, ctx context.Context, txFee uint64) {
	t.Helper()
	before := f.balance(t, ctx)
	kc := secp256k1fx.NewKeychain(f.key)
	recipient, err := primary.MakeWallet(ctx, env.URI(t), kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "making the recipient's wallet")
	itx, err := recipient.X().IssueImportTx(constants.PlatformChainID, f.owner(), f.opts(ctx)...)
	require.NoError(t, err, "X ImportTx")

	obj := f.call(t, ctx, "avm.getTx", map[string]string{"txID": itx.ID().String(), "encoding": "json"})
	u := requireJSONTx(t, obj["tx"], itx.ID(), f.g)
	require.Equal(t, constants.PlatformChainID.String(), jsonString(t, member(t, u, "sourceChain", "import tx"), "sourceChain"))
	imported := jsonArray(t, member(t, u, "importedInputs", "import tx"), "importedInputs")
	require.Len(t, imported, 1)
	require.Equal(t, f.exportID.String(), jsonString(t, jsonObject(t, imported[0], "importedInput")["txID"], "txID"))
	require.Equal(t, "Accepted", jsonString(t, f.call(t, ctx, "avm.getTxStatus", map[string]string{"txID": itx.ID().String()})["status"], "status"))
	utxos, _ := f.getUTXOs(t, ctx, map[string]any{"addresses": []string{f.addr}, "sourceChain": "P"})
	require.Empty(t, utxos, "the atomic UTXO is spent")
	require.Equal(t, before+avmAtomicAmount-txFee, f.balance(t, ctx), "balance after importing %d", avmAtomicAmount)

	const exported = 1_000_000
	etx, err := f.wallet.X().IssueExportTx(constants.PlatformChainID, []*avax.TransferableOutput{{
		Asset: avax.Asset{ID: f.g.avaxAssetID},
		Out:   &secp256k1fx.TransferOutput{Amt: exported, OutputOwners: *f.owner()},
	}}, f.opts(ctx)...)
	require.NoError(t, err, "X ExportTx")
	obj = f.call(t, ctx, "avm.getTx", map[string]string{"txID": etx.ID().String(), "encoding": "json"})
	u = requireJSONTx(t, obj["tx"], etx.ID(), f.g)
	require.Equal(t, constants.PlatformChainID.String(), jsonString(t, member(t, u, "destinationChain", "export tx"), "destinationChain"))
	outs := jsonArray(t, member(t, u, "exportedOutputs", "export tx"), "exportedOutputs")
	require.Len(t, outs, 1)
	out := jsonObject(t, jsonObject(t, outs[0], "exportedOutput")["output"], "exportedOutput.output")
	require.EqualValues(t, exported, jsonInteger(t, out["amount"], "amount"))
}
