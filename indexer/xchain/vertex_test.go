package xchain

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/snow/engine/avalanche/vertex"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/json"
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
	// The txs are decoded as a block's are.
	require.Len(t, got.Txs, 2)
	for i, tx := range got.Txs {
		require.Equal(t, txIDs[i], tx.ID)
		want, err := d.DecodeTx(tx.Bytes)
		require.NoError(t, err)
		require.Equal(t, want, tx)
	}
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

	// A tx that does not decode fails its vertex, which the error names.
	bad, err := vertex.Build(xChainID, 5, []ids.ID{stop.ID()}, [][]byte{{0, 0, 9, 9, 9}})
	require.NoError(t, err)
	_, err = d.DecodeVertex(43, bad.Bytes(), 0)
	require.ErrorContains(t, err, "vertex "+bad.ID().String()+" tx 0")
}

// fakeVertexIndex serves index.getLastAccepted and index.getContainerRange
// over vtxs, accepted a second apart from 1_600_000_000, or answers status
// when non-zero.
func fakeVertexIndex(t *testing.T, status int, vtxs ...vertex.StatelessVertex) string {
	t.Helper()
	if status != 0 {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			require.Equal(t, VertexIndexPath, r.URL.Path)
			w.WriteHeader(status)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	node := newFakeNode(t)
	for i, vtx := range vtxs {
		node.vertices.add(vtx.ID(), vtx.Bytes(), 1_600_000_000+int64(i))
	}
	return node.url
}

// fakeIndex is one of a node's indexes (/ext/index/X/vtx or .../block): its
// accepted containers, of which the node shows the first shown.
type fakeIndex struct {
	mu         sync.Mutex
	containers []indexer.FormattedContainer
	shown      int
}

// add accepts one more container at time ts (Unix seconds) and shows it.
func (f *fakeIndex) add(id ids.ID, b []byte, ts int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	hex, err := formatting.Encode(formatting.Hex, b)
	if err != nil {
		panic(err)
	}
	f.containers = append(f.containers, indexer.FormattedContainer{ID: id, Bytes: hex, Encoding: formatting.Hex,
		Timestamp: time.Unix(ts, 0), Index: json.Uint64(len(f.containers))})
	f.shown = len(f.containers)
}

// show makes the node show only the first n containers (a node still
// bootstrapping, or a later block not yet accepted).
func (f *fakeIndex) show(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shown = n
}

// answer answers one index call as avalanchego's index service does.
func (f *fakeIndex) answer(method string, start, n uint64) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shown == 0 {
		return nil, errors.New("no containers have been accepted")
	}
	last := uint64(f.shown - 1)
	switch method {
	case "index.getLastAccepted":
		return f.containers[last], nil
	case "index.getContainerRange":
		if start > last {
			return nil, fmt.Errorf("start index (%d) > last accepted index (%d)", start, last)
		}
		end := min(start+n, last+1)
		return map[string]any{"containers": f.containers[start:end]}, nil
	}
	return nil, fmt.Errorf("method %s not found", method)
}

// blockIndexPath is the node's index of accepted X-chain blocks.
const blockIndexPath = "/ext/index/X/block"

// fakeNode is a node's X-chain index API: the vertex index and the block
// index, at their paths.
type fakeNode struct {
	url      string
	vertices *fakeIndex
	blocks   *fakeIndex
}

func newFakeNode(t *testing.T) *fakeNode {
	t.Helper()
	node := &fakeNode{vertices: &fakeIndex{}, blocks: &fakeIndex{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		index := map[string]*fakeIndex{VertexIndexPath: node.vertices, blockIndexPath: node.blocks}[r.URL.Path]
		if index == nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		var req struct {
			ID     stdjson.RawMessage `json:"id"`
			Method string             `json:"method"`
			Params struct {
				StartIndex json.Uint64 `json:"startIndex"`
				NumToFetch json.Uint64 `json:"numToFetch"`
			} `json:"params"`
		}
		if err := stdjson.NewDecoder(r.Body).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		result, err := index.answer(req.Method, uint64(req.Params.StartIndex), uint64(req.Params.NumToFetch))
		if err != nil {
			resp["error"] = map[string]any{"code": -32000, "message": err.Error()}
		} else {
			resp["result"] = result
		}
		_ = stdjson.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	node.url = srv.URL
	return node
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
