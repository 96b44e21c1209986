package nodeapi

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEVMChainIDAndBlockNumber(t *testing.T) {
	c := dial(t, serve(t, &fakeEVM{head: 77}, 0, 0, false, 0))
	id, err := c.ChainID(context.Background())
	require.NoError(t, err)
	require.Equal(t, int64(43112), id.Int64())
	n, err := c.BlockNumber(context.Background())
	require.NoError(t, err)
	require.Equal(t, uint64(77), n)
}

func TestBlocksInOneBatch(t *testing.T) {
	s := serve(t, &fakeEVM{head: 100}, 1000, 25_000_000, false, 0)
	got, err := dial(t, s).Blocks(context.Background(), 10, 20)
	require.NoError(t, err)
	requireBlocks(t, got, 10, 20)
	require.Equal(t, []int{40}, s.sizes(), "a block and its receipts per height, one request")
}

func TestBlocksSplitWhenTooManyCalls(t *testing.T) {
	s := serve(t, &fakeEVM{head: 100}, 3, 0, false, 0)
	got, err := dial(t, s).Blocks(context.Background(), 0, 10)
	require.NoError(t, err)
	requireBlocks(t, got, 0, 10)
	sizes := s.sizes()
	require.Equal(t, 20, sizes[0], "the first batch is refused whole")
	answered := 0
	for _, n := range sizes {
		if n <= 3 {
			answered += max(n, 1)
		}
	}
	require.Equal(t, 20, answered, "every call answered once, in batches the node accepts")
}

func TestBlocksRetryWhatAResponseLimitCutOff(t *testing.T) {
	f := &fakeEVM{head: 100, padding: 1000}
	s := serve(t, f, 1000, 5000, false, 0) // about two blocks per response
	got, err := dial(t, s).Blocks(context.Background(), 0, 30)
	require.NoError(t, err)
	requireBlocks(t, got, 0, 30)
	require.Greater(t, len(s.sizes()), 5)
}

func TestBlocksFallBackToSingleCalls(t *testing.T) {
	// Even one block's two answers are over the limit: only single calls,
	// which carry no batch limits, get through.
	s := serve(t, &fakeEVM{head: 100, padding: 1000}, 1000, 100, false, 0)
	got, err := dial(t, s).Blocks(context.Background(), 5, 4)
	require.NoError(t, err)
	requireBlocks(t, got, 5, 4)
	require.Contains(t, s.sizes(), 0)
}

func TestBlocksSplitWhenHTTPRefusesTheBatch(t *testing.T) {
	s := serve(t, &fakeEVM{head: 100}, 0, 0, false, 4)
	got, err := dial(t, s).Blocks(context.Background(), 0, 9)
	require.NoError(t, err)
	requireBlocks(t, got, 0, 9)
}

func TestBlocksSendAtMostTheNodesBatchLimit(t *testing.T) {
	s := serve(t, &fakeEVM{head: 2000}, 1000, 0, false, 0)
	got, err := dial(t, s).Blocks(context.Background(), 1, 600)
	require.NoError(t, err)
	requireBlocks(t, got, 1, 600)
	require.Equal(t, []int{1000, 200}, s.sizes())
}

func TestBlocksEndAtTheNodesHead(t *testing.T) {
	for name, f := range map[string]*fakeEVM{
		"null above head":        {head: 12},
		"unfinalized above head": {head: 12, unfinalizedErr: true},
	} {
		t.Run(name, func(t *testing.T) {
			c := dial(t, serve(t, f, 1000, 0, false, 0))
			got, err := c.Blocks(context.Background(), 10, 10)
			require.NoError(t, err)
			requireBlocks(t, got, 10, 3)
			got, err = c.Blocks(context.Background(), 13, 5)
			require.NoError(t, err)
			require.Empty(t, got)
		})
	}
}

func TestBlocksElementErrorNamesHeight(t *testing.T) {
	f := &fakeEVM{head: 100, receiptsErr: map[uint64]error{7: errors.New("database closed")}}
	_, err := dial(t, serve(t, f, 1000, 0, false, 0)).Blocks(context.Background(), 0, 10)
	require.ErrorContains(t, err, "eth_getBlockReceipts(7): database closed")
}

func TestBlocksErrorAboveHeadIsIgnored(t *testing.T) {
	f := &fakeEVM{head: 5, receiptsErr: map[uint64]error{7: errors.New("database closed")}}
	got, err := dial(t, serve(t, f, 1000, 0, false, 0)).Blocks(context.Background(), 0, 10)
	require.NoError(t, err)
	requireBlocks(t, got, 0, 6)
}

func TestBlocksHonourContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := dial(t, serve(t, &fakeEVM{head: 100}, 0, 0, false, 0)).Blocks(ctx, 0, 10)
	require.ErrorIs(t, err, context.Canceled)
}

func TestTraceBlocks(t *testing.T) {
	s := serve(t, &fakeEVM{head: 100}, 1000, 0, true, 0)
	got, err := dial(t, s).TraceBlocks(context.Background(), 1, 40)
	require.NoError(t, err)
	require.Len(t, got, 40)
	for i, bt := range got {
		require.NoError(t, bt.Err)
		require.Equal(t, uint64(1+i), bt.Number)
		require.Len(t, bt.Txs, 1)
		require.Equal(t, txHash(bt.Number), bt.Txs[0].TxHash)
		require.Equal(t, "CALL", bt.Txs[0].Result.Type)
	}
	require.Equal(t, []int{traceBatchCalls, 40 - traceBatchCalls}, s.sizes())
}

func TestTraceHeightsEndAtTheNodesHead(t *testing.T) {
	got, err := dial(t, serve(t, &fakeEVM{head: 10}, 1000, 0, true, 0)).TraceHeights(context.Background(), []uint64{3, 9, 10, 11, 12})
	require.NoError(t, err)
	require.Len(t, got, 3)
	require.Equal(t, uint64(10), got[2].Number)
}

func TestTraceHeightsWithoutDebugAPI(t *testing.T) {
	got, err := dial(t, serve(t, &fakeEVM{head: 10}, 1000, 0, false, 0)).TraceHeights(context.Background(), []uint64{4, 5})
	require.NoError(t, err)
	require.Len(t, got, 2)
	for _, bt := range got {
		require.True(t, IsMethodNotFound(bt.Err), "%v", bt.Err)
		require.False(t, IsStateUnavailable(bt.Err))
	}
	require.ErrorContains(t, got[1].Err, "debug_traceBlockByNumber(5)")
}

func TestTraceHeightsPerBlockErrors(t *testing.T) {
	f := &fakeEVM{head: 10, traceErr: map[uint64]error{
		2: errors.New("required historical state unavailable (reexec=128)"),
		3: errors.New("execution timeout"),
	}}
	got, err := dial(t, serve(t, f, 1000, 0, true, 0)).TraceHeights(context.Background(), []uint64{1, 2, 3, 4})
	require.NoError(t, err)
	require.Len(t, got, 4)
	require.NoError(t, got[0].Err)
	require.True(t, IsStateUnavailable(got[1].Err))
	require.ErrorContains(t, got[2].Err, "debug_traceBlockByNumber(3): execution timeout")
	require.False(t, IsStateUnavailable(got[2].Err) || IsMethodNotFound(got[2].Err))
	require.NoError(t, got[3].Err)
}
