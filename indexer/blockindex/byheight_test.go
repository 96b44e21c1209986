package blockindex

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/utils/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

// fakeVM serves blocks "block <h>" up to head, counting calls in flight.
type fakeVM struct {
	head     uint64
	failAt   uint64
	inFlight atomic.Int32
	mu       sync.Mutex
	maxSeen  int32
}

func (f *fakeVM) GetHeight(context.Context, ...rpc.Option) (uint64, error) { return f.head, nil }

func (f *fakeVM) GetBlockByHeight(ctx context.Context, h uint64, _ ...rpc.Option) ([]byte, error) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	f.mu.Lock()
	f.maxSeen = max(f.maxSeen, n)
	f.mu.Unlock()
	time.Sleep(time.Millisecond)
	if h > f.head {
		return nil, errors.New("not found")
	}
	if f.failAt != 0 && h == f.failAt {
		return nil, errors.New("boom")
	}
	return []byte(fmt.Sprintf("block %d", h)), nil
}

func TestByHeightContainers(t *testing.T) {
	ctx := context.Background()
	vm := &fakeVM{head: 100}
	r := NewByHeight(netinfo.P, vm)

	head, err := r.Head(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(100), head)

	got, err := r.Containers(ctx, 5, 50)
	require.NoError(t, err)
	require.Len(t, got, 50)
	for i, c := range got {
		b := []byte(fmt.Sprintf("block %d", 5+i))
		require.Equal(t, b, c.Inner, "in height order")
		require.Equal(t, ids.ID(hashing.ComputeHash256Array(b)), c.ID, "the VM's block ID is the hash of its bytes")
		require.Equal(t, len(b), c.Size)
		require.False(t, c.Wrapped)
		require.Nil(t, c.Proposer, "getBlockByHeight carries no proposer")
	}
	require.LessOrEqual(t, vm.maxSeen, int32(byHeightConcurrency), "calls in flight are bounded")

	got, err = r.Containers(ctx, 95, 50)
	require.NoError(t, err)
	require.Len(t, got, 6, "cut at the last accepted block")

	got, err = r.Containers(ctx, 101, 10)
	require.NoError(t, err)
	require.Empty(t, got, "past the tip: nothing yet")

	got, err = r.Containers(ctx, 1, 5000)
	require.NoError(t, err)
	require.Len(t, got, 100)

	_, err = r.Containers(ctx, 0, 1)
	require.Error(t, err, "the genesis block is not followed")
}

func TestByHeightBoundAcrossRanges(t *testing.T) {
	ctx := context.Background()
	vm := &fakeVM{head: 2000}
	r := NewByHeight(netinfo.X, vm)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := r.Containers(ctx, 1+uint64(i)*400, 400)
			require.NoError(t, err)
			require.Len(t, got, 400)
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, vm.maxSeen, int32(byHeightConcurrency), "the bound holds across concurrent ranges")
}

func TestByHeightError(t *testing.T) {
	vm := &fakeVM{head: 100, failAt: 30}
	_, err := NewByHeight(netinfo.X, vm).Containers(context.Background(), 1, 100)
	require.ErrorContains(t, err, "avm.getBlockByHeight(30)")
	require.ErrorContains(t, err, "boom")
}
