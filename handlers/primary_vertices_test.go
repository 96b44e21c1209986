package handlers

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

var _ VertexReader = (*store.Store)(nil)

// fakeVertices holds vertices by acceptance index (slice position).
type fakeVertices struct{ vs []pdata.Vertex }

func (f *fakeVertices) LatestVertices(_ context.Context, after *uint64, limit int) ([]pdata.Vertex, error) {
	var out []pdata.Vertex
	for i := len(f.vs) - 1; i >= 0; i-- {
		if after == nil || f.vs[i].Index < *after {
			out = append(out, f.vs[i])
		}
	}
	return out[:min(len(out), limit)], nil
}

func (f *fakeVertices) VerticesAtHeight(_ context.Context, h uint64, desc bool, after *uint64, limit int) ([]pdata.Vertex, error) {
	var out []pdata.Vertex
	for _, v := range f.vs {
		if v.DAGHeight == h {
			out = append(out, v)
		}
	}
	if desc {
		slices.Reverse(out)
	}
	if after != nil {
		out = slices.DeleteFunc(out, func(v pdata.Vertex) bool {
			return (desc && v.Index >= *after) || (!desc && v.Index <= *after)
		})
	}
	return out[:min(len(out), limit)], nil
}

// testVertices: index i at DAG height i/2 (two vertices per height).
func testVertices() *fakeVertices {
	f := &fakeVertices{}
	for i := range uint64(5) {
		f.vs = append(f.vs, pdata.Vertex{Number: i + 1, ID: ids.ID{'v', byte(i)}, ParentIDs: []ids.ID{{'p', byte(i)}},
			DAGHeight: i / 2, Index: i, Timestamp: 1_600_000_000 + int64(i), TxIDs: []ids.ID{{'t', byte(i)}}, Size: 100 + int(i)})
	}
	return f
}

func vertexIndexes(t *testing.T, body map[string]any) []float64 {
	t.Helper()
	out := []float64{}
	for _, v := range objects(t, body["vertices"]) {
		out = append(out, v["vertexIndex"].(float64))
	}
	return out
}

// pages follows nextPageToken from path and returns each page's indexes.
func vertexPages(t *testing.T, srv *testAPI, path string) [][]float64 {
	t.Helper()
	var pages [][]float64
	body := getBody(t, srv, path)
	for {
		pages = append(pages, vertexIndexes(t, body))
		if _, more := body["nextPageToken"]; !more {
			return pages
		}
		body = getBody(t, srv, withToken(path, body))
	}
}

func TestListLatestVertices(t *testing.T) {
	backend := newFakeBackend()
	backend.vertices = testVertices()
	srv := newTestAPI(t, testConfig(), backend, nil)
	const path = "/v1/networks/local/blockchains/x-chain/vertices"
	body := getBody(t, srv, path)
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
	}, objects(t, body["vertices"])[0])
	require.Equal(t, [][]float64{{4, 3}, {2, 1}, {0}}, vertexPages(t, srv, path+"?pageSize=2"))
}

func TestListVerticesByHeight(t *testing.T) {
	backend := newFakeBackend()
	backend.vertices = testVertices()
	srv := newTestAPI(t, testConfig(), backend, nil)
	const path = "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight="
	require.Equal(t, [][]float64{{1}, {0}}, vertexPages(t, srv, path+"0&pageSize=1"))
	require.Equal(t, [][]float64{{2}, {3}}, vertexPages(t, srv, path+"1&pageSize=1&sortOrder=asc"))
	require.Equal(t, [][]float64{{4}}, vertexPages(t, srv, path+"2"))
	require.Equal(t, [][]float64{{}}, vertexPages(t, srv, path+"9"))
}

func TestListVerticesWithoutReader(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	for _, path := range []string{
		"/v1/networks/local/blockchains/x-chain/vertices",
		"/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=0",
	} {
		var body map[string]any
		requireJSON(t, srv.get(t, path), http.StatusOK, &body)
		require.Equal(t, []any{}, body["vertices"])
		require.NotContains(t, body, "nextPageToken")
	}
}
