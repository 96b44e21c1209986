package store

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

func openTest(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, logging.NoLog{})
	require.NoError(t, err)
	return s
}

// blocks makes n consecutive P/X blocks from height from, step seconds
// apart, each holding txs transactions without UTXOs.
func blocks(from uint64, n int, ts int64, step int64, txs int) []*pdata.Block {
	out := make([]*pdata.Block, n)
	for i := range out {
		h := from + uint64(i)
		b := &pdata.Block{Number: h, ID: ids.ID{1}, Timestamp: ts + int64(i)*step, Type: "BanffStandardBlock"}
		for range txs {
			b.Txs = append(b.Txs, &pdata.Tx{ID: ids.GenerateTestID(), Type: "BaseTx"})
		}
		out[i] = b
	}
	return out
}

// apply writes blocks through chain's primary writer.
func apply(s *Store, chain netinfo.Chain, b []*pdata.Block, now time.Time) error {
	return s.PrimaryWriter(chain).Apply(context.Background(), b, now)
}

func cursorOf(s *Store, chain netinfo.Chain) (Cursor, error) {
	return s.Cursor(context.Background(), chain, StreamBlocks)
}

func TestApplyBlocksAdvancesCursorAndBuckets(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()

	c, err := cursorOf(s, netinfo.X)
	require.NoError(err)
	require.Equal(uint64(1), c.NextHeight)

	day := int64(20000 * BucketSeconds)
	now := time.Unix(1_700_000_000, 0)
	// Three blocks late on one day, two early on the next.
	require.NoError(apply(s, netinfo.X, blocks(1, 3, day-30, 10, 2), now))
	require.NoError(apply(s, netinfo.X, blocks(4, 2, day+5, 1, 7), now))

	c, err = cursorOf(s, netinfo.X)
	require.NoError(err)
	require.Equal(uint64(6), c.NextHeight)
	require.Equal(day+6, c.LastBlockTs)
	require.Equal(now.UnixNano(), c.LastApplied.UnixNano())

	got, err := s.TPSBuckets(context.Background(), netinfo.X, 0, 10)
	require.NoError(err)
	require.Equal([]TPSBucket{
		{Start: day, TxCount: 14, BlockCount: 2, FirstBlockTs: day + 5, LastBlockTs: day + 6},
		{Start: day - BucketSeconds, TxCount: 6, BlockCount: 3, FirstBlockTs: day - 30, LastBlockTs: day - 10},
	}, got)

	older, err := s.TPSBuckets(context.Background(), netinfo.X, day, 10)
	require.NoError(err)
	require.Len(older, 1)
	require.Equal(day-BucketSeconds, older[0].Start)

	// Other chains are untouched.
	none, err := s.TPSBuckets(context.Background(), netinfo.P, 0, 10)
	require.NoError(err)
	require.Empty(none)

	b, ok, err := s.PrimaryReader(nil).Block(context.Background(), netinfo.X, 4)
	require.NoError(err)
	require.True(ok)
	require.Len(b.TxIDs, 7)
}

func TestApplyBlocksRejectsGapsAndReplays(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	now := time.Now()
	require.NoError(apply(s, netinfo.P, blocks(1, 2, 100, 1, 1), now))

	err := apply(s, netinfo.P, blocks(1, 2, 100, 1, 1), now) // replay
	require.True(errors.Is(err, ErrNotContiguous))
	err = apply(s, netinfo.P, blocks(5, 1, 100, 1, 1), now) // gap
	require.True(errors.Is(err, ErrNotContiguous))
	bad := blocks(3, 2, 100, 1, 1)
	bad[1].Number = 9
	require.True(errors.Is(apply(s, netinfo.P, bad, now), ErrNotContiguous))

	// A rejected batch wrote nothing: the bucket still counts two blocks.
	got, err := s.TPSBuckets(context.Background(), netinfo.P, 0, 1)
	require.NoError(err)
	require.Equal(uint64(2), got[0].BlockCount)
	_, ok, err := s.PrimaryReader(nil).Block(context.Background(), netinfo.P, 3)
	require.NoError(err)
	require.False(ok)
}

func TestReopenKeepsDataAndTokenKey(t *testing.T) {
	require := require.New(t)
	dir := t.TempDir()
	s := openTest(t, dir)
	key, err := s.PageTokenKey()
	require.NoError(err)
	require.Len(key, 32)
	require.NoError(apply(s, netinfo.X, blocks(1, 5, 1000, 1, 3), time.Now()))
	require.NoError(s.Close())

	s = openTest(t, dir)
	defer s.Close()
	again, err := s.PageTokenKey()
	require.NoError(err)
	require.Equal(key, again)
	c, err := cursorOf(s, netinfo.X)
	require.NoError(err)
	require.Equal(uint64(6), c.NextHeight)
}

func TestSchemaVersionMismatchIsRefused(t *testing.T) {
	require := require.New(t)
	dir := t.TempDir()
	s := openTest(t, dir)
	require.NoError(s.db.Update(func(txn *badgerTxn) error {
		return txn.Set(metaSchemaKey, []byte{0, 0, 0, 99})
	}))
	require.NoError(s.Close())

	_, err := Open(dir, logging.NoLog{})
	require.ErrorContains(err, "schema version 99")
	require.ErrorContains(err, "delete that directory")
}

// TestSchemaVersionBeforeIsReadAndMarked: a store of the version before
// opens, and is marked this version (a binary of the version before would
// misread the rows written from then on); one older still is refused.
func TestSchemaVersionBeforeIsReadAndMarked(t *testing.T) {
	require := require.New(t)
	dir := t.TempDir()
	s := openTest(t, dir)
	setVersion := func(v uint32) {
		require.NoError(s.db.Update(func(txn *badgerTxn) error {
			return txn.Set(metaSchemaKey, binary.BigEndian.AppendUint32(nil, v))
		}))
	}
	setVersion(readableSchemaVersion)
	require.NoError(s.Close())

	s, err := Open(dir, logging.NoLog{})
	require.NoError(err)
	require.NoError(s.db.View(func(txn *badgerTxn) error {
		v, err := getValue(txn, metaSchemaKey)
		require.Equal(binary.BigEndian.AppendUint32(nil, SchemaVersion), v)
		return err
	}))
	setVersion(readableSchemaVersion - 1)
	require.NoError(s.Close())
	_, err = Open(dir, logging.NoLog{})
	require.ErrorContains(err, "delete that directory")
}

func BenchmarkApplyBlocks(b *testing.B) {
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	defer s.Close()
	const batch = 256
	next := uint64(1)
	b.ResetTimer()
	for range b.N {
		if err := apply(s, netinfo.X, blocks(next, batch, int64(next), 2, 5), time.Now()); err != nil {
			b.Fatal(err)
		}
		next += batch
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "blocks/s")
}
