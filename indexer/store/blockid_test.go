package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

func TestPrimaryBlocksByHeightAndID(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := writeExportFirst(t, f)
	r := s.PrimaryReader(f.decode)
	ctx := context.Background()

	heights := func(chain netinfo.Chain, q pdata.BlockQuery) []uint64 {
		blocks, err := r.Blocks(ctx, chain, q)
		require.NoError(err)
		out := []uint64{}
		for _, b := range blocks {
			out = append(out, b.Number)
		}
		return out
	}
	require.Equal([]uint64{5, 4, 3, 2, 1, 0}, heights(netinfo.P, pdata.BlockQuery{Desc: true}), "the genesis block too")
	require.Equal([]uint64{5, 4}, heights(netinfo.P, pdata.BlockQuery{Desc: true, Limit: 2}))
	require.Equal([]uint64{3, 2}, heights(netinfo.P, pdata.BlockQuery{Desc: true, After: 4, Limit: 2}))
	require.Equal([]uint64{0}, heights(netinfo.P, pdata.BlockQuery{Desc: true, After: 1}))
	require.Equal([]uint64{4, 3}, heights(netinfo.P, pdata.BlockQuery{Desc: true, FromHeight: 3, ToHeight: 5}))
	require.Equal([]uint64{3}, heights(netinfo.P, pdata.BlockQuery{Desc: true, FromHeight: 3, ToHeight: 5, After: 4}))
	require.Equal([]uint64{1, 0}, heights(netinfo.X, pdata.BlockQuery{Desc: true}))
	require.Empty(heights(netinfo.C, pdata.BlockQuery{Desc: true}), "C-chain blocks are EVM block rows")

	listed, err := r.Blocks(ctx, netinfo.P, pdata.BlockQuery{Desc: true, Limit: 1})
	require.NoError(err)
	byHeight, ok, err := r.Block(ctx, netinfo.P, 5)
	require.NoError(err)
	require.True(ok)
	require.Equal(byHeight, listed[0], "a listed block is the block as the by-proposer listing reads it")

	for _, tc := range []struct {
		chain  netinfo.Chain
		id     ids.ID
		height uint64
	}{
		{netinfo.P, ids.ID{'P', 5}, 5}, {netinfo.P, ids.ID{'P', 1}, 1}, {netinfo.P, ids.ID{'g', 'P'}, 0},
		{netinfo.X, ids.ID{'X', 1}, 1}, {netinfo.X, ids.ID{'g', 'X'}, 0},
	} {
		b, ok, err := r.BlockByID(ctx, tc.chain, tc.id)
		require.NoError(err)
		require.True(ok, "%s block %s", tc.chain, tc.id)
		want, _, err := r.Block(ctx, tc.chain, tc.height)
		require.NoError(err)
		require.Equal(want, b, "%s block %s", tc.chain, tc.id)
	}
	for _, tc := range []struct {
		chain netinfo.Chain
		id    ids.ID
	}{
		{netinfo.X, ids.ID{'P', 5}}, // another chain's block
		{netinfo.P, ids.ID{'o', 5}}, // the proposer ID of a block is its ID only when they are the same
		{netinfo.P, ids.ID{'?'}},
	} {
		_, ok, err := r.BlockByID(ctx, tc.chain, tc.id)
		require.NoError(err)
		require.False(ok, "%s block %s", tc.chain, tc.id)
	}
}
