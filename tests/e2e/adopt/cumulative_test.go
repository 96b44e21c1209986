//go:build e2e

package adopt

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// checkCumulativeTxs checks listed blocks 1..head (the blocks listing's
// items) against the node: each block's cumulativeTransactions is the sum
// of eth_getBlockTransactionCountByNumber up to it.
func checkCumulativeTxs(t *testing.T, ctx context.Context, node *rpc.Client, listed []json.RawMessage, head uint64) {
	t.Helper()
	var blocks []struct {
		Number     string `json:"blockNumber"`
		Cumulative string `json:"cumulativeTransactions"`
	}
	require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(listed)), &blocks))
	require.Len(t, blocks, int(head), "blocks 1..head are listed")
	cumulative := map[string]string{}
	for _, b := range blocks {
		cumulative[b.Number] = b.Cumulative
	}
	total := uint64(0)
	for h := uint64(1); h <= head; h++ {
		var n hexutil.Uint64
		require.NoError(t, node.CallContext(ctx, &n, "eth_getBlockTransactionCountByNumber", hexutil.Uint64(h)))
		total += uint64(n)
		require.Equal(t, fmt.Sprint(total), cumulative[fmt.Sprint(h)], "cumulative txs of block %d", h)
	}
}
