package pchain

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/utils/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
)

// oneBlockVM serves one block through getBlockByHeight, as
// platform.getBlockByHeight does on a node without the index API.
type oneBlockVM struct {
	height uint64
	bytes  []byte
}

func (v oneBlockVM) GetHeight(context.Context, ...rpc.Option) (uint64, error) { return v.height, nil }

func (v oneBlockVM) GetBlockByHeight(_ context.Context, h uint64, _ ...rpc.Option) ([]byte, error) {
	if h != v.height {
		return nil, errors.New("not found")
	}
	return v.bytes, nil
}

// The same real block read through getBlockByHeight instead of the index
// API: the P source over blockindex.ByHeight gives the same block.
func TestRealBlockByHeight(t *testing.T) {
	raw, err := os.ReadFile("testdata/mainnet-p-1000001.hex")
	require.NoError(t, err)
	b, err := formatting.Decode(formatting.Hex, strings.TrimSpace(string(raw)))
	require.NoError(t, err)

	byHeight := blockindex.NewByHeight(netinfo.P, oneBlockVM{height: 1_000_001, bytes: b})
	got, err := New(byHeight, newFakePlatform(), upgrade.Mainnet).Fetch(t.Context(), 1_000_001, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)

	index := &fakeIndex{containers: make([]blockindex.Container, 1_000_001)}
	id := got[0].ID
	index.containers[1_000_000] = blockindex.Unwrap(id, b)
	want, err := New(index, newFakePlatform(), upgrade.Mainnet).Fetch(t.Context(), 1_000_001, 1)
	require.NoError(t, err)
	require.Equal(t, want, got, "a pre-fork block reads the same either way")
	require.Equal(t, "d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG", id.String())
	require.Nil(t, got[0].Proposer)
}

// innerVM serves a fakeIndex's blocks as getBlockByHeight does: the inner
// platformvm block only.
type innerVM struct{ index *fakeIndex }

func (v innerVM) GetHeight(context.Context, ...rpc.Option) (uint64, error) {
	return uint64(len(v.index.containers)), nil
}

func (v innerVM) GetBlockByHeight(_ context.Context, h uint64, _ ...rpc.Option) ([]byte, error) {
	if h == 0 || h > uint64(len(v.index.containers)) {
		return nil, errors.New("not found")
	}
	return v.index.containers[h-1].Inner, nil
}

// The scenario's chain (proposal blocks, options, rewards, aborts) read
// through getBlockByHeight decides every tx as the index API's does; the
// blocks differ only in what the proposervm wrapper gave: ID, parent ID,
// size and proposer.
func TestFetchByHeightDecidesAsTheIndex(t *testing.T) {
	s := newScenario(t)
	head := uint64(len(s.chain.index.containers))
	want, err := s.source().Fetch(t.Context(), 1, int(head))
	require.NoError(t, err)
	byHeight := New(blockindex.NewByHeight(netinfo.P, innerVM{s.chain.index}), s.platform, upgrade.Mainnet)
	byHeight.retryFirst = time.Millisecond
	got, err := byHeight.Fetch(t.Context(), 1, int(head))
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		inner := s.chain.index.containers[i].Inner
		require.Equal(t, ids.ID(hashing.ComputeHash256Array(inner)), got[i].ID, "block %d: the VM's ID", i+1)
		require.Nil(t, got[i].Proposer)
		require.Equal(t, len(inner), got[i].Size)
		if i > 0 {
			require.Equal(t, got[i-1].ID, got[i].ParentID, "block %d: chained by the VM's IDs", i+1)
		}
		w := *want[i]
		w.ID, w.ParentID, w.Size, w.Proposer = got[i].ID, got[i].ParentID, got[i].Size, nil
		require.Equal(t, &w, got[i], "block %d", i+1)
	}

	// The option not accepted yet: the range ends before its proposal block.
	s.chain.index.containers = s.chain.index.containers[:13]
	blocks, err := byHeight.Fetch(t.Context(), 11, 10)
	require.NoError(t, err)
	require.Len(t, blocks, 2)
	blocks, err = byHeight.Fetch(t.Context(), 13, 10)
	require.NoError(t, err)
	require.Empty(t, blocks)
}
