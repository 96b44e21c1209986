package primary

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// getAssetDetails and listAssetTransactions (GET .../blockchains/x-chain/
// assets/{assetId}[/transactions]) for AVAX, the scenario's fixed-cap asset
// and a variable-cap asset this file creates and mints, against the node:
// avm.getAssetDescription, the CreateAssetTx the node's bytes decode to,
// and the set of X-chain txs that touch the asset, found by decoding every
// tx of every X block the node holds.

// assetDetails is XChainAssetDetails.
type assetDetails struct {
	AssetID            string `json:"assetId"`
	Name               string `json:"name"`
	Symbol             string `json:"symbol"`
	Denomination       int    `json:"denomination"`
	Type               string `json:"type"`
	CreatedAtTimestamp int64  `json:"createdAtTimestamp"`
	Cap                string `json:"cap"`
}

// xTxOnNode is an X-chain tx as the node holds it: where and when, and what
// its bytes decode to.
type xTxOnNode struct {
	id     ids.ID
	height uint64
	time   int64
	tx     nodeTx
}

// touches reports whether the tx consumes, emits or creates asset.
func (x *xTxOnNode) touches(asset ids.ID) bool {
	return x.tx.assets[asset] || (x.tx.created != nil && x.id == asset)
}

// xChainTxsOnNode decodes every tx of X blocks 1..head, and the genesis
// CreateAssetTx of AVAX (height 0, at the network's start time), oldest
// first.
func xChainTxsOnNode(t *testing.T, ctx context.Context, avax ids.ID) []*xTxOnNode {
	t.Helper()
	out := []*xTxOnNode{{id: avax, time: int64(genesis.GetConfig(constants.LocalID).StartTime), tx: decodeNodeTx(t, ctx, "X", avax)}}
	head := truth.Height(t, ctx, env.URI(t), "X")
	for h := uint64(1); h <= head; h++ {
		b := truth.SnowmanBlockTxs(t, ctx, env.URI(t), "X", h)
		for _, id := range b.TxIDs {
			out = append(out, &xTxOnNode{id: id, height: h, time: b.Time, tx: decodeNodeTx(t, ctx, "X", id)})
		}
	}
	return out
}

// variableAsset is the variable-cap asset this file makes: a CreateAssetTx
// with a mint output and some units for EWOQ, then a mint of more to a
// fresh key.
type variableAsset struct {
	id, mint ids.ID
}

func issueVariableAsset(t *testing.T, ctx context.Context) variableAsset {
	t.Helper()
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, env.URI(t), kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "EWOQ wallet")
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	ewoq := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}}
	tx, err := w.X().IssueCreateAssetTx("Avadata Variable Coin", "AVC", 2, map[uint32][]verify.State{
		0: {&secp256k1fx.MintOutput{OutputOwners: ewoq}, &secp256k1fx.TransferOutput{Amt: 500, OutputOwners: ewoq}},
	}, opts...)
	require.NoError(t, err, "CreateAssetTx with a mint output")
	v := variableAsset{id: tx.ID()}
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	mint, err := w.X().IssueOperationTxMintFT(map[ids.ID]*secp256k1fx.TransferOutput{
		v.id: {Amt: 250, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}},
	}, opts...)
	require.NoError(t, err, "mint of the variable-cap asset")
	v.mint = mint.ID()
	waitPrimaryIndexed(t, ctx)
	return v
}

// assetDescription is avm.getAssetDescription of asset.
func assetDescription(t *testing.T, ctx context.Context, asset ids.ID) assetDetails {
	t.Helper()
	var reply struct {
		AssetID      ids.ID        `json:"assetID"`
		Name         string        `json:"name"`
		Symbol       string        `json:"symbol"`
		Denomination avajson.Uint8 `json:"denomination"`
	}
	require.NoError(t, truth.Call(ctx, env.URI(t)+"/ext/bc/X", "avm.getAssetDescription", map[string]any{"assetID": asset.String()}, &reply))
	require.Equal(t, asset, reply.AssetID, "avm.getAssetDescription")
	return assetDetails{AssetID: asset.String(), Name: reply.Name, Symbol: reply.Symbol, Denomination: int(reply.Denomination)}
}

