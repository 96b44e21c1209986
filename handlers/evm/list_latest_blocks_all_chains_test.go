package evm

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

// chainBlocksOf lists "chainId/blockNumber" of each block of a page.
func chainBlocksOf(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, b := range body["blocks"].([]any) {
		block := b.(map[string]any)
		out = append(out, block["chainId"].(string)+"/"+block["blockNumber"].(string))
	}
	return out
}

// The merged order of the block fixtures: newest first by timestamp, ties
// (block n of both chains) by EVM chain id.
func mergedFixtureBlocks() []string {
	var want []string
	for n := 15; n >= 4; n-- {
		want = append(want, "43112/"+itoa(n))
	}
	for n := 3; n >= 1; n-- {
		want = append(want, "43112/"+itoa(n), "779672/"+itoa(n))
	}
	return want
}

func itoa(n int) string { return formatIndex(float64(n)) }

func TestListLatestBlocksAllChains(t *testing.T) {
	backend := withBlockFixtures(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	for _, path := range []string{"/v1/blocks", "/v1/chains/allBlocks"} {
		for _, size := range []string{"1", "4", "100"} {
			got := pageAll(t, srv, path+"?pageSize="+size, chainBlocksOf, func(page int) {
				arriveBlock(backend, uint64(15+page))
			})
			require.Equal(t, mergedFixtureBlocks(), got, "%s, pageSize %s: later blocks stay out, nothing repeated or lost", path, size)
			backend = withBlockFixtures(t)
			srv = newTestAPI(t, newTestConfig(), backend)
		}
	}
	require.Equal(t, map[string]any{"blocks": []any{}}, srv.GetBody(t, "/v1/blocks?network=mainnet"), "another network")
	require.Len(t, srv.GetBody(t, "/v1/blocks?network=local")["blocks"], 10, "the node's network")
}

func TestListLatestBlocksAllChainsBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withBlockFixtures(t))
	single := srv.GetBody(t, "/v1/chains/43112/blocks?pageSize=1")
	for _, c := range []struct{ path, mentions string }{
		{"/v1/blocks?network=moon", "network"},
		{"/v1/chains/allBlocks?pageSize=0", "pageSize"},
		{"/v1/blocks?pageToken=abc", "pageToken"},
		{handlertest.WithToken("/v1/blocks", single), "pageToken"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, c.path), http.StatusBadRequest, c.mentions)
	}
}
