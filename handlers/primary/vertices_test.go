package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/store"
)

var _ VertexReader = (*store.Store)(nil)

func vertexIndexes(t *testing.T, body map[string]any) []float64 {
	t.Helper()
	out := []float64{}
	for _, v := range handlertest.Objects(t, body["vertices"]) {
		out = append(out, v["vertexIndex"].(float64))
	}
	return out
}

// pages follows NextPageToken from path and returns each page's indexes.
func vertexPages(t *testing.T, srv *handlertest.API, path string) [][]float64 {
	t.Helper()
	var pages [][]float64
	body := srv.GetBody(t, path)
	for {
		pages = append(pages, vertexIndexes(t, body))
		if _, more := body["nextPageToken"]; !more {
			return pages
		}
		body = srv.GetBody(t, handlertest.WithToken(path, body))
	}
}

func TestListLatestVertices(t *testing.T) {
	backend := handlertest.NewFakes()
	backend.Vertices = handlertest.FixtureVertices()
	srv := newTestAPI(t, handlertest.Config(), backend)
	const path = "/v1/networks/local/blockchains/x-chain/vertices"
	body := srv.GetBody(t, path)
	require.Equal(t, map[string]any{"chainName": "x-chain", "network": "local"}, body["chainInfo"])
	require.Equal(t, map[string]any{
		"vertexHash":      ids.ID{'v', 4}.String(),
		"parentHashes":    []any{ids.ID{'p', 4}.String()},
		"vertexHeight":    float64(2),
		"vertexIndex":     float64(4),
		"vertexTimestamp": float64(1_600_000_004),
		"txCount":         float64(1),
		"transactions":    []any{ids.ID{'t', 4}.String()},
		"vertexSizeBytes": float64(104),
	}, handlertest.Objects(t, body["vertices"])[0])
	require.Equal(t, [][]float64{{4, 3}, {2, 1}, {0}}, vertexPages(t, srv, path+"?pageSize=2"))
}

func TestListVerticesByHeight(t *testing.T) {
	backend := handlertest.NewFakes()
	backend.Vertices = handlertest.FixtureVertices()
	srv := newTestAPI(t, handlertest.Config(), backend)
	const path = "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight="
	require.Equal(t, [][]float64{{1}, {0}}, vertexPages(t, srv, path+"0&pageSize=1"))
	require.Equal(t, [][]float64{{2}, {3}}, vertexPages(t, srv, path+"1&pageSize=1&sortOrder=asc"))
	require.Equal(t, [][]float64{{4}}, vertexPages(t, srv, path+"2"))
	require.Equal(t, [][]float64{{}}, vertexPages(t, srv, path+"9"))
}

func TestListVerticesWithoutReader(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	for _, path := range []string{
		"/v1/networks/local/blockchains/x-chain/vertices",
		"/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=0",
	} {
		var body map[string]any
		handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &body)
		require.Equal(t, []any{}, body["vertices"])
		require.NotContains(t, body, "nextPageToken")
	}
}
