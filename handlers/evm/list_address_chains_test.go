package evm

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestListAddressChains(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	chainIDs := func(body map[string]any) []any {
		var ids []any
		for _, c := range body["indexedChains"].([]any) {
			ids = append(ids, c.(map[string]any)["chainId"])
		}
		return ids
	}
	all := srv.GetBody(t, "/v1/chains")["chains"].([]any)
	require.Len(t, all, 2)
	for _, path := range []string{"/v1/address/%s/chains", "/v1/chains/address/%s"} {
		alice := srv.GetBody(t, fmt.Sprintf(path, handlertest.Alice.Hex()))
		require.Equal(t, all, alice["indexedChains"], "active on both chains, shown as GET /v1/chains shows them")
		require.Equal(t, []any{"43112"}, chainIDs(srv.GetBody(t, fmt.Sprintf(path, handlertest.Carol.Hex()))),
			"a token receiver on the C-chain only")
		require.Equal(t, []any(nil), chainIDs(srv.GetBody(t, fmt.Sprintf(path, "0x000000000000000000000000000000000000dead"))))
		handlertest.RequireDataError(t, srv.Get(t, fmt.Sprintf(path, "0xdead")), http.StatusBadRequest, "address", "0xdead")
	}
	require.Equal(t, map[string]any{"indexedChains": []any{}}, srv.GetBody(t, "/v1/chains/address/0x000000000000000000000000000000000000dEaD"))
}