// listAssetTxs pages through listAssetTransactions with q and returns the
// txHashes in order, failing on a repeated one.
func listAssetTxs(t *testing.T, ctx context.Context, asset ids.ID, q url.Values) []string {
	t.Helper()
	listed := rawListingOrdered(t, ctx, "X", "assets/"+asset.String()+"/transactions", q)
	out := make([]string, len(listed))
	for i, tx := range listed {
		out[i] = tx["txHash"].(string)
	}
	return out
}

// TestPrimaryAssets: for AVAX, the scenario's asset and a variable-cap one,
// getAssetDetails is the node's description with the cap and creation of
// the CreateAssetTx in the node's bytes, and listAssetTransactions lists,
// newest first and with each filter, exactly the X-chain txs the node holds
// that touch the asset.
func TestPrimaryAssets(t *testing.T) {
	s, ctx := primaryFixture(t)
	variable := issueVariableAsset(t, ctx)
	onNode := xChainTxsOnNode(t, ctx, s.avax)
	byID := map[ids.ID]*xTxOnNode{}
	for _, x := range onNode {
		byID[x.id] = x
	}
	require.Contains(t, byID, variable.mint, "the mint is in an X block")

	for _, asset := range []ids.ID{s.avax, s.asset, variable.id} {
		t.Run(asset.String(), func(t *testing.T) {
			create := byID[asset]
			require.NotNil(t, create, "the node holds the CreateAssetTx %s", asset)
			require.NotNil(t, create.tx.created, "%s is a CreateAssetTx on the node", asset)

			var got assetDetails
			harness.GetOK(t, ctx, primaryURL(t, "x-chain", "assets/"+asset.String(), nil), &got)
			want := assetDescription(t, ctx, asset)
			want.Type, want.CreatedAtTimestamp, want.Cap = "secp256k1", create.time, "fixed"
			if create.tx.mints {
				want.Cap = "variable"
			}
			require.Equal(t, want, got, "getAssetDetails of %s: avm.getAssetDescription, the creating tx's block time and outputs", asset)
			require.Equal(t, create.tx.created.Name, got.Name, "the name in the node's CreateAssetTx bytes")
			switch asset {
			case s.asset:
				require.Equal(t, "fixed", got.Cap)
				i := slices.IndexFunc(s.txsOn("X", false), func(tx *scenarioTx) bool { return tx.id == s.asset })
				require.Equal(t, s.txsOn("X", false)[i].blockTime, got.CreatedAtTimestamp, "the scenario's CreateAssetTx block time")
			case variable.id:
				require.Equal(t, "variable", got.Cap)
			}

			// Every tx of the node that touches the asset, newest first.
			var touching []*xTxOnNode
			for _, x := range onNode {
				if x.touches(asset) {
					touching = append(touching, x)
				}
			}
			slices.Reverse(touching)
			hashes := func(keep func(*xTxOnNode) bool) []string {
				out := []string{}
				for _, x := range touching {
					if keep == nil || keep(x) {
						out = append(out, x.id.String())
					}
				}
				return out
			}
			t.Logf("asset %s (%s, cap %s, created %d): %d of the node's %d X-chain txs touch it",
				asset, got.Symbol, got.Cap, got.CreatedAtTimestamp, len(touching), len(onNode))
			require.Equal(t, hashes(nil), listAssetTxs(t, ctx, asset, url.Values{"pageSize": {"7"}}), "the asset's txs, pageSize 7")
			require.Equal(t, hashes(nil), listAssetTxs(t, ctx, asset, url.Values{"pageSize": {"100"}}), "the asset's txs, pageSize 100")
			if len(touching) <= 20 {
				require.Equal(t, hashes(nil), listAssetTxs(t, ctx, asset, url.Values{"pageSize": {"1"}}), "the asset's txs, pageSize 1")
				for _, item := range rawListingOrdered(t, ctx, "X", "assets/"+asset.String()+"/transactions", nil) {
					id, err := ids.FromString(item["txHash"].(string))
					require.NoError(t, err)
					got, _ := getTxByHash(t, ctx, "X", id)
					requireMatchesNodeBytes(t, "X", id, byID[id].tx, got)
				}
			}
			for _, types := range [][]string{{"BaseTx"}, {"CreateAssetTx", "OperationTx"}, {"ImportTx", "ExportTx"}, {"AddValidatorTx"}} {
				q := url.Values{"txTypes": {strings.Join(types, ",")}, "pageSize": {"100"}}
				require.Equal(t, hashes(func(x *xTxOnNode) bool { return slices.Contains(types, x.tx.txType) }),
					listAssetTxs(t, ctx, asset, q), "txTypes=%v", types)
			}
			// Windows over the txs' own times, bounds inclusive.
			first, last := touching[len(touching)-1].time, touching[0].time
			for _, w := range [][2]int64{{first, last}, {first, first}, {last, last}, {first + 1, last}, {(first + last) / 2, last}} {
				if w[0] > w[1] {
					continue // all in one second
				}
				q := url.Values{"startTimestamp": {strconv.FormatInt(w[0], 10)}, "endTimestamp": {strconv.FormatInt(w[1], 10)}, "pageSize": {"100"}}
				require.Equal(t, hashes(func(x *xTxOnNode) bool { return x.time >= w[0] && x.time <= w[1] }),
					listAssetTxs(t, ctx, asset, q), "window [%d, %d]", w[0], w[1])
			}
		})
	}
}

