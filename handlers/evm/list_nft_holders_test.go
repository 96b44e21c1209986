package evm

import (
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

func holdersPath(contract common.Address) string {
	return "/metrics/v2/chains/43112/contracts/" + contract.Hex() + "/nfts:listHolders"
}

func TestListNFTHolders(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"addresses": [{"address": "{carol}", "sortKey": 2}, {"address": "{alice}", "sortKey": 3}, {"address": "{bob}", "sortKey": 1}],
		"nftCollectionName": "Kitties", "nftSymbol": "KIT", "totalHolders": 3, "totalTokens": 6
	}`)), srv.GetBody(t, holdersPath(handlertest.Kitties)))

	require.Equal(t, handlertest.DecodeJSON(t, `{"addresses": [], "nftCollectionName": "Items", "nftSymbol": "ITM", "totalHolders": 0, "totalTokens": 0}`),
		srv.GetBody(t, holdersPath(handlertest.Items)), "an ERC-1155 collection nobody holds")
}

func TestListNFTHoldersPaging(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	path := holdersPath(handlertest.Kitties) + "?pageSize=2"
	first := srv.GetBody(t, path)
	require.Len(t, first["addresses"], 2)
	backend.SetIndexedHeight(netinfo.C, handlertest.FixtureHeight+5) // blocks arrive between pages
	second := srv.GetBody(t, handlertest.WithToken(path, first))
	require.Equal(t, []uint64{handlertest.FixtureHeight, handlertest.FixtureHeight}, backend.EVM.PinnedSeen,
		"both pages read the holdings as of the first page's height")
	require.Equal(t, []any{map[string]any{"address": handlertest.Bob.Hex(), "sortKey": 1.0}}, second["addresses"])
	require.NotContains(t, second, "nextPageToken")
	require.Equal(t, 3.0, second["totalHolders"], "every page carries the totals")

	handlertest.RequireMetricsError(t, srv.Get(t, handlertest.WithToken(holdersPath(handlertest.Punks)+"?pageSize=2", first)), http.StatusBadRequest, "other parameters")

	srv.Clock.Advance(api.MetricsPageTokenLifetime + time.Second)
	handlertest.RequireMetricsError(t, srv.Get(t, handlertest.WithToken(path, first)), http.StatusBadRequest, "expired", "24h")
}
