package primary

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

func assetTxHashes(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, tx := range handlertest.Objects(t, body["transactions"]) {
		out = append(out, tx["txHash"].(string))
	}
	return out
}

func TestListAssetTransactions(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withAssets(t))
	path := xAssetsPath + coinAsset.String() + "/transactions"
	body := srv.GetBody(t, path)
	require.Equal(t, map[string]any{"chainName": "x-chain", "network": "local"}, body["chainInfo"])
	require.NotContains(t, body, "nextPageToken")
	all := []string{coinBurn.String(), coinMove.String(), coinAsset.String()}
	require.Equal(t, all, assetTxHashes(t, body), "newest first")
	byHash := txsByHash(t, body)
	for _, hash := range all {
		require.Equal(t, srv.GetBody(t, xTxsPath+"/"+hash), byHash[hash], "shaped as getTxByHash shapes it")
		requireKeys(t, byHash[hash], xTxRequired...)
	}

	require.Equal(t, []string{coinAsset.String()}, assetTxHashes(t, srv.GetBody(t, path+"?txTypes=CreateAssetTx")))
	require.Empty(t, assetTxHashes(t, srv.GetBody(t, path+"?txTypes=ImportTx,ExportTx")))
	window := "?startTimestamp=" + strconv.FormatInt(handlertest.BlockTime(4), 10) +
		"&endTimestamp=" + strconv.FormatInt(handlertest.BlockTime(4), 10)
	require.Equal(t, []string{coinMove.String()}, assetTxHashes(t, srv.GetBody(t, path+window)), "timestamps are inclusive")

	// pageSize 1 walks the same list, each page bound to its filters.
	var paged []string
	page := srv.GetBody(t, path+"?pageSize=1")
	for {
		paged = append(paged, assetTxHashes(t, page)...)
		if _, more := page["nextPageToken"]; !more {
			break
		}
		next := handlertest.WithToken(path+"?pageSize=1", page)
		page = srv.GetBody(t, next)
	}
	require.Equal(t, all, paged)
	first := srv.GetBody(t, path+"?pageSize=1")
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(path+"?pageSize=1&txTypes=BaseTx", first)),
		http.StatusBadRequest, "pageToken")

	// AVAX's X-chain txs: every fixture tx that moves AVAX, and Coin's
	// CreateAssetTx, which paid its fee in AVAX.
	avax := assetTxHashes(t, srv.GetBody(t, xAssetsPath+fakenet.AVAXAssetID.String()+"/transactions"))
	require.Contains(t, avax, coinAsset.String())
	require.Contains(t, avax, handlertest.FixtureTxID(netinfo.X, 2).String())
	require.NotContains(t, avax, coinMove.String())
}

func TestListAssetTransactionsErrors(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withAssets(t))
	path := xAssetsPath + coinAsset.String() + "/transactions"
	handlertest.RequireDataError(t, srv.Get(t, xAssetsPath+coinMove.String()+"/transactions"), http.StatusNotFound,
		"asset "+coinMove.String(), "not found")
	handlertest.RequireDataError(t, srv.Get(t, xAssetsPath+"x/transactions"), http.StatusBadRequest, "assetId")
	handlertest.RequireDataError(t, srv.Get(t, path+"?txTypes=TeleportTx"), http.StatusBadRequest, "txTypes", "TeleportTx")
	handlertest.RequireDataError(t, srv.Get(t, path+"?startTimestamp=200&endTimestamp=100"), http.StatusBadRequest, "Timestamp")
	handlertest.RequireDataError(t, srv.Get(t, path+"?pageSize=0"), http.StatusBadRequest, "pageSize")
	handlertest.RequireDataError(t, srv.Get(t, path+"?pageSize=101"), http.StatusBadRequest, "pageSize")
	handlertest.RequireDataError(t, srv.Get(t, path+"?pageToken=garbage"), http.StatusBadRequest, "pageToken")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/networks/local/blockchains/c-chain/assets/"+coinAsset.String()+"/transactions"),
		http.StatusBadRequest, "blockchainId")
}