// TestPrimaryAssetsBadInput: each bad input of the two asset operations
// gets the spec's error body.
func TestPrimaryAssetsBadInput(t *testing.T) {
	s, ctx := primaryFixture(t)
	asset := s.asset.String()
	notAsset := s.txsOn("X", true)[0].id.String() // a BaseTx
	unknown := ids.GenerateTestID().String()
	txs := "assets/" + asset + "/transactions"
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v
	}
	cases := []struct {
		name, url string
		status    int
		mentions  string
	}{
		{"malformed assetId", primaryURL(t, "x-chain", "assets/AVAX", nil), http.StatusBadRequest, "assetId"},
		{"malformed assetId, transactions", primaryURL(t, "x-chain", "assets/AVAX/transactions", nil), http.StatusBadRequest, "assetId"},
		{"P-chain", primaryURL(t, "p-chain", "assets/"+asset, nil), http.StatusBadRequest, "blockchainId"},
		{"C-chain, transactions", primaryURL(t, "c-chain", txs, nil), http.StatusBadRequest, "blockchainId"},
		{"unknown asset", primaryURL(t, "x-chain", "assets/"+unknown, nil), http.StatusNotFound, unknown},
		{"a tx that creates no asset", primaryURL(t, "x-chain", "assets/"+notAsset, nil), http.StatusNotFound, notAsset},
		{"unknown asset, transactions", primaryURL(t, "x-chain", "assets/"+unknown+"/transactions", nil), http.StatusNotFound, unknown},
		{"unknown txType", primaryURL(t, "x-chain", txs, q("txTypes", "TeleportTx")), http.StatusBadRequest, "txTypes"},
		{"start after end", primaryURL(t, "x-chain", txs, q("startTimestamp", "200", "endTimestamp", "100")), http.StatusBadRequest, "Timestamp"},
		{"negative startTimestamp", primaryURL(t, "x-chain", txs, q("startTimestamp", "-1")), http.StatusBadRequest, "startTimestamp"},
		{"pageSize 0", primaryURL(t, "x-chain", txs, q("pageSize", "0")), http.StatusBadRequest, "pageSize"},
		{"pageSize 101", primaryURL(t, "x-chain", txs, q("pageSize", "101")), http.StatusBadRequest, "pageSize"},
		{"garbage pageToken", primaryURL(t, "x-chain", txs, q("pageToken", "garbage")), http.StatusBadRequest, "pageToken"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			harness.RequireErrorBody(t, harness.GetWithRetryAfter(t, ctx, c.url), c.status, c.mentions)
		})
	}
	// A token of one asset's listing does not continue another's.
	var page struct {
		NextPageToken string `json:"nextPageToken"`
	}
	harness.GetOK(t, ctx, primaryURL(t, "x-chain", txs, q("pageSize", "1")), &page)
	require.NotEmpty(t, page.NextPageToken, "the scenario's asset has two txs")
	other := primaryURL(t, "x-chain", "assets/"+s.avax.String()+"/transactions", q("pageSize", "1", "pageToken", page.NextPageToken))
	harness.RequireErrorBody(t, harness.GetWithRetryAfter(t, ctx, other), http.StatusBadRequest, "pageToken")
}
