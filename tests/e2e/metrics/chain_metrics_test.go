package metrics

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// evmActivity is the shared network's EVM activity, made on first use.
func evmActivity(t *testing.T) []*chainActivity {
	t.Helper()
	return env.activity.Get(t, "the EVM activity", func() []*chainActivity {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		return makeActivity(t, ctx, env.Net(t), env.Base(t))
	})
}

// chainTruth is one EVM chain's metrics as the node's blocks, receipts and
// traces give them, up to the height avadata has indexed.
type chainTruth struct {
	id      string // the {chainId} of the Metrics API: the EVM chain id
	name    string
	metrics *truth.ChainMetrics
}

// recompute reads every chain of acts from its node up to the height
// avadata at base has indexed, which must be the node's own (no activity
// is under way), and recomputes its metrics.
func recompute(t *testing.T, ctx context.Context, base string, acts []*chainActivity) []*chainTruth {
	t.Helper()
	var out []*chainTruth
	for _, a := range acts {
		h := indexedHeight(t, ctx, base, a.chain.BlockchainID.String())
		node, err := a.rpc.BlockNumber(ctx)
		require.NoError(t, err)
		require.Equal(t, node, h, "%s: avadata has indexed %d of the node's %d blocks", a.chain.Name, h, node)
		chain := truth.NewEVMChain(a.rpc.RPC())
		require.NoError(t, chain.ScanTo(ctx, h), "%s: reading blocks 1..%d from the node", a.chain.Name, h)
		m, err := chain.Metrics(h)
		require.NoError(t, err, "%s", a.chain.Name)
		out = append(out, &chainTruth{id: fmt.Sprint(a.chain.EVMChainID), name: a.chain.Name, metrics: m})
		all := m.Window(0)
		t.Logf("%s (chain %s): blocks 1..%d, %s .. %s: %d txs, %d gas, %s wei fees, %d active addresses, %d senders, "+
			"%d contracts by %d deployers", a.chain.Name, out[len(out)-1].id, h,
			time.Unix(m.FirstTs(), 0).UTC().Format(time.RFC3339), time.Unix(m.LastTs(), 0).UTC().Format(time.RFC3339),
			all.Txs, all.GasUsed, all.Fees, all.Active, all.Senders, all.Contracts, all.Deployers)
	}
	return out
}

// metricsTarget is a {chainId} of the Metrics API and the chains it sums.
type metricsTarget struct {
	id     string
	chains []*truth.ChainMetrics
}

// targets are each chain on its own, and total and testnet (every
// followed EVM chain; the local network is not mainnet).
func targets(chains []*chainTruth) []metricsTarget {
	var out []metricsTarget
	var all []*truth.ChainMetrics
	for _, c := range chains {
		out = append(out, metricsTarget{id: c.id, chains: []*truth.ChainMetrics{c.metrics}})
		all = append(all, c.metrics)
	}
	return append(out, metricsTarget{id: "total", chains: all}, metricsTarget{id: "testnet", chains: all})
}

// seriesRanges are the time ranges each series is asked over: none, the
// chain's whole activity, its last second, all of time allowed, and ranges
// entirely after and before it.
func seriesRanges(chains []*truth.ChainMetrics) [][2]*int64 {
	first, last := chains[0].FirstTs(), chains[0].LastTs()
	for _, m := range chains {
		first, last = min(first, m.FirstTs()), max(last, m.LastTs())
	}
	return [][2]*int64{
		{nil, nil},
		{i64(first), i64(last)},
		{i64(last), i64(last)},
		{i64(first + 1), nil},
		{nil, i64(last - 1)},
		{i64(0), i64(253402300799)},
		{i64(last + 40*86400), nil},
		{nil, i64(first - 40*86400)},
	}
}

// TestMetricsEVMChainSeries makes activity of every kind the chain
// metrics count on both local EVM chains (the C-chain and the subnet-evm
// chain: deployments by two senders and by a factory contract, value and
// ERC-20/721/1155 transfers, batch ones, a reverted call and a reverted tx
// whose creation did not last, several senders), then asks avadata for
// every ChainMetric at every granularity (hour, day, week, month, and the
// default, day) of each chain and of total and testnet, over several time
// ranges, whole and one point per page, and checks every point against the
// metrics recomputed from the node's blocks, receipts and callTracer
// traces (truth.ChainMetrics).
func TestMetricsEVMChainSeries(t *testing.T) {
	acts := evmActivity(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base, mbase := env.Base(t), env.Metrics(t)
	chains := recompute(t, ctx, base, acts)
	started := time.Now()
	requests := 0
	for _, tg := range targets(chains) {
		t.Run(tg.id, func(t *testing.T) {
			for _, metric := range truth.ChainMetricNames() {
				for _, g := range append(truth.MetricsGranularities(), "") {
					want := g
					if g == "" {
						want = truth.MetricsDay // timeInterval absent is day
					}
					for _, r := range seriesRanges(tg.chains) {
						w, err := truth.Series(metric, want, tg.chains, r[0], r[1])
						require.NoError(t, err)
						u := seriesURL(mbase, tg.id, metric, rangeQuery(g, r[0], r[1], 0))
						got, pages := getSeries(t, ctx, u)
						requests += pages
						requireSeries(t, u, w, got)
						if r[0] == nil && r[1] == nil {
							// One point per page: the pages join up.
							u := seriesURL(mbase, tg.id, metric, rangeQuery(g, r[0], r[1], 1))
							got, pages := getSeries(t, ctx, u)
							requests += pages
							requireSeries(t, u, w, got)
							require.LessOrEqual(t, pages, len(w)+1, "%s: pages", u)
						}
					}
				}
			}
		})
	}
	t.Logf("%d requests checked in %v", requests, time.Since(started).Round(time.Millisecond))
}

// TestMetricsEVMRollingWindows checks every rolling window metric
// (lastHour ... allTime) of each local EVM chain, of total and of testnet
// against the recomputation from the node.
func TestMetricsEVMRollingWindows(t *testing.T) {
	acts := evmActivity(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	chains := recompute(t, ctx, env.Base(t), acts)
	for _, tg := range targets(chains) {
		for _, metric := range truth.RollingMetricNames() {
			want, err := truth.Rolling(metric, tg.chains)
			require.NoError(t, err)
			u := rollingURL(env.Metrics(t), tg.id, metric)
			requireRolling(t, u, want, getRolling(t, ctx, u))
		}
	}
}
