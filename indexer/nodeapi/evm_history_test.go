package nodeapi

import (
	"context"
	"fmt"
	"math/rand"
	"net/http/httptest"
	"testing"

	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
)

// syncedEVM is a node that state-synced its chain to block summary, as
// coreth and subnet-evm do: every block from summary to head with its
// receipts, the 256 parents of summary as bodies without receipts, nothing
// older. hasTx says which blocks hold a transaction. summary 0: the whole
// history.
type syncedEVM struct {
	head, summary uint64
	hasTx         func(n uint64) bool
}

func (f *syncedEVM) body(n uint64) bool  { return n <= f.head && (f.summary == 0 || n+256 >= f.summary) }
func (f *syncedEVM) whole(n uint64) bool { return n <= f.head && (f.summary == 0 || n >= f.summary) }

// truth is the earliest height from which every block is whole.
func (f *syncedEVM) truth() uint64 {
	first := f.head
	for first > 1 && f.whole(first-1) {
		first--
	}
	return first
}

type syncedEth struct{ f *syncedEVM }

func (s syncedEth) BlockNumber() hexutil.Uint64 { return hexutil.Uint64(s.f.head) }

func (s syncedEth) GetBlockByNumber(n hexutil.Uint64, full bool) (map[string]any, error) {
	if !s.f.body(uint64(n)) {
		return nil, nil
	}
	txs := []any{}
	if s.f.hasTx(uint64(n)) {
		txs = append(txs, txHash(uint64(n)))
	}
	return map[string]any{"number": n, "hash": blockHash(uint64(n)), "transactions": txs}, nil
}

// GetBlockReceipts answers as libevm's eth_getBlockReceipts does for a
// block whose receipts are not stored: the length check fails for a block
// with transactions, an empty block gets an empty list.
func (s syncedEth) GetBlockReceipts(n hexutil.Uint64) ([]map[string]any, error) {
	h := uint64(n)
	if !s.f.body(h) {
		return nil, nil
	}
	txs := 0
	if s.f.hasTx(h) {
		txs = 1
	}
	if !s.f.whole(h) {
		if txs > 0 {
			return nil, fmt.Errorf("receipts length mismatch: %d vs 0", txs)
		}
		return []map[string]any{}, nil
	}
	out := []map[string]any{}
	for range txs {
		out = append(out, map[string]any{"transactionHash": txHash(h), "status": "0x1", "logs": []any{}})
	}
	return out, nil
}

func dialSynced(t *testing.T, f *syncedEVM) *EVMClient {
	t.Helper()
	rs := rpc.NewServer()
	require.NoError(t, rs.RegisterName("eth", syncedEth{f}))
	hs := httptest.NewServer(rs)
	t.Cleanup(hs.Close)
	t.Cleanup(rs.Stop)
	c, err := DialEVM(context.Background(), hs.URL+"/", "C")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

func TestEarliestServedOnAStateSyncedNode(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		f    syncedEVM
	}{
		{"whole history", syncedEVM{head: 900, hasTx: func(uint64) bool { return true }}},
		{"whole history, empty blocks", syncedEVM{head: 900, hasTx: func(n uint64) bool { return n%7 == 0 }}},
		{"synced, every block with txs", syncedEVM{head: 2000, summary: 1200, hasTx: func(uint64) bool { return true }}},
		// The binary search lands in the receipt-less window on an empty
		// block above one with a transaction.
		{"synced, a tx low in the window", syncedEVM{head: 2000, summary: 1200, hasTx: func(n uint64) bool { return n == 950 }}},
		{"synced, sparse txs", syncedEVM{head: 2000, summary: 1200, hasTx: func(n uint64) bool { return n%50 == 0 }}},
		{"synced, a tx just under the summary", syncedEVM{head: 1300, summary: 1200, hasTx: func(n uint64) bool { return n == 1199 }}},
		// Block 1 is an empty body without receipts: it looks served.
		{"synced early, block 1 in the window", syncedEVM{head: 400, summary: 200, hasTx: func(n uint64) bool { return n == 150 }}},
		{"synced, no txs under the summary", syncedEVM{head: 2000, summary: 1200, hasTx: func(n uint64) bool { return n >= 1200 }}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := dialSynced(t, &tt.f)
			got, err := c.EarliestServed(ctx, tt.f.head)
			require.NoError(t, err)
			// Every block from the answer up is served whole; below an
			// all-empty stretch of bodies the answer may start inside it
			// (those blocks hold nothing a receipt could add).
			for h := got; h <= tt.f.head; h++ {
				require.True(t, tt.f.whole(h) || (tt.f.body(h) && !tt.f.hasTx(h)), "block %d of the answer %d", h, got)
			}
			if tt.f.summary == 0 {
				require.Equal(t, uint64(1), got)
			}
		})
	}
}

func TestEarliestServedFindsTheSuffixWhateverTheEmptyBlocks(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewSource(19))
	for range 200 {
		head := 2 + uint64(rng.Intn(3000))
		summary := uint64(rng.Intn(int(head) + 1))
		density := rng.Float64()
		txs := map[uint64]bool{}
		for h := uint64(1); h <= head; h++ {
			txs[h] = rng.Float64() < density
		}
		f := &syncedEVM{head: head, summary: summary, hasTx: func(n uint64) bool { return txs[n] }}
		// The same judge as BlocksServed, without the RPC round trips.
		served := func(_ context.Context, from, to uint64) ([]bool, error) {
			out := make([]bool, 0, to-from+1)
			for h := from; h <= to; h++ {
				out = append(out, f.whole(h) || (f.body(h) && !f.hasTx(h)))
			}
			return out, nil
		}
		got, err := earliestServed(ctx, head, served)
		require.NoError(t, err)
		lowest := head // the lowest h with [h, head] all served
		for lowest > 1 {
			s, _ := served(ctx, lowest-1, lowest-1)
			if !s[0] {
				break
			}
			lowest--
		}
		require.Equal(t, lowest, got, "head %d, summary %d, density %.2f", head, summary, density)
	}
}

func TestBlocksServedReadsTheNodesAnswers(t *testing.T) {
	f := &syncedEVM{head: 1300, summary: 1200, hasTx: func(n uint64) bool { return n%2 == 0 }}
	c := dialSynced(t, f)
	got, err := c.BlocksServed(context.Background(), 900, 1210)
	require.NoError(t, err)
	for i, s := range got {
		h := 900 + uint64(i)
		want := h >= 1200 || (h >= 944 && h%2 == 1)
		require.Equal(t, want, s, "block %d", h)
	}
	one, err := c.BlockServed(context.Background(), 1300)
	require.NoError(t, err)
	require.True(t, one)
}
