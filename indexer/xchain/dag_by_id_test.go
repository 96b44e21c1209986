package xchain

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// TestDAGVerticesAndBlocksByID: the vertex-ID and block-ID rows the
// followers write for a real DAG era and real linear blocks (avm's own
// vertex and block bytes) find each vertex and block as its bytes say it
// is; the block listing reads the linear blocks and the genesis newest
// first.
func TestDAGVerticesAndBlocksByID(t *testing.T) {
	require := require.New(t)
	ch := newDAGChain(t)
	s := indexDAGChain(t, ch, t.TempDir(), false)
	ctx := t.Context()

	for i, vtx := range ch.vertices {
		got, found, err := s.VertexByID(ctx, vtx.ID())
		require.NoError(err)
		require.True(found, "vertex %d", i)
		var txIDs []ids.ID
		for _, tx := range vtx.Txs() {
			txIDs = append(txIDs, ids.ID(hashing.ComputeHash256Array(tx)))
		}
		parents := vtx.ParentIDs()
		if len(parents) == 0 {
			parents = nil
		}
		require.Equal(pdata.Vertex{Number: uint64(i) + 1, Index: uint64(i), ID: vtx.ID(), ParentIDs: parents,
			DAGHeight: vtx.Height(), Timestamp: vertexTime(i), Size: len(vtx.Bytes()), TxIDs: txIDs}, got, "vertex %d", i)
	}
	_, found, err := s.VertexByID(ctx, ch.a.ID())
	require.NoError(err)
	require.False(found, "a tx ID is no vertex ID")

	r := s.PrimaryReader(nil)
	for _, blk := range ch.blocks {
		got, found, err := r.BlockByID(ctx, netinfo.X, blk.ID())
		require.NoError(err)
		require.True(found, "block %d", blk.Height())
		var txIDs []ids.ID
		for _, tx := range blk.Txs() {
			txIDs = append(txIDs, tx.ID())
		}
		require.Equal(blk.Height(), got.Number)
		require.Equal(blk.ID(), got.ID)
		require.Equal(blk.Parent(), got.ParentID)
		require.Equal(blk.Timestamp().Unix(), got.Time)
		require.Equal(len(blk.Bytes()), got.Size)
		require.Equal(txIDs, got.TxIDs)
	}
	g, found, err := r.BlockByID(ctx, netinfo.X, ch.genesis.ID)
	require.NoError(err)
	require.True(found, "the genesis block")
	require.Equal(uint64(0), g.Number)
	_, found, err = r.BlockByID(ctx, netinfo.X, ch.vertices[0].ID())
	require.NoError(err)
	require.False(found, "a vertex is no block")

	listed, err := r.Blocks(ctx, netinfo.X, pdata.BlockQuery{Desc: true})
	require.NoError(err)
	var heights []uint64
	for _, b := range listed {
		heights = append(heights, b.Number)
	}
	require.Equal([]uint64{2, 1, 0}, heights)
}
