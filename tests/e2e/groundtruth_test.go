package e2e

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/utils/json"
	avarpc "github.com/ava-labs/avalanchego/utils/rpc"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
)

// nodeBlock is what the node itself says of one accepted block, read over
// its JSON APIs (json encoding), independently of avadata's parsers.
type nodeBlock struct {
	height    uint64
	timestamp int64
	txCount   int
}

// nodeHeight returns the height of chain ("P", "X" or "C") on the node.
func nodeHeight(t *testing.T, ctx context.Context, uri, chain string) uint64 {
	t.Helper()
	if chain == "C" {
		var n hexutil.Uint64
		require.NoError(t, ethClient(t, ctx, uri).CallContext(ctx, &n, "eth_blockNumber"))
		return uint64(n)
	}
	var reply struct {
		Height json.Uint64 `json:"height"`
	}
	method := map[string]string{"P": "platform.getHeight", "X": "avm.getHeight"}[chain]
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/"+chain, method, struct{}{}, &reply))
	return uint64(reply.Height)
}

// nodeBlocks returns blocks 1..to of chain as the node reports them.
func nodeBlocks(t *testing.T, ctx context.Context, uri, chain string, to uint64) []nodeBlock {
	t.Helper()
	out := make([]nodeBlock, 0, to)
	for h := uint64(1); h <= to; h++ {
		var b nodeBlock
		if chain == "C" {
			b = nodeEthBlock(t, ctx, uri, h)
		} else {
			b = nodeSnowmanBlock(t, ctx, uri, chain, h)
		}
		out = append(out, b)
	}
	return out
}

func nodeEthBlock(t *testing.T, ctx context.Context, uri string, h uint64) nodeBlock {
	var blk struct {
		Timestamp    hexutil.Uint64 `json:"timestamp"`
		Transactions []string       `json:"transactions"`
	}
	require.NoError(t, ethClient(t, ctx, uri).CallContext(ctx, &blk, "eth_getBlockByNumber", hexutil.Uint64(h), false))
	return nodeBlock{height: h, timestamp: int64(blk.Timestamp), txCount: len(blk.Transactions)}
}

// nodeSnowmanBlock reads a P or X block with platform/avm.getBlockByHeight
// in json encoding: "time" is the block time, "txs" the (decision) txs and
// "tx" a proposal or atomic block's tx.
func nodeSnowmanBlock(t *testing.T, ctx context.Context, uri, chain string, h uint64) nodeBlock {
	var reply struct {
		Block struct {
			Height json.Uint64 `json:"height"`
			Time   uint64      `json:"time"`
			Txs    []any       `json:"txs"`
			Tx     any         `json:"tx"`
		} `json:"block"`
	}
	method := map[string]string{"P": "platform.getBlockByHeight", "X": "avm.getBlockByHeight"}[chain]
	args := map[string]any{"height": json.Uint64(h), "encoding": "json"}
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/"+chain, method, args, &reply), "%s block %d", chain, h)
	require.Equal(t, h, uint64(reply.Block.Height))
	count := len(reply.Block.Txs)
	if reply.Block.Tx != nil {
		count++
	}
	return nodeBlock{height: h, timestamp: int64(reply.Block.Time), txCount: count}
}

// callJSON makes one avalanchego JSON-RPC call.
func callJSON(ctx context.Context, endpoint, method string, params, reply any) error {
	u, err := url.Parse(endpoint)
	if err != nil {
		return err
	}
	if err := avarpc.SendJSONRequest(ctx, u, method, params, reply); err != nil {
		return fmt.Errorf("%s on %s: %w", method, endpoint, err)
	}
	return nil
}

func ethClient(t *testing.T, ctx context.Context, uri string) *rpc.Client {
	t.Helper()
	c, err := rpc.DialContext(ctx, uri+"/ext/bc/C/rpc")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// expectedTPS computes the documented daily average TPS from node blocks:
// per UTC day, transactions / 86400, except the chain's newest day, averaged
// over the seconds from midnight through its newest block (inclusive).
func expectedTPS(blocks []nodeBlock) []tpsResult {
	type day struct {
		txs    int
		lastTs int64
	}
	days := map[int64]*day{}
	var newest int64 = -1
	for _, b := range blocks {
		start := b.timestamp - b.timestamp%86400
		d, ok := days[start]
		if !ok {
			d = &day{}
			days[start] = d
		}
		d.txs += b.txCount
		d.lastTs = max(d.lastTs, b.timestamp)
		newest = max(newest, start)
	}
	var out []tpsResult
	for start := newest; start >= 0 && len(out) < len(days); start -= 86400 {
		d, ok := days[start]
		if !ok {
			continue
		}
		seconds := int64(86400)
		if start == newest {
			seconds = d.lastTs - start + 1
		}
		out = append(out, tpsResult{Timestamp: start, Value: float64(d.txs) / float64(seconds)})
	}
	return out
}

// tpsResult is one point of GET /metrics/v1/avg_tps.
type tpsResult struct {
	Timestamp int64   `json:"timestamp"`
	Value     float64 `json:"value"`
}
