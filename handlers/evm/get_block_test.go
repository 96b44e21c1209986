package evm

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestGetBlockByNumberAndHash(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	byNumber := srv.GetBody(t, "/v1/chains/43112/blocks/13")
	require.Equal(t, "13", byNumber["blockNumber"])
	require.Equal(t, "4", byNumber["cumulativeTransactions"])
	hash := handlertest.BlockRef(13).Hash.Hex()
	require.Equal(t, byNumber, srv.GetBody(t, "/v1/chains/43112/blocks/"+hash))
	require.Equal(t, byNumber, srv.GetBody(t, "/v1/chains/c-chain/blocks/"+strings.ToLower(hash)))
	require.Equal(t, byNumber, srv.GetBody(t, "/v1/chains/43112/blocks/0X"+strings.ToUpper(hash[2:])))

	subnet := srv.GetBody(t, "/v1/chains/779672/blocks/3")
	require.Equal(t, "779672", subnet["chainId"])
}

func TestGetBlockBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	for _, c := range []struct {
		path      string
		status    int
		fragments []string
	}{
		{"/v1/chains/43112/blocks/16", http.StatusNotFound, []string{"block 16", "1 to 15"}},
		{"/v1/chains/43112/blocks/0", http.StatusNotFound, []string{"genesis"}},
		{"/v1/chains/43112/blocks/0x" + strings.Repeat("ab", 32), http.StatusNotFound, []string{"no block with hash"}},
		{"/v1/chains/43112/blocks/latest", http.StatusBadRequest, []string{"blockId", "block number", "block hash"}},
		{"/v1/chains/43112/blocks/-1", http.StatusBadRequest, []string{"blockId"}},
		{"/v1/chains/43112/blocks/0x12", http.StatusBadRequest, []string{"blockId", "64 hex digits"}},
		{"/v1/chains/43112/blocks/0x" + strings.Repeat("zz", 32), http.StatusBadRequest, []string{"blockId"}},
		{"/v1/chains/43112/blocks/99999999999999999999999", http.StatusBadRequest, []string{"blockId", "too large"}},
		{"/v1/chains/43114/blocks/1", http.StatusBadRequest, []string{"chainId"}},
	} {
		handlertest.RequireDataError(t, srv.Get(t, c.path), c.status, c.fragments...)
	}
}
