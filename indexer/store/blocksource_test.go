package store

import (
	"context"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

func TestChainSource(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()

	src, err := s.ChainSource(ctx, netinfo.P)
	require.NoError(t, err)
	require.Equal(t, pdata.ChainSource{}, src, "no row: the index API, as every existing store")

	// A stream only started (StartStream) holds no block: still choosable.
	require.NoError(t, s.StartStream(ctx, netinfo.X, StreamBlocks, 1))
	want := pdata.ChainSource{ByHeight: true, MissingDAG: true}
	require.NoError(t, s.SetChainSource(ctx, netinfo.X, want))
	src, err = s.PrimaryReader(nil).ChainSource(ctx, netinfo.X)
	require.NoError(t, err)
	require.Equal(t, want, src)
	src, err = s.ChainSource(ctx, netinfo.P)
	require.NoError(t, err)
	require.Equal(t, pdata.ChainSource{}, src, "per chain")

	require.NoError(t, s.SetChainSource(ctx, netinfo.P, pdata.ChainSource{ByHeight: true}))
	src, err = s.ChainSource(ctx, netinfo.P)
	require.NoError(t, err)
	require.Equal(t, pdata.ChainSource{ByHeight: true}, src)

	// Once the chain holds blocks its source is fixed.
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		return txn.Set(cursorKey(netinfo.P, StreamBlocks), Cursor{NextHeight: 5, FirstHeight: 1}.encode())
	}))
	require.ErrorContains(t, s.SetChainSource(ctx, netinfo.P, pdata.ChainSource{}), "holds blocks already")
	src, err = s.ChainSource(ctx, netinfo.P)
	require.NoError(t, err)
	require.True(t, src.ByHeight)
}
