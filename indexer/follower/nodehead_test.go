package follower

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// NodeHead knows nothing until the loop has read the node's head once (a
// 0 then would look like a chain at genesis), and from then on reads the
// node's head at the time of the call, not the loop's last poll.
func TestNodeHeadIsKnownOnceTheLoopReadTheHead(t *testing.T) {
	src := &fakeSource{head: 5}
	f, _ := newTestFollower(t, src)
	ctx := context.Background()
	_, known, err := f.NodeHead(ctx)
	require.NoError(t, err)
	require.False(t, known)

	run, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- f.Run(run) }()
	waitIndexed(t, f, 5)
	require.True(t, f.Status().NodeHeightKnown)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)

	src.setHead(30) // accepted after the loop's last poll
	head, known, err := f.NodeHead(ctx)
	require.NoError(t, err)
	require.True(t, known)
	require.Equal(t, uint64(30), head)
}
