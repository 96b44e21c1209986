package evm

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/evmdata"
)

func TestListLatestTransactionsAllChains(t *testing.T) {
	all := []string{"43112/15/0", "43112/14/0", "43112/13/2", "43112/12/0", "43112/11/1", "43112/10/0", "779672/3/0"}
	for _, path := range []string{"/v1/transactions", "/v1/chains/allTransactions"} {
		for _, size := range []string{"1", "2", "100"} {
			backend := withBlockFixtures(t)
			srv := newTestAPI(t, newTestConfig(), backend)
			got := pageAll(t, srv, path+"?pageSize="+size, nativeTxsOf, func(page int) {
				arriveBlock(backend, uint64(15+page))
			})
			require.Equal(t, all, got, "%s, pageSize %s", path, size)
		}
	}
	backend := withBlockFixtures(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	require.Equal(t, []string{"43112/15/0"}, nativeTxsOf(t, srv.GetBody(t, "/v1/transactions?status=failed")))
	require.Equal(t, all[1:], pageAll(t, srv, "/v1/transactions?status=success&pageSize=3", nativeTxsOf, nil))

	// A subnet tx newer than the C-chain's latest comes first.
	late := evmdata.Tx{Hash: handlertest.TxHashN(300), From: handlertest.Bob, To: handlertest.AddrPtr(handlertest.Alice),
		Value: handlertest.Avax(1), Status: 1}
	backend.EVM.AddTx(fakenet.SubnetChain, evmdata.IndexedTx{Block: handlertest.BlockRef(40), Tx: late})
	backend.SetIndexedHeight(fakenet.SubnetChain, 40)
	require.Equal(t, append([]string{"779672/40/0"}, all...), nativeTxsOf(t, srv.GetBody(t, "/v1/transactions")))
	require.Equal(t, []string{"43112/15/0"}, nativeTxsOf(t, srv.GetBody(t, "/v1/chains/allTransactions?status=failed&network=LOCAL")))
	require.Equal(t, map[string]any{"transactions": []any{}}, srv.GetBody(t, "/v1/transactions?network=fuji"))
}

func TestListLatestTransactionsAllChainsBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	success := srv.GetBody(t, "/v1/transactions?pageSize=1&status=success")
	for _, c := range []struct{ path, mentions string }{
		{"/v1/transactions?status=ok", "status"},
		{"/v1/transactions?network=nowhere", "network"},
		{"/v1/chains/allTransactions?pageSize=1000", "pageSize"},
		{handlertest.WithToken("/v1/transactions", success), "pageToken"},
		{handlertest.WithToken("/v1/chains/allTransactions?status=success", success), "pageToken"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, c.path), http.StatusBadRequest, c.mentions)
	}
}
