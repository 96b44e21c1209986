package evm

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestListLatestTransactions(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	all := []string{"43112/15/0", "43112/14/0", "43112/13/2", "43112/12/0", "43112/11/1", "43112/10/0"}
	require.Equal(t, all, nativeTxsOf(t, srv.GetBody(t, "/v1/chains/43112/transactions")))
	require.Equal(t, []string{"43112/15/0"}, nativeTxsOf(t, srv.GetBody(t, "/v1/chains/43112/transactions?status=failed")))
	require.Equal(t, all[1:], nativeTxsOf(t, srv.GetBody(t, "/v1/chains/43112/transactions?status=SUCCESS")))
	require.Equal(t, []string{"779672/3/0"}, nativeTxsOf(t, srv.GetBody(t, "/v1/chains/779672/transactions")))
}

func TestListLatestTransactionsPagesWhileBlocksArrive(t *testing.T) {
	backend := withBlockFixtures(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	got := pageAll(t, srv, "/v1/chains/43112/transactions?pageSize=2&status=success", nativeTxsOf, func(page int) {
		arriveBlock(backend, uint64(15+page))
	})
	require.Equal(t, []string{"43112/14/0", "43112/13/2", "43112/12/0", "43112/11/1", "43112/10/0"}, got)
}

func TestListLatestTransactionsBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	failed := srv.GetBody(t, "/v1/chains/43112/transactions?pageSize=1&status=success")
	for _, c := range []struct{ path, mentions string }{
		{"/v1/chains/43112/transactions?status=pending", "status"},
		{"/v1/chains/43112/transactions?pageSize=0", "pageSize"},
		{handlertest.WithToken("/v1/chains/43112/transactions?status=failed", failed), "pageToken"},
		{"/v1/chains/nope/transactions", "chainId"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, c.path), http.StatusBadRequest, c.mentions)
	}
}
