package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// busyChain is n blocks of perBlock txs, each between two addresses never
// seen before: every tx moves three last-activity rows (the sender as
// sender and as active, the recipient as active).
func busyChain(n, perBlock int) []*evmdata.Block {
	var c chainBuilder
	out := make([]*evmdata.Block, n)
	seq := int64(0x100000)
	for i := range out {
		txs := make([]evmdata.Tx, perBlock)
		for j := range txs {
			from, to := common.BigToAddress(big.NewInt(seq)), common.BigToAddress(big.NewInt(seq+1))
			seq += 2
			txs[j] = transferTx(from, to)
			txs[j].GasUsed, txs[j].GasPrice = 21000, big.NewInt(25)
		}
		out[i] = c.block(txs...)
		if i > 0 {
			out[i].ParentHash = out[i-1].Hash
		}
	}
	return out
}

// The metric rows a transaction writes at its commit count against its
// budget as its blocks are added: a re-derive step over many busy blocks
// stops where they fit instead of failing the step (ErrTxnTooBig) again at
// every retry, and a follower's batch does not overflow at its commit.
func TestEVMMetricRowsWithinTxnBudget(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_700_100_000, 0)
	chain := busyChain(161, 100) // 16,100 txs: ~97,000 metric row writes
	s := openTest(t, t.TempDir())
	defer s.Close()
	w := s.EVMWriter(evmChain)
	require.NoError(t, w.Start(ctx, 161))
	require.NoError(t, w.Apply(ctx, chain[160:], now))
	require.NoError(t, w.Backfill(ctx, chain[:160]))
	for steps := 0; ; steps++ {
		require.Less(t, steps, 50)
		_, done, err := w.Rederive(ctx, 1000)
		require.NoError(t, err)
		if done {
			break
		}
	}
	totals, err := s.ChainMetricTotals(ctx, evmChain)
	require.NoError(t, err)
	require.Equal(t, uint64(161*100), totals.Txs)
	require.Equal(t, uint64(161*200), totals.Addresses)

	// The same blocks written forward in one batch.
	fwd := openTest(t, t.TempDir())
	defer fwd.Close()
	require.NoError(t, fwd.EVMWriter(evmChain).Apply(ctx, chain, now))
	totals, err = fwd.ChainMetricTotals(ctx, evmChain)
	require.NoError(t, err)
	require.Equal(t, uint64(161*200), totals.Addresses)
}
