package evm

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestGetLatestBlocks(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	body := srv.GetBody(t, "/v1/chains/43112/blocks?pageSize=3")
	require.Equal(t, []string{"15", "14", "13"}, blockNumbersOf(t, body))
	require.Contains(t, body, "nextPageToken")
	top := body["blocks"].([]any)[0].(map[string]any)
	ref := handlertest.BlockRef(15)
	require.Equal(t, map[string]any{
		"chainId": "43112", "blockNumber": "15", "blockTimestamp": float64(ref.Timestamp),
		"blockTimestampMilliseconds": float64(ref.Timestamp*1000 + 500), "blockHash": ref.Hash.Hex(),
		"txCount": float64(1), "baseFee": "25000000000", "gasUsed": "21000", "gasLimit": "15000000", "gasCost": "0",
		"parentHash": handlertest.HashN(0xb1, 14).Hex(), "feesSpent": "1000", "cumulativeTransactions": "6",
	}, top, "blockMinDelayExcess is omitted when the header has none")

	subnet := srv.GetBody(t, "/v1/chains/779672/blocks")
	require.Equal(t, []string{"3", "2", "1"}, blockNumbersOf(t, subnet))
	require.NotContains(t, subnet, "nextPageToken")
}

func TestGetLatestBlocksPagesToTheEndWhileBlocksArrive(t *testing.T) {
	backend := withBlockFixtures(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	got := pageAll(t, srv, "/v1/chains/c-chain/blocks?pageSize=4", blockNumbersOf, func(page int) {
		arriveBlock(backend, uint64(15+page))
	})
	var want []string
	for n := 15; n >= 1; n-- {
		want = append(want, strconv.Itoa(n))
	}
	require.Equal(t, want, got, "pinned at 15: no block that arrived later, none repeated or lost")
	require.Equal(t, []string{"18", "17", "16", "15"}, blockNumbersOf(t, srv.GetBody(t, "/v1/chains/43112/blocks?pageSize=4")),
		"a new listing starts at the new height")
}

func TestGetLatestBlocksBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	other := srv.GetBody(t, "/v1/chains/43112/transactions?pageSize=1")
	for _, c := range []struct{ path, mentions string }{
		{"/v1/chains/999999/blocks", "chainId"},
		{"/v1/chains/43112/blocks?pageSize=0", "pageSize"},
		{"/v1/chains/43112/blocks?pageSize=101", "pageSize"},
		{"/v1/chains/43112/blocks?pageToken=nope", "pageToken"},
		{handlertest.WithToken("/v1/chains/43112/blocks", other), "pageToken"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, c.path), http.StatusBadRequest, c.mentions)
	}
}
