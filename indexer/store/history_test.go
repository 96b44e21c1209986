package store

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

func TestStartStreamAndHistoryFrom(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	from, err := s.HistoryFrom(ctx, netinfo.C)
	require.NoError(t, err)
	require.Equal(t, uint64(1), from, "a chain not indexed yet starts at genesis")

	require.NoError(t, s.StartStream(ctx, netinfo.C, StreamBlocks, 700))
	require.NoError(t, s.StartStream(ctx, netinfo.C, StreamBlocks, 700), "starting again where it started is a no-op")
	require.ErrorIs(t, s.StartStream(ctx, netinfo.C, StreamBlocks, 5), ErrStreamStarted)
	c, err := s.Cursor(ctx, netinfo.C, StreamBlocks)
	require.NoError(t, err)
	require.Equal(t, Cursor{NextHeight: 700, FirstHeight: 700, LastApplied: c.LastApplied}, c)
	from, err = s.HistoryFrom(ctx, netinfo.C)
	require.NoError(t, err)
	require.Equal(t, uint64(700), from)
}

// A cursor written before streams could start above genesis reads as one
// that starts at 1.
func TestLegacyCursorStartsAtGenesis(t *testing.T) {
	b := binary.BigEndian.AppendUint64(nil, 42)
	b = binary.BigEndian.AppendUint64(b, 0)
	b = binary.BigEndian.AppendUint64(b, 7)
	c, err := decodeCursor(b)
	require.NoError(t, err)
	require.Equal(t, uint64(42), c.NextHeight)
	require.Equal(t, uint64(1), c.FirstHeight)
	again, err := decodeCursor(c.encode())
	require.NoError(t, err)
	require.Equal(t, c, again)
}

// A reader's answer read before a writer's commit is never served after
// it, whichever stores last.
func TestRunningStatesNeverServeAStaleRead(t *testing.T) {
	var r runningStates
	gen := r.generation(netinfo.C) // a reader starts
	r.set(netinfo.C, &runningState{from: 1, ok: true})
	r.keep(netinfo.C, gen, runningState{from: 700, ok: true}) // and stores after the commit
	require.Nil(t, r.get(netinfo.C), "the stale read is not served")

	gen = r.generation(netinfo.C)
	r.keep(netinfo.C, gen, runningState{from: 1, ok: true})
	got := r.get(netinfo.C)
	require.NotNil(t, got)
	require.Equal(t, uint64(1), got.from)

	r.set(netinfo.C, nil) // a failed commit: read again
	require.Nil(t, r.get(netinfo.C))
}
