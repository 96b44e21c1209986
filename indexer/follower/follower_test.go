package follower

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// fakeSource is a chain whose head the test moves; failures makes the next
// Fetch calls fail.
type fakeSource struct {
	mu       sync.Mutex
	head     uint64
	failures int
	fetches  int
}

func (s *fakeSource) setHead(h uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.head = h
}

func (s *fakeSource) Head(context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.head, nil
}

func (s *fakeSource) Fetch(_ context.Context, from uint64, max int) ([]*pdata.Block, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetches++
	if s.failures > 0 {
		s.failures--
		return nil, errors.New("node unavailable")
	}
	var out []*pdata.Block
	for h := from; h <= s.head && len(out) < max; h++ {
		out = append(out, &pdata.Block{Number: h, Timestamp: int64(1000 + h), Txs: []*pdata.Tx{{ID: txID(h), Type: "BaseTx"}}})
	}
	return out, nil
}

// txID is a distinct tx ID for the tx of block h.
func txID(h uint64) ids.ID { return ids.ID{byte(h), byte(h >> 8), byte(h >> 16), 1} }

func newTestFollower(t *testing.T, src Source[*pdata.Block]) (*Follower[*pdata.Block], *store.Store) {
	return newTestFollowerWith(t, src, 1)
}

func newTestFollowerWith(t *testing.T, src Source[*pdata.Block], fetchers int) (*Follower[*pdata.Block], *store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	m, err := NewMetrics(prometheus.NewRegistry())
	require.NoError(t, err)
	cfg := Config{PollInterval: 5 * time.Millisecond, BatchSize: 7, Fetchers: fetchers}
	return New(Identity{Name: "X"}, src, Sink[*pdata.Block](st.PrimaryWriter(netinfo.X)), cfg, logging.NoLog{}, m), st
}

func waitIndexed(t *testing.T, f Runner, height uint64) {
	t.Helper()
	require.Eventually(t, func() bool {
		s := f.Status()
		return s.IndexedHeight == height && s.CaughtUp
	}, 10*time.Second, 5*time.Millisecond, "follower did not reach %d: %+v", height, f.Status())
}

func TestFollowerCatchesUpThenFollowsLive(t *testing.T) {
	src := &fakeSource{head: 50}
	f, st := newTestFollower(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- f.Run(ctx) }()

	waitIndexed(t, f, 50)
	src.setHead(64)
	waitIndexed(t, f, 64)

	s := f.Status()
	require.True(t, s.Running)
	require.Zero(t, s.Lag)
	require.False(t, s.LastApplied.IsZero())
	buckets, err := st.TPSBuckets(context.Background(), netinfo.X, 0, 10)
	require.NoError(t, err)
	require.Equal(t, uint64(64), buckets[0].TxCount)

	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	require.False(t, f.Status().Running)
}

func TestFollowerResumesFromStoredCursor(t *testing.T) {
	src := &fakeSource{head: 20}
	f, st := newTestFollower(t, src)
	require.NoError(t, st.PrimaryWriter(netinfo.X).Apply(context.Background(),
		[]*pdata.Block{{Number: 1}, {Number: 2}}, time.Now()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = f.Run(ctx) }()
	waitIndexed(t, f, 20)
	b, ok, err := st.PrimaryReader(nil).Block(context.Background(), netinfo.X, 3)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, int64(1003), b.Time)
}

func TestFollowerRetriesAfterErrors(t *testing.T) {
	src := &fakeSource{head: 10, failures: 3}
	f, _ := newTestFollower(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = f.Run(ctx) }()
	waitIndexed(t, f, 10)
	require.Empty(t, f.Status().LastError)
}

func TestFollowerPauseAndResume(t *testing.T) {
	src := &fakeSource{head: 5}
	f, _ := newTestFollower(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = f.Run(ctx) }()
	waitIndexed(t, f, 5)

	f.Pause()
	require.True(t, f.Status().Paused)
	time.Sleep(20 * time.Millisecond) // let the loop reach the pause point
	src.setHead(30)
	time.Sleep(50 * time.Millisecond)
	require.Equal(t, uint64(5), f.Status().IndexedHeight)

	f.Resume()
	waitIndexed(t, f, 30)
	require.False(t, f.Status().Paused)
}

func TestPipelinedCatchUpKeepsOrderAndCounts(t *testing.T) {
	src := &fakeSource{head: 1000, failures: 2}
	f, st := newTestFollowerWith(t, src, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = f.Run(ctx) }()
	waitIndexed(t, f, 1000)
	buckets, err := st.TPSBuckets(context.Background(), netinfo.X, 0, 10)
	require.NoError(t, err)
	require.Equal(t, uint64(1000), buckets[0].TxCount, "every block counted exactly once")
	for _, h := range []uint64{1, 7, 8, 500, 1000} {
		b, ok, err := st.PrimaryReader(nil).Block(context.Background(), netinfo.X, h)
		require.NoError(t, err)
		require.True(t, ok, "block %d", h)
		require.Equal(t, int64(1000+h), b.Time)
	}
}

func TestFollowerReportsAnIndexAheadOfTheNode(t *testing.T) {
	src := &fakeSource{head: 20}
	f, _ := newTestFollower(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = f.Run(ctx) }()
	waitIndexed(t, f, 20)
	src.setHead(5) // the node's database was swapped for an older one
	require.Eventually(t, func() bool {
		return strings.Contains(f.Status().LastError, "the index is ahead of the node")
	}, 10*time.Second, 5*time.Millisecond)
	require.Equal(t, uint64(20), f.Status().IndexedHeight, "nothing is rewritten")
}
