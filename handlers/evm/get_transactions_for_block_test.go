package evm

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A block of 7 transactions, indexes 0..6.
func withBusyBlock(t *testing.T) *handlertest.Fakes {
	backend := withBlockFixtures(t)
	for i := range 7 {
		tx := handlertest.DynamicTx(uint64(200+i), uint32(i), handlertest.AddrPtr(handlertest.Bob), nil)
		if i == 3 {
			tx.Status = 0
		}
		backend.EVM.AddTx(netinfo.C, evmdata.IndexedTx{Block: handlertest.BlockRef(7), Tx: tx, Traced: true})
	}
	return backend
}

func TestGetTransactionsForBlock(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBusyBlock(t))
	want := []string{"43112/7/0", "43112/7/1", "43112/7/2", "43112/7/3", "43112/7/4", "43112/7/5", "43112/7/6"}
	for _, path := range []string{
		"/v1/chains/43112/blocks/7/transactions",
		"/v1/chains/43112/blocks/7/transactions?pageSize=0",
		"/v1/chains/43112/blocks/" + handlertest.BlockRef(7).Hash.Hex() + "/transactions",
	} {
		body := srv.GetBody(t, path)
		require.Equal(t, want, nativeTxsOf(t, body), "pageSize 0 or absent: the whole block (%s)", path)
		require.NotContains(t, body, "nextPageToken")
	}
	require.Equal(t, want, pageAll(t, srv, "/v1/chains/43112/blocks/7/transactions?pageSize=3", nativeTxsOf, nil))
	first := srv.GetBody(t, "/v1/chains/43112/blocks/7/transactions?pageSize=1")["transactions"].([]any)[0].(map[string]any)
	require.Equal(t, handlertest.TxHashN(200).Hex(), first["txHash"])
	require.Equal(t, "1", first["txStatus"])
	require.NotContains(t, first, "erc20Transfers", "the NativeTransaction shape")

	empty := srv.GetBody(t, "/v1/chains/43112/blocks/8/transactions")
	require.Equal(t, map[string]any{"transactions": []any{}}, empty, "a block without transactions")
}

func TestGetTransactionsForBlockBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBusyBlock(t))
	page := srv.GetBody(t, "/v1/chains/43112/blocks/7/transactions?pageSize=2")
	for _, c := range []struct {
		path     string
		status   int
		mentions string
	}{
		{"/v1/chains/43112/blocks/16/transactions", http.StatusNotFound, "not indexed"},
		{"/v1/chains/43112/blocks/nope/transactions", http.StatusBadRequest, "blockId"},
		{"/v1/chains/43112/blocks/7/transactions?pageSize=101", http.StatusBadRequest, "pageSize"},
		{"/v1/chains/43112/blocks/7/transactions?pageSize=-1", http.StatusBadRequest, "pageSize"},
		{handlertest.WithToken("/v1/chains/43112/blocks/8/transactions", page), http.StatusBadRequest, "pageToken"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, c.path), c.status, c.mentions)
	}
}
