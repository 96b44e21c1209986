package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const xAssetsPath = "/v1/networks/local/blockchains/x-chain/assets/"

// Two X-chain assets beside the fixtures: Coin (variable cap: its
// CreateAssetTx at height 3 hands out a mint output) with a transfer of it
// at height 4 and a burn of some at height 5, and Gold (fixed cap) created
// at height 6. Coin's fees are paid in AVAX.
var (
	coinAsset = ids.ID{'c', 'o', 'i', 'n'}
	goldAsset = ids.ID{'g', 'o', 'l', 'd'}
	coinMove  = ids.ID{'m', 'o', 'v', 'e'}
	coinBurn  = ids.ID{'b', 'u', 'r', 'n'}
)

func withAssets(t *testing.T) *handlertest.Fakes {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	f := fakes.Primary
	coin := func(tx ids.ID, idx uint32, amount, height uint64) pdata.IndexedUTXO {
		u := handlertest.NewUTXO(netinfo.X, tx, idx, handlertest.PAlice, amount, height)
		u.Asset = coinAsset
		return u
	}
	fee := handlertest.NewUTXO(netinfo.X, ids.ID{'f'}, 0, handlertest.PAlice, 1_000_000, 0)
	minted, mint := coin(coinAsset, 0, 1_000, 3), coin(coinAsset, 1, 0, 3)
	mint.OutputType = "secp256k1fx.MintOutput"
	f.AssetList[coinAsset] = pdata.Asset{ID: coinAsset, Name: "Coin", Symbol: "CN", Denomination: 2, Type: "secp256k1"}
	f.AddTx(handlertest.IndexedTx(netinfo.X, 3, 0, &pdata.Tx{ID: coinAsset, Type: "CreateAssetTx",
		Asset: &pdata.Asset{ID: coinAsset, Name: "Coin", Symbol: "CN", Denomination: 2, Type: "secp256k1"}},
		[]pdata.IndexedUTXO{fee}, []pdata.IndexedUTXO{minted, mint}))
	f.AddTx(handlertest.IndexedTx(netinfo.X, 4, 0, &pdata.Tx{ID: coinMove, Type: "BaseTx"},
		[]pdata.IndexedUTXO{minted}, []pdata.IndexedUTXO{coin(coinMove, 0, 1_000, 4)}))
	f.AddTx(handlertest.IndexedTx(netinfo.X, 5, 0, &pdata.Tx{ID: coinBurn, Type: "BaseTx"},
		[]pdata.IndexedUTXO{coin(coinMove, 0, 1_000, 4)}, []pdata.IndexedUTXO{coin(coinBurn, 0, 400, 5)}))
	gold := handlertest.NewUTXO(netinfo.X, goldAsset, 0, handlertest.PBob, 5, 6)
	gold.Asset = goldAsset
	f.AssetList[goldAsset] = pdata.Asset{ID: goldAsset, Name: "Gold", Symbol: "AU", Type: "secp256k1"}
	f.AddTx(handlertest.IndexedTx(netinfo.X, 6, 0, &pdata.Tx{ID: goldAsset, Type: "CreateAssetTx",
		Asset: &pdata.Asset{ID: goldAsset, Name: "Gold", Symbol: "AU", Type: "secp256k1"}}, nil, []pdata.IndexedUTXO{gold}))
	return fakes
}

func TestGetAssetDetails(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withAssets(t))
	require.Equal(t, map[string]any{
		"assetId": coinAsset.String(), "name": "Coin", "symbol": "CN", "denomination": float64(2), "type": "secp256k1",
		"createdAtTimestamp": float64(handlertest.BlockTime(3)), "cap": "variable",
	}, srv.GetBody(t, xAssetsPath+coinAsset.String()))
	gold := srv.GetBody(t, xAssetsPath+goldAsset.String())
	require.Equal(t, "fixed", gold["cap"])
	require.Equal(t, float64(handlertest.BlockTime(6)), gold["createdAtTimestamp"])

	// The same object a CreateAssetTx shows as assetCreated.
	created := srv.GetBody(t, xTxsPath+"/"+coinAsset.String())
	require.Equal(t, created["assetCreated"], srv.GetBody(t, xAssetsPath+coinAsset.String()))
}

func TestGetAssetDetailsErrors(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withAssets(t))
	unknown := ids.ID{'n', 'o'}.String()
	handlertest.RequireDataError(t, srv.Get(t, xAssetsPath+unknown), http.StatusNotFound, "asset "+unknown, "not found")
	// A tx that is not a CreateAssetTx, an asset the index describes but
	// whose creation it does not hold (the fixtures' AVAX): not found.
	handlertest.RequireDataError(t, srv.Get(t, xAssetsPath+coinMove.String()), http.StatusNotFound, "asset")
	handlertest.RequireDataError(t, srv.Get(t, xAssetsPath+fakenet.AVAXAssetID.String()), http.StatusNotFound, "asset")
	handlertest.RequireDataError(t, srv.Get(t, xAssetsPath+"AVAX"), http.StatusBadRequest, "assetId", "AVAX")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/networks/local/blockchains/p-chain/assets/"+coinAsset.String()),
		http.StatusBadRequest, "blockchainId")
}
