package primary

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestPrimaryAvgTPSMatchesNodeBlocks issues real X, P and C transactions, then
// checks that avadata's daily average TPS of every chain equals what the
// node's own blocks (tx counts and timestamps, read over the node's JSON
// APIs) give.
func TestPrimaryAvgTPSMatchesNodeBlocks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	issuer := harness.NewTxIssuer(t, ctx, env.URI(t))
	issuer.IssueX(t, ctx, 5)
	issuer.IssueP(t, ctx, 4)
	issuer.IssueC(t, ctx, 3)

	chains := map[string]string{"P": "p-chain", "X": "x-chain", "C": "43112"}
	heights := map[string]uint64{}
	for chain := range chains {
		heights[chain] = truth.Height(t, ctx, env.URI(t), chain)
		require.NotZero(t, heights[chain], "%s-chain has no blocks", chain)
	}
	harness.WaitIndexed(t, ctx, env.Base(t), heights)

	for chain, id := range chains {
		t.Run(chain, func(t *testing.T) {
			want := expectedTPS(nodeBlocks(t, ctx, env.URI(t), chain, heights[chain]))
			r := harness.Get(t, ctx, env.Metrics(t)+"/v1/avg_tps/"+id)
			require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
			require.Contains(t, r.Header.Get("Content-Type"), "application/json")
			var body struct {
				Results       []tpsResult `json:"results"`
				Status        int         `json:"status"`
				LastRun       int64       `json:"lastRun"`
				NextPageToken *string     `json:"nextPageToken"`
			}
			r.Decode(t, &body)
			require.Equal(t, http.StatusOK, body.Status)
			require.Nil(t, body.NextPageToken, "one page expected")
			require.Len(t, body.Results, len(want))
			for i := range want {
				require.Equal(t, want[i].Timestamp, body.Results[i].Timestamp)
				require.InDelta(t, want[i].Value, body.Results[i].Value, 1e-12, "day %d", want[i].Timestamp)
			}
			require.GreaterOrEqual(t, body.LastRun, body.Results[0].Timestamp)
			require.LessOrEqual(t, body.LastRun, time.Now().Unix())
		})
	}

	// The C-chain by its other names gives the same answer.
	var cChain struct {
		BlockchainID string `json:"blockchainID"`
	}
	require.NoError(t, truth.Call(ctx, env.URI(t)+"/ext/info", "info.getBlockchainID", map[string]string{"alias": "C"}, &cChain))
	byNumber := harness.Get(t, ctx, env.Metrics(t)+"/v1/avg_tps/43112")
	for _, name := range []string{"c-chain", cChain.BlockchainID} {
		r := harness.Get(t, ctx, env.Metrics(t)+"/v1/avg_tps/"+name)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", name, r.Body)
		require.JSONEq(t, string(byNumber.Body), string(r.Body), name)
	}
}

// nodeBlock is what the node itself says of one accepted block, read over
// its JSON APIs (json encoding), independently of avadata's parsers.
type nodeBlock struct {
	height    uint64
	timestamp int64
	txCount   int
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
	require.NoError(t, truth.EthClient(t, ctx, uri).CallContext(ctx, &blk, "eth_getBlockByNumber", hexutil.Uint64(h), false))
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
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/"+chain, method, args, &reply), "%s block %d", chain, h)
	require.Equal(t, h, uint64(reply.Block.Height))
	count := len(reply.Block.Txs)
	if reply.Block.Tx != nil {
		count++
	}
	return nodeBlock{height: h, timestamp: int64(reply.Block.Time), txCount: count}
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
