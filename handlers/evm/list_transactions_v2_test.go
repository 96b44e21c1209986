package evm

import (
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
)

var aliceTxsV2Path = "/v2/chains/43112/addresses/" + handlertest.EVMAddr + "/transactions"

// getV2 fetches a listTransactionsV2 page: a 200 JSON body whose only nulls
// are the ERC-20 tokens' tokenReputation (required, nullable).
func getV2(t *testing.T, srv *handlertest.API, path string) map[string]any {
	t.Helper()
	var body map[string]any
	handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &body)
	var stripped map[string]any
	handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &stripped)
	for _, entry := range handlertest.Objects(t, stripped["transactions"]) {
		if list, ok := entry["erc20Transfers"]; ok {
			for _, tr := range handlertest.Objects(t, list) {
				token := tr["erc20Token"].(map[string]any)
				require.Contains(t, token, "tokenReputation", "required in Erc20TokenV2")
				require.Nil(t, token["tokenReputation"], "unknown: avadata has no reputation source")
				delete(token, "tokenReputation")
			}
		}
	}
	handlertest.RequireNoNulls(t, stripped)
	return body
}

func TestListTransactionsV2(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	body := getV2(t, srv, aliceTxsV2Path)
	require.Equal(t, []string{"15", "14", "13", "12", "11", "10"}, handlertest.TxBlocks(t, body), "v1's entries, newest first")
	require.Equal(t, []string{"10", "11", "12", "13", "14", "15"}, handlertest.TxBlocks(t, getV2(t, srv, aliceTxsV2Path+"?sortOrder=asc")))
	require.Equal(t, []string{"13", "12"}, handlertest.TxBlocks(t, getV2(t, srv, aliceTxsV2Path+"?startBlock=12&endBlock=14")))

	entries := handlertest.Objects(t, body["transactions"])
	require.Equal(t, []string{"nativeTransaction"}, slices.Collect(maps.Keys(entries[1])), "a plain AVAX send has no lists")
	trade := entries[2]
	require.ElementsMatch(t, []string{"nativeTransaction", "erc721Transfers", "erc1155Transfers", "internalTransactions"},
		slices.Collect(maps.Keys(trade)), "empty lists omitted")
	send := handlertest.Objects(t, entries[3]["erc20Transfers"])
	require.Len(t, send, 1)
	token := send[0]["erc20Token"].(map[string]any)
	require.Contains(t, token, "tokenReputation", "required in Erc20TokenV2")
	require.Nil(t, token["tokenReputation"], "unknown: avadata has no reputation source")
	require.Equal(t, "WAVAX", token["symbol"])
	require.NotContains(t, send[0], "txHash", "an Erc20TransferDetailsV2 carries no block fields")

	v1 := srv.GetBody(t, aliceTxsPath)
	require.Equal(t, handlertest.TxBlocks(t, v1), handlertest.TxBlocks(t, body))
}

func TestListTransactionsV2FilterSpamTokens(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	all := handlertest.TxBlocks(t, getV2(t, srv, aliceTxsV2Path))
	for _, v := range []string{"true", "false", "TRUE", "False"} {
		require.Equal(t, all, handlertest.TxBlocks(t, getV2(t, srv, aliceTxsV2Path+"?filterSpamTokens="+v)),
			"no fixture token is spam")
	}
	handlertest.RequireDataError(t, srv.Get(t, aliceTxsV2Path+"?filterSpamTokens=yes"), http.StatusBadRequest,
		"filterSpamTokens", "must be true or false")

	first := getV2(t, srv, aliceTxsV2Path+"?pageSize=2&filterSpamTokens=true")
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(aliceTxsV2Path+"?pageSize=2", first)),
		http.StatusBadRequest, "other parameters")
	require.Equal(t, []string{"13", "12"}, handlertest.TxBlocks(t,
		getV2(t, srv, handlertest.WithToken(aliceTxsV2Path+"?pageSize=2&filterSpamTokens=TRUE", first))))
	v1 := srv.GetBody(t, aliceTxsPath+"?pageSize=2")
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(aliceTxsV2Path+"?pageSize=2", v1)),
		http.StatusBadRequest, "another endpoint")
}

func TestWithoutSpamTokens(t *testing.T) {
	txs := handlertest.FixtureTxs()
	spam := func(token common.Address) bool { return token == handlertest.Wavax || token == handlertest.Items }
	// Alice's view of the fixtures, as the store gives it.
	kept := withoutSpamTokens(txs, handlertest.Alice, spam)
	var blocks []uint64
	for _, itx := range kept {
		blocks = append(blocks, itx.Block.Number)
		for _, tr := range itx.Tx.Transfers {
			require.False(t, spam(tr.Token))
		}
	}
	require.Equal(t, []uint64{10, 11, 12, 13, 14, 15}, blocks, "alice sent 10-12 and 14-15; 13 keeps her kitty and frame")
	require.Len(t, kept[3].Tx.Transfers, 1)
	require.Equal(t, evmdata.Erc721, kept[3].Tx.Transfers[0].Kind)
	require.Len(t, txs[3].Tx.Transfers, 3, "the input is not changed")

	// Carol's part in the trade is a transfer of a spam token: her entry
	// goes. Bob's stays: he sent the tx.
	trade := txs[3]
	trade.Tx.Transfers, trade.Tx.Internal = trade.Tx.Transfers[2:], nil
	require.Empty(t, withoutSpamTokens([]evmdata.IndexedTx{trade}, handlertest.Carol, spam))
	require.Len(t, withoutSpamTokens([]evmdata.IndexedTx{trade}, handlertest.Bob, spam), 1)
}
