package pchain

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	proposerblock "github.com/ava-labs/avalanchego/vms/proposervm/block"

	"github.com/avadata/avadata/indexer/blockindex"
)

// fakeIndex is a node's block index over a fixed chain.
type fakeIndex struct {
	containers []blockindex.Container // index i holds height i+1
	mu         sync.Mutex
	calls      []uint64 // the from of each Containers call
}

func (f *fakeIndex) Head(context.Context) (uint64, error) { return uint64(len(f.containers)), nil }

func (f *fakeIndex) Containers(_ context.Context, from uint64, max int) ([]blockindex.Container, error) {
	f.mu.Lock()
	f.calls = append(f.calls, from)
	f.mu.Unlock()
	if from == 0 {
		return nil, errors.New("genesis is not indexed")
	}
	if from > uint64(len(f.containers)) {
		return nil, nil
	}
	end := min(int(from-1)+max, len(f.containers))
	return f.containers[from-1 : end], nil
}

// fakePlatform answers platform.getTx and platform.getRewardUTXOs from
// maps; a tx in late is unknown for that many calls first (the VM not yet
// committed).
type fakePlatform struct {
	mu      sync.Mutex
	txs     map[ids.ID][]byte
	rewards map[ids.ID][][]byte
	late    map[ids.ID]int
	calls   int
}

func newFakePlatform() *fakePlatform {
	return &fakePlatform{txs: map[ids.ID][]byte{}, rewards: map[ids.ID][][]byte{}, late: map[ids.ID]int{}}
}

func (f *fakePlatform) addTx(tx *txs.Tx) { f.txs[tx.ID()] = tx.Bytes() }

// L1Refund finds no refund: the source tests have no L1 validators.
func (*fakePlatform) L1Refund(context.Context, ids.ID, ids.ID, []ids.ShortID) ([]byte, bool, error) {
	return nil, false, nil
}

func (f *fakePlatform) GetTx(_ context.Context, txID ids.ID) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.late[txID] > 0 {
		f.late[txID]--
		return nil, errors.New("couldn't get tx: not found")
	}
	b, ok := f.txs[txID]
	if !ok {
		return nil, errors.New("couldn't get tx: not found")
	}
	return b, nil
}

func (f *fakePlatform) GetRewardUTXOs(_ context.Context, stakingTxID ids.ID) ([][]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.rewards[stakingTxID], nil
}

// addReward records a reward UTXO of stakingTx at index, paying amount to
// owner key k of w.
func (f *fakePlatform) addReward(t *testing.T, stakingTx *txs.Tx, index uint32, out *avax.TransferableOutput) {
	t.Helper()
	b, err := txs.GenesisCodec.Marshal(txs.CodecVersion, &avax.UTXO{
		UTXOID: avax.UTXOID{TxID: stakingTx.ID(), OutputIndex: index},
		Asset:  out.Asset,
		Out:    out.Out,
	})
	require.NoError(t, err)
	f.rewards[stakingTx.ID()] = append(f.rewards[stakingTx.ID()], b)
}

// testChain builds a P-chain with platformvm's block constructors into a
// fakeIndex.
type testChain struct {
	t      *testing.T
	index  *fakeIndex
	parent ids.ID // the last block's outer ID
	inner  ids.ID // the last block's inner ID
}

func newTestChain(t *testing.T) *testChain {
	return &testChain{t: t, index: &fakeIndex{}, parent: ids.Empty.Prefix(999), inner: ids.Empty.Prefix(999)}
}

// next is the height of the next block.
func (c *testChain) next() uint64 { return uint64(len(c.index.containers)) + 1 }

// add appends blk, raw (as before the proposervm fork) or wrapped: signed
// with proposer time at (any node's: no certificate), or as an option.
type wrapping int

const (
	raw wrapping = iota
	signed
	option
)

func (c *testChain) add(blk block.Block, w wrapping, at time.Time) blockindex.Container {
	c.t.Helper()
	var cont blockindex.Container
	switch w {
	case raw:
		cont = blockindex.Unwrap(blk.ID(), blk.Bytes())
		require.False(c.t, cont.Wrapped, "a raw block must not parse as a proposervm block")
	case signed:
		outer, err := proposerblock.BuildUnsigned(c.parent, at, 1, proposerblock.Epoch{}, blk.Bytes())
		require.NoError(c.t, err)
		cont = blockindex.Unwrap(outer.ID(), outer.Bytes())
	case option:
		outer, err := proposerblock.BuildOption(c.parent, blk.Bytes())
		require.NoError(c.t, err)
		cont = blockindex.Unwrap(outer.ID(), outer.Bytes())
	}
	require.Equal(c.t, w != raw, cont.Wrapped)
	c.index.containers = append(c.index.containers, cont)
	c.parent, c.inner = cont.ID, blk.ID()
	return cont
}

// unsignedTx initializes a tx that carries no credentials.
func unsignedTx(t *testing.T, utx txs.UnsignedTx) *txs.Tx {
	t.Helper()
	tx := &txs.Tx{Unsigned: utx}
	require.NoError(t, tx.Initialize(txs.Codec))
	return tx
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}
