package handlers

import (
	"net/http"
	"testing"
	"time"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

func holdersPath(contract common.Address) string {
	return "/metrics/v2/chains/43112/contracts/" + contract.Hex() + "/nfts:listHolders"
}

func TestListNFTHolders(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	require.Equal(t, decodeJSON(t, expand(`{
		"addresses": [{"address": "{carol}", "sortKey": 2}, {"address": "{alice}", "sortKey": 3}, {"address": "{bob}", "sortKey": 1}],
		"nftCollectionName": "Kitties", "nftSymbol": "KIT", "totalHolders": 3, "totalTokens": 6
	}`)), getBody(t, srv, holdersPath(kitties)))

	require.Equal(t, decodeJSON(t, `{"addresses": [], "nftCollectionName": "Items", "nftSymbol": "ITM", "totalHolders": 0, "totalTokens": 0}`),
		getBody(t, srv, holdersPath(items)), "an ERC-1155 collection nobody holds")
}

func TestListNFTHoldersPaging(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	path := holdersPath(kitties) + "?pageSize=2"
	first := getBody(t, srv, path)
	require.Len(t, first["addresses"], 2)
	backend.setIndexedHeight(netinfo.C, fixtureHeight+5) // blocks arrive between pages
	second := getBody(t, srv, withToken(path, first))
	require.Equal(t, []uint64{fixtureHeight, fixtureHeight}, backend.evm.pinnedSeen,
		"both pages read the holdings as of the first page's height")
	require.Equal(t, []any{map[string]any{"address": bob.Hex(), "sortKey": 1.0}}, second["addresses"])
	require.NotContains(t, second, "nextPageToken")
	require.Equal(t, 3.0, second["totalHolders"], "every page carries the totals")

	requireMetricsError(t, srv.get(t, withToken(holdersPath(punks)+"?pageSize=2", first)), http.StatusBadRequest, "other parameters")

	srv.clock.Advance(api.MetricsPageTokenLifetime + time.Second)
	requireMetricsError(t, srv.get(t, withToken(path, first)), http.StatusBadRequest, "expired", "24h")
}
