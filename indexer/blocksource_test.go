package indexer

import (
	"context"
	"errors"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// fakeReader is a blockindex.Reader whose Head names it.
type fakeReader uint64

func (f fakeReader) Head(context.Context) (uint64, error) { return uint64(f), nil }
func (fakeReader) Containers(context.Context, uint64, int) ([]blockindex.Container, error) {
	return nil, nil
}

type fakeSourceStore struct {
	recorded *pdata.ChainSource
	cursor   store.Cursor
	sets     int
}

func (f *fakeSourceStore) ChainSource(context.Context, netinfo.Chain) (pdata.ChainSource, error) {
	if f.recorded == nil {
		return pdata.ChainSource{}, nil
	}
	return *f.recorded, nil
}

func (f *fakeSourceStore) SetChainSource(_ context.Context, _ netinfo.Chain, src pdata.ChainSource) error {
	f.sets++
	f.recorded = &src
	return nil
}

func (f *fakeSourceStore) Cursor(context.Context, netinfo.Chain, store.Stream) (store.Cursor, error) {
	return f.cursor, nil
}

const (
	fromIndex    fakeReader = 1000
	fromByHeight fakeReader = 2000
)

func newTestChoice(chain netinfo.Chain, st *fakeSourceStore, indexErr error, dagEra bool) *chosenBlocks {
	return &chosenBlocks{
		chain: chain, index: fromIndex, byHeight: fromByHeight,
		indexServed: func(context.Context) (bool, error) { return indexAPIServed(indexErr) },
		vmHeight:    func(context.Context) (uint64, error) { return 7, nil },
		st:          st, dagEra: dagEra, log: logging.NoLog{},
	}
}

var (
	err404   = errors.New("received status code: 404")
	errEmpty = errors.New("no containers have been accepted")
	fresh    = store.Cursor{NextHeight: 1, FirstHeight: 1, Fresh: true}
)

func TestChosenBlocks(t *testing.T) {
	ctx := context.Background()
	head := func(c *chosenBlocks) (uint64, error) { return c.Head(ctx) }

	t.Run("index API served: the index API, nothing recorded", func(t *testing.T) {
		for _, probeErr := range []error{nil, errEmpty} {
			st := &fakeSourceStore{cursor: fresh}
			c := newTestChoice(netinfo.P, st, probeErr, false)
			h, err := head(c)
			require.NoError(t, err)
			require.Equal(t, uint64(fromIndex), h)
			require.Zero(t, st.sets)
			require.Empty(t, c.unavailable())
		}
	})
	t.Run("no index API, fresh index: getBlockByHeight, recorded", func(t *testing.T) {
		st := &fakeSourceStore{cursor: store.Cursor{NextHeight: 1, FirstHeight: 1}}
		c := newTestChoice(netinfo.P, st, err404, false)
		require.Empty(t, c.unavailable(), "nothing said before the choice")
		h, err := head(c)
		require.NoError(t, err)
		require.Equal(t, uint64(fromByHeight), h)
		require.Equal(t, &pdata.ChainSource{ByHeight: true}, st.recorded)
		u := c.unavailable()
		require.Len(t, u, 1)
		require.Contains(t, u[0], "proposer details of P-chain blocks")
		require.Contains(t, u[0], "--index-enabled=true")
		require.Empty(t, c.vertexUnavailable(), "the vertex sentence is the X-chain's")
	})
	t.Run("X on a network with a DAG era", func(t *testing.T) {
		st := &fakeSourceStore{cursor: fresh}
		c := newTestChoice(netinfo.X, st, err404, true)
		_, err := head(c)
		require.NoError(t, err)
		require.Equal(t, &pdata.ChainSource{ByHeight: true, MissingDAG: true}, st.recorded)
		u := c.unavailable()
		require.Len(t, u, 2)
		require.Contains(t, u[1], "DAG-era X-chain vertices")
		require.Len(t, c.vertexUnavailable(), 1)
	})
	t.Run("index built from the index API, now off: stops, saying how to go on", func(t *testing.T) {
		st := &fakeSourceStore{cursor: store.Cursor{NextHeight: 90, FirstHeight: 1}}
		c := newTestChoice(netinfo.X, st, err404, false)
		_, err := head(c)
		require.ErrorContains(t, err, "--index-enabled=true")
		require.ErrorContains(t, err, "delete avadata's index")
		require.Zero(t, st.sets)
		_, err = c.Containers(ctx, 90, 10)
		require.Error(t, err, "and keeps saying so")
	})
	t.Run("recorded getBlockByHeight keeps it when the index API appears", func(t *testing.T) {
		st := &fakeSourceStore{recorded: &pdata.ChainSource{ByHeight: true}, cursor: store.Cursor{NextHeight: 90, FirstHeight: 1}}
		c := newTestChoice(netinfo.P, st, nil, false)
		h, err := head(c)
		require.NoError(t, err)
		require.Equal(t, uint64(fromByHeight), h)
	})
	t.Run("a probe that fails is retried, not taken for off", func(t *testing.T) {
		st := &fakeSourceStore{cursor: fresh}
		c := newTestChoice(netinfo.P, st, errors.New("connection refused"), false)
		_, err := head(c)
		require.ErrorContains(t, err, "connection refused")
		require.Zero(t, st.sets)
		c.indexServed = func(context.Context) (bool, error) { return true, nil }
		h, err := head(c)
		require.NoError(t, err)
		require.Equal(t, uint64(fromIndex), h)
	})
	t.Run("a 404 before the chain's own API answers is not taken for off", func(t *testing.T) {
		st := &fakeSourceStore{cursor: fresh}
		c := newTestChoice(netinfo.X, st, err404, false)
		c.vmHeight = func(context.Context) (uint64, error) { return 0, errors.New("received status code: 404") }
		_, err := head(c)
		require.Error(t, err)
		require.Zero(t, st.sets)
	})
}

func TestHadDAGEra(t *testing.T) {
	require.True(t, hadDAGEra(1))
	require.True(t, hadDAGEra(5))
	require.False(t, hadDAGEra(12345))
}
