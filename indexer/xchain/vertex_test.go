package xchain

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/snow/engine/avalanche/vertex"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/stretchr/testify/require"
)

// testVertex is a real-format DAG vertex at DAG height 3 holding the txs of
// testBlock.
func testVertex(t *testing.T) (vertex.StatelessVertex, []ids.ID) {
	t.Helper()
	blk := testBlock(t)
	var raw [][]byte
	var txIDs []ids.ID
	for _, tx := range blk.Txs() {
		raw = append(raw, tx.Bytes())
		txIDs = append(txIDs, tx.ID())
	}
	vtx, err := vertex.Build(xChainID, 3, []ids.ID{{1}, {2}}, raw)
	require.NoError(t, err)
	return vtx, txIDs
}

func TestDecodeVertex(t *testing.T) {
	vtx, txIDs := testVertex(t)
	d, err := NewDecoder()
	require.NoError(t, err)
	got, err := d.DecodeVertex(41, vtx.Bytes(), 1_600_000_000)
	require.NoError(t, err)
	require.Equal(t, uint64(42), got.Number)
	require.Equal(t, uint64(42), got.Height())
	require.Equal(t, uint64(41), got.Index)
	require.Equal(t, uint64(3), got.DAGHeight)
	require.Equal(t, vtx.ID(), got.ID)
	require.Equal(t, []ids.ID{{1}, {2}}, got.ParentIDs)
	require.Equal(t, txIDs, got.TxIDs)
	require.Equal(t, 2, got.TxCount())
	require.Equal(t, int64(1_600_000_000), got.Time())
	require.Equal(t, len(vtx.Bytes()), got.Size)

	stop, err := vertex.BuildStopVertex(xChainID, 4, []ids.ID{vtx.ID()})
	require.NoError(t, err)
	got, err = d.DecodeVertex(42, stop.Bytes(), 0)
	require.NoError(t, err)
	require.Empty(t, got.TxIDs)
	require.Equal(t, uint64(4), got.DAGHeight)

	_, err = d.DecodeVertex(0, []byte{1, 2, 3}, 0)
	require.Error(t, err)
}

// fakeVertexIndex serves index.getLastAccepted and index.getContainerRange
// over vtxs, or answers status when non-zero.
func fakeVertexIndex(t *testing.T, status int, vtxs ...vertex.StatelessVertex) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, VertexIndexPath, r.URL.Path)
		if status != 0 {
			w.WriteHeader(status)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				StartIndex string `json:"startIndex"`
			} `json:"params"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		format := func(i int) indexer.FormattedContainer {
			b, err := formatting.Encode(formatting.Hex, vtxs[i].Bytes())
			require.NoError(t, err)
			return indexer.FormattedContainer{ID: vtxs[i].ID(), Bytes: b, Encoding: formatting.Hex,
				Timestamp: time.Unix(1_600_000_000+int64(i), 0)}
		}
		resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch {
		case len(vtxs) == 0:
			resp["error"] = map[string]any{"code": -32000, "message": "no containers have been accepted"}
		case req.Method == "index.getLastAccepted":
			c := format(len(vtxs) - 1)
			resp["result"] = map[string]any{"id": c.ID, "bytes": c.Bytes, "encoding": c.Encoding,
				"timestamp": c.Timestamp, "index": strconv.Itoa(len(vtxs) - 1)}
		case req.Method == "index.getContainerRange":
			start, err := strconv.Atoi(req.Params.StartIndex)
			require.NoError(t, err)
			out := []indexer.FormattedContainer{}
			for i := start; i < len(vtxs); i++ {
				out = append(out, format(i))
			}
			resp["result"] = map[string]any{"containers": out}
		}
		require.NoError(t, json.NewEncoder(w).Encode(resp))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestVertexSource(t *testing.T) {
	first, txIDs := testVertex(t)
	stop, err := vertex.BuildStopVertex(xChainID, 4, []ids.ID{first.ID()})
	require.NoError(t, err)
	src, err := NewVertexSource(fakeVertexIndex(t, 0, first, stop) + "/")
	require.NoError(t, err)
	head, err := src.Head(t.Context())
	require.NoError(t, err)
	require.Equal(t, uint64(2), head)

	got, err := src.Fetch(t.Context(), 1, 10)
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, first.ID(), got[0].ID)
	require.Equal(t, txIDs, got[0].TxIDs)
	require.Equal(t, int64(1_600_000_000), got[0].Timestamp)
	require.Equal(t, uint64(2), got[1].Number)
	require.Equal(t, uint64(1), got[1].Index)
	require.Equal(t, int64(1_600_000_001), got[1].Timestamp)

	got, err = src.Fetch(t.Context(), 2, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, stop.ID(), got[0].ID)
}

func TestVertexSourceNoDAG(t *testing.T) {
	for name, status := range map[string]int{"no containers": 0, "no index": http.StatusNotFound} {
		t.Run(name, func(t *testing.T) {
			src, err := NewVertexSource(fakeVertexIndex(t, status))
			require.NoError(t, err)
			head, err := src.Head(t.Context())
			require.NoError(t, err)
			require.Zero(t, head)
			got, err := src.Fetch(t.Context(), 1, 10)
			require.NoError(t, err)
			require.Empty(t, got)
		})
	}
}
