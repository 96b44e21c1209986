package serve

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

// A literal segment wins over a variable whatever the table's order, so
// /v1/chains/allBlocks is not taken for a {chainId}, and a variable with a
// literal suffix wins over a bare one.
func TestRouterPrefersLiteralSegments(t *testing.T) {
	named := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(name)) })
	}
	route := func(name, path string) api.Route {
		return api.Route{Name: name, Method: http.MethodGet, Path: path, Handler: named(name)}
	}
	router := newRouter([]api.Route{
		route("getChainInfo", "/v1/chains/{chainId}"),
		route("getBlock", "/v1/chains/{chainId}/blocks/{blockId}"),
		route("getToken", "/v1/chains/{chainId}/tokens/{tokenId}"),
		route("listAllLatestBlocks", "/v1/chains/allBlocks"),
		route("reindex", "/v1/chains/{chainId}/tokens/{tokenId}:reindex"),
		route("listAllLatestTransactions", "/v1/chains/allTransactions"),
		route("notFound", "/pages/{rest:.*}"),
		route("pageBlock", "/pages/{chain:p|x}/block/{id}"),
	})
	for path, want := range map[string]string{
		"/v1/chains/allBlocks":              "listAllLatestBlocks",
		"/v1/chains/allTransactions":        "listAllLatestTransactions",
		"/v1/chains/43112":                  "getChainInfo",
		"/v1/chains/allBlocksX":             "getChainInfo",
		"/v1/chains/43112/blocks/7":         "getBlock",
		"/v1/chains/43112/tokens/5":         "getToken",
		"/v1/chains/43112/tokens/5:reindex": "reindex",
		"/pages/p/block/7":                  "pageBlock",
		"/pages/q/block/7":                  "notFound",
		"/pages/p/block/7/more":             "notFound",
	} {
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://node"+path, nil))
		require.Equal(t, want, rec.Body.String(), path)
	}
}

func TestSegmentKinds(t *testing.T) {
	require.Equal(t, []int{segmentLiteral, segmentLiteral, segmentLiteral, segmentVariable, segmentMixed},
		segmentKinds("/v1/chains/{chainId}/{tokenId}:reindex"))
	require.Equal(t, []int{segmentLiteral, segmentLiteral, segmentRest}, segmentKinds("/explorer/{rest:.*}"))
}
