package store

import (
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/engine/avalanche/vertex"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// buildVertex builds a real-format vertex (vertex.Build) at acceptance index
// index and turns it into the domain vertex the source would give.
func buildVertex(t *testing.T, index, dagHeight uint64, parents []ids.ID, txs ...string) *pdata.Vertex {
	t.Helper()
	raw := make([][]byte, len(txs))
	for i, tx := range txs {
		raw[i] = []byte(tx)
	}
	var vtx vertex.StatelessVertex
	var err error
	if len(raw) == 0 {
		vtx, err = vertex.BuildStopVertex(ids.ID{'X'}, dagHeight, parents)
	} else {
		vtx, err = vertex.Build(ids.ID{'X'}, dagHeight, parents, raw)
	}
	require.NoError(t, err)
	parsed, err := vertex.Parse(vtx.Bytes())
	require.NoError(t, err)
	v := &pdata.Vertex{
		Number: index + 1, ID: parsed.ID(), ParentIDs: parsed.ParentIDs(), DAGHeight: parsed.Height(),
		Index: index, Timestamp: 1_600_000_000 + int64(index), Size: len(vtx.Bytes()),
	}
	if len(v.ParentIDs) == 0 {
		v.ParentIDs = nil // as xchain.DecodeVertex gives it
	}
	for _, tx := range parsed.Txs() {
		id := ids.ID(hashing.ComputeHash256Array(tx))
		v.TxIDs = append(v.TxIDs, id)
		v.Txs = append(v.Txs, &pdata.Tx{ID: id, Type: "BaseTx", Bytes: tx})
	}
	return v
}

// stored is v as the store reads it back: the rows keep the tx IDs only.
func stored(v *pdata.Vertex) pdata.Vertex {
	out := *v
	out.Txs = nil
	return out
}

// dag is a small DAG: a root at height 0, two vertices at height 1, one at
// height 2 and the stop vertex at height 3.
func dag(t *testing.T) []*pdata.Vertex {
	root := buildVertex(t, 0, 0, nil, "genesis tx")
	a := buildVertex(t, 1, 1, []ids.ID{root.ID}, "tx a1", "tx a2")
	b := buildVertex(t, 2, 1, []ids.ID{root.ID}, "tx b")
	c := buildVertex(t, 3, 2, []ids.ID{a.ID, b.ID}, "tx c")
	stop := buildVertex(t, 4, 3, []ids.ID{c.ID})
	return []*pdata.Vertex{root, a, b, c, stop}
}

func TestVertexWriterAndReaders(t *testing.T) {
	s := openTest(t, t.TempDir())
	defer s.Close()
	vs := dag(t)
	w := s.VertexWriter()
	ctx := t.Context()
	now := time.Unix(1_700_000_000, 0)
	require.NoError(t, w.Apply(ctx, vs[:2], now))
	require.NoError(t, w.Apply(ctx, vs[2:], now))
	require.ErrorIs(t, w.Apply(ctx, vs[4:], now), ErrNotContiguous)
	cursor, err := w.Cursor(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(6), cursor.NextHeight)
	require.Equal(t, int64(1_600_000_004), cursor.LastBlockTs)

	// The vertex stream is not the X-chain's block stream and counts no TPS.
	blocksCursor, err := cursorOf(s, netinfo.X)
	require.NoError(t, err)
	require.Equal(t, Cursor{NextHeight: 1, FirstHeight: 1, Fresh: true}, blocksCursor)
	buckets, err := s.TPSBuckets(ctx, netinfo.X, 0, 10)
	require.NoError(t, err)
	require.Empty(t, buckets)

	latest, err := s.LatestVertices(ctx, nil, 0)
	require.NoError(t, err)
	require.Len(t, latest, 5)
	for i, v := range latest {
		require.Equal(t, stored(vs[4-i]), v)
	}
	page, err := s.LatestVertices(ctx, nil, 2)
	require.NoError(t, err)
	require.Equal(t, []uint64{4, 3}, indexes(page))
	page, err = s.LatestVertices(ctx, ptr(uint64(3)), 2)
	require.NoError(t, err)
	require.Equal(t, []uint64{2, 1}, indexes(page))
	page, err = s.LatestVertices(ctx, ptr(uint64(0)), 2)
	require.NoError(t, err)
	require.Empty(t, page)

	at1, err := s.VerticesAtHeight(ctx, 1, false, nil, 0)
	require.NoError(t, err)
	require.Equal(t, []pdata.Vertex{stored(vs[1]), stored(vs[2])}, at1)
	at1, err = s.VerticesAtHeight(ctx, 1, true, nil, 1)
	require.NoError(t, err)
	require.Equal(t, []uint64{2}, indexes(at1))
	at1, err = s.VerticesAtHeight(ctx, 1, true, ptr(uint64(2)), 1)
	require.NoError(t, err)
	require.Equal(t, []uint64{1}, indexes(at1))
	at1, err = s.VerticesAtHeight(ctx, 1, false, ptr(uint64(1)), 5)
	require.NoError(t, err)
	require.Equal(t, []uint64{2}, indexes(at1))
	at1, err = s.VerticesAtHeight(ctx, 1, false, ptr(uint64(2)), 5)
	require.NoError(t, err)
	require.Empty(t, at1)
	none, err := s.VerticesAtHeight(ctx, 9, false, nil, 5)
	require.NoError(t, err)
	require.Empty(t, none)
	stop, err := s.VerticesAtHeight(ctx, 3, false, nil, 5)
	require.NoError(t, err)
	require.Len(t, stop, 1)
	require.Empty(t, stop[0].TxIDs)
}

func TestVertexRowRoundTrip(t *testing.T) {
	v := buildVertex(t, 7, 2, []ids.ID{{1}, {2}}, "x", "y")
	got, err := decodeVertex(7, encodeVertex(v))
	require.NoError(t, err)
	require.Equal(t, stored(v), got)
	_, err = decodeVertex(7, encodeVertex(v)[:10])
	require.Error(t, err)
}

func indexes(vs []pdata.Vertex) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = v.Index
	}
	return out
}

func ptr[T any](v T) *T { return &v }

func TestVertexByID(t *testing.T) {
	s := openTest(t, t.TempDir())
	defer s.Close()
	vs := dag(t)
	ctx := t.Context()
	require.NoError(t, s.VertexWriter().Apply(ctx, vs, time.Unix(1_700_000_000, 0)))
	for _, v := range vs {
		got, ok, err := s.VertexByID(ctx, v.ID)
		require.NoError(t, err)
		require.True(t, ok, "vertex %s", v.ID)
		require.Equal(t, stored(v), got)
	}
	_, ok, err := s.VertexByID(ctx, ids.ID{'?'})
	require.NoError(t, err)
	require.False(t, ok)
	_, ok, err = s.VertexByID(ctx, vs[1].TxIDs[0])
	require.NoError(t, err)
	require.False(t, ok, "a tx ID is not a vertex ID")
}
