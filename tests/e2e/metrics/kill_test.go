package metrics

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/tests/evmtest"
)

// killBacklogBlocks is how many blocks the kill test makes on the fast
// subnet-evm chain before re-indexing them.
const killBacklogBlocks = 600

// TestMetricsKillDuringCatchUpLeavesMetricsIdentical makes a backlog of
// subnet-evm blocks with every kind of activity the metrics count, lets
// avadata index it as it comes, and checks every chain metric (all 17 at
// every granularity, and the 13 rolling windows) against the node; then
// re-indexes the chain from scratch with several blocks per fetch and
// parallel fetchers, SIGKILLs the node in the middle of that catch-up
// (twice when it can: once more while it resumes), restarts it and checks
// that the finished index serves exactly the same metrics (of the chain
// and of total), and what the node's blocks, receipts and traces say; a
// rebuild from scratch without a kill serves them too.
func TestMetricsKillDuringCatchUpLeavesMetricsIdentical(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	config["batchSize"], config["fetchers"] = 8, 4
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: harness.NodeFlags(), SubnetEVMChainConfig: harness.SubnetEVMChainConfig(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	chain := net.EVMChains()[1]
	base := net.BaseURL()
	mbase := base + "/metrics"

	began := time.Now()
	c, head := makeMetricsBacklog(t, ctx, chain, killBacklogBlocks)
	defer c.Close()
	target := map[string]uint64{chain.Name: head}
	waitIndexed(t, ctx, base, chain.BlockchainID.String(), head)

	node := truth.NewEVMChain(c.RPC())
	require.NoError(t, node.ScanTo(ctx, head))
	m, err := node.Metrics(head)
	require.NoError(t, err)
	all := m.Window(0)
	t.Logf("%d blocks of activity on %s in %v: %d txs, %d active addresses, %d senders, %d contracts by %d deployers",
		head, chain.Name, time.Since(began).Round(time.Millisecond), all.Txs, all.Active, all.Senders, all.Contracts, all.Deployers)
	id := fmt.Sprint(chain.EVMChainID)
	requireChainMetrics(t, ctx, mbase, id, m)
	uninterrupted := metricsSnapshot(t, ctx, mbase, id)
	uninterruptedTotal := metricsSnapshot(t, ctx, mbase, "total")

	killed := 0
	for attempt := 1; attempt <= 4 && killed < 2; attempt++ {
		require.NoError(t, net.Stop(ctx))
		harness.RemoveIndex(t, net.DataDir())
		if harness.RestartAndKillMidCatchUp(t, ctx, net, base, target) {
			killed++
			if harness.RestartAndKillMidCatchUp(t, ctx, net, base, target) {
				killed++
			}
		}
		t.Logf("attempt %d: %d kills during catch-up so far", attempt, killed)
	}
	require.Positive(t, killed, "never caught avadata in the middle of catching up")

	began = time.Now()
	require.NoError(t, net.Restart(ctx))
	waitIndexed(t, ctx, base, chain.BlockchainID.String(), head)
	t.Logf("restarted and caught up in %v", time.Since(began).Round(time.Millisecond))
	require.Equal(t, uninterrupted, metricsSnapshot(t, ctx, mbase, id), "the metrics after kill -9 differ from the uninterrupted index's")
	requireChainMetrics(t, ctx, mbase, id, m)
	require.Equal(t, uninterruptedTotal, metricsSnapshot(t, ctx, mbase, "total"), "total after kill -9")

	// A rebuild from scratch, uninterrupted, catching up the same blocks in
	// batches, gives the same again.
	require.NoError(t, net.Stop(ctx))
	harness.RemoveIndex(t, net.DataDir())
	began = time.Now()
	require.NoError(t, net.Restart(ctx))
	waitIndexed(t, ctx, base, chain.BlockchainID.String(), head)
	t.Logf("rebuilt from scratch in %v", time.Since(began).Round(time.Millisecond))
	require.Equal(t, uninterrupted, metricsSnapshot(t, ctx, mbase, id), "the metrics of a rebuild differ from the live index's")
	require.Equal(t, uninterruptedTotal, metricsSnapshot(t, ctx, mbase, "total"), "total after a rebuild")
}

// requireChainMetrics checks every chain metric of one chain at every
// granularity, and every rolling window, against m.
func requireChainMetrics(t *testing.T, ctx context.Context, mbase, id string, m *truth.ChainMetrics) {
	t.Helper()
	chains := []*truth.ChainMetrics{m}
	for _, metric := range truth.ChainMetricNames() {
		for _, g := range truth.MetricsGranularities() {
			want, err := truth.Series(metric, g, chains, nil, nil)
			require.NoError(t, err)
			u := seriesURL(mbase, id, metric, rangeQuery(g, nil, nil, 0))
			got, _ := getSeries(t, ctx, u)
			requireSeries(t, u, want, got)
		}
	}
	for _, metric := range truth.RollingMetricNames() {
		want, err := truth.Rolling(metric, chains)
		require.NoError(t, err)
		u := rollingURL(mbase, id, metric)
		requireRolling(t, u, want, getRolling(t, ctx, u))
	}
}

// metricsSnapshot is every chain metric and rolling window of a chain as
// avadata serves it, written out (page tokens left out: a rebuilt index
// signs them with a key of its own).
func metricsSnapshot(t *testing.T, ctx context.Context, mbase, id string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, metric := range truth.ChainMetricNames() {
		for _, g := range truth.MetricsGranularities() {
			got, _ := getSeries(t, ctx, seriesURL(mbase, id, metric, rangeQuery(g, nil, nil, 2160)))
			out[metric+"/"+string(g)] = fmt.Sprint(got)
		}
	}
	for _, metric := range truth.RollingMetricNames() {
		got := getRolling(t, ctx, rollingURL(mbase, id, metric))
		keys := make([]string, 0, len(got))
		for k, v := range got {
			keys = append(keys, k+"="+v.String())
		}
		sort.Strings(keys)
		out["rolling/"+metric] = strings.Join(keys, " ")
	}
	return out
}

// makeMetricsBacklog sends, until the chain has n blocks, bursts of
// ERC-20, ERC-721 and ERC-1155 mints and transfers and value transfers
// from two senders, with a factory creation, a direct deployment and a
// reverted call every few bursts. It returns EWOQ's client and the height.
func makeMetricsBacklog(t *testing.T, ctx context.Context, chain localnet.EVMChain, n uint64) (*evmtest.Client, uint64) {
	t.Helper()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	user, err := evmtest.Dial(ctx, chain.RPCURL, key)
	require.NoError(t, err)
	defer user.Close()
	erc20, erc721, erc1155, factory, reverter := contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155(), contracts.Factory(), contracts.Reverter()
	tok, _, err := c.Deploy(ctx, erc20, "Kill", "KIL")
	require.NoError(t, err)
	nft, _, err := c.Deploy(ctx, erc721, "KillNFT", "KNF")
	require.NoError(t, err)
	multi, _, err := c.Deploy(ctx, erc1155, "https://avadata.invalid/{id}.json")
	require.NoError(t, err)
	fac, _, err := c.Deploy(ctx, factory)
	require.NoError(t, err)
	rev, _, err := c.Deploy(ctx, reverter)
	require.NoError(t, err)
	_, err = c.SendAndWait(ctx, evmtest.Tx{To: ptr(user.Address()), Value: harness.Ether(10)})
	require.NoError(t, err)
	_, err = c.Transact(ctx, tok, erc20, "mint", nil, user.Address(), harness.Ether(1000))
	require.NoError(t, err)
	for i := int64(0); ; i++ {
		head, err := c.BlockNumber(ctx)
		require.NoError(t, err)
		if head >= n {
			return c, head
		}
		to := common.BigToAddress(big.NewInt(1000 + i%11))
		var hashes, failed []common.Hash
		send := func(h common.Hash, err error) {
			require.NoError(t, err)
			hashes = append(hashes, h)
		}
		send(c.SendTransact(ctx, nft, erc721, "mint", nil, to))
		send(c.SendTransact(ctx, multi, erc1155, "mint", nil, to, big.NewInt(i%3+1), big.NewInt(i+1)))
		send(user.SendTransact(ctx, tok, erc20, "transfer", nil, to, big.NewInt(i+1)))
		send(user.SendValue(ctx, common.BigToAddress(big.NewInt(2000+i)), big.NewInt(i+1)))
		switch i % 6 {
		case 1:
			send(c.SendTransact(ctx, fac, factory, "create", big.NewInt(i), common.BigToHash(big.NewInt(i))))
		case 3:
			s, err := user.SendDeploy(ctx, erc20, fmt.Sprint("K", i), "K")
			send(s.Hash, err)
		case 5:
			h, err := c.SendWithGas(ctx, rev, 200_000, reverter, "alwaysRevert", nil)
			send(h, err)
			failed = append(failed, h)
		}
		rs, err := c.WaitReceipts(ctx, hashes...)
		require.NoError(t, err)
		for k, r := range rs {
			want := uint64(1)
			if len(failed) > 0 && hashes[k] == failed[0] {
				want = 0
			}
			require.Equal(t, want, r.Status, "status of %s", hashes[k])
		}
	}
}

func ptr[T any](v T) *T { return &v }
