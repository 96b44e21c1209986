package e2e

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
)

// TestKillDuringCatchUpResumesExactly builds a backlog of blocks (on P, a
// rewarded delegation: a proposal block and its commit among them), makes
// avadata re-index it from genesis, kills the node with SIGKILL in the
// middle of that catch-up, restarts it, and checks that the finished index
// (TPS, every P and X tx with its UTXOs, balances) equals the one built
// without interruption, and the TPS the node's own blocks give.
func TestKillDuringCatchUpResumesExactly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := binaries()
	require.NoError(t, err)
	config := testChainConfig()
	config["batchSize"] = 1 // one block per commit: the longest catch-up
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: testNodeFlags(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()

	issuer := newTxIssuer(t, ctx, net.URI())
	issuer.issueX(t, ctx, 120)
	issuer.issueP(t, ctx, 60)
	// A rewarded delegation puts a proposal block and its commit in the
	// middle of the P-chain backlog.
	staking := delegateBriefly(t, ctx, issuer)
	issuer.issueP(t, ctx, 60)
	issuer.issueC(t, ctx, 4)
	heights := map[string]uint64{}
	for _, chain := range []string{"P", "X", "C"} {
		heights[chain] = nodeHeight(t, ctx, net.URI(), chain)
	}
	base := net.ChainURL()
	waitIndexed(t, ctx, base, heights)
	uninterrupted := tpsByChain(t, ctx, base)
	addrs := ewoqAndDest(t, issuer)
	uninterruptedPrimary := primarySnapshot(t, ctx, base, addrs)
	requireRewardListed(t, uninterruptedPrimary, staking)

	killed := false
	for attempt := 1; attempt <= 3 && !killed; attempt++ {
		require.NoError(t, net.Stop(ctx))
		removeIndex(t, net.DataDir())
		killed = restartAndKillMidCatchUp(t, ctx, net, base, heights)
		t.Logf("attempt %d: killed during catch-up: %v", attempt, killed)
	}
	require.True(t, killed, "never caught avadata in the middle of catching up")

	require.NoError(t, net.Restart(ctx))
	waitIndexed(t, ctx, base, heights)
	resumed := tpsByChain(t, ctx, base)
	require.Equal(t, uninterrupted, resumed)
	require.Equal(t, uninterruptedPrimary, primarySnapshot(t, ctx, base, addrs),
		"P/X txs, UTXOs and balances after a kill -9 in the middle of catching up")
	for chain, h := range heights {
		want := expectedTPS(nodeBlocks(t, ctx, net.URI(), chain, h))
		require.Len(t, resumed[chain], len(want), chain)
		for i := range want {
			require.Equal(t, want[i].Timestamp, resumed[chain][i].Timestamp, chain)
			require.InDelta(t, want[i].Value, resumed[chain][i].Value, 1e-12, chain)
		}
	}
}

// restartAndKillMidCatchUp starts the node and SIGKILLs it as soon as a
// follower has indexed some but not all of the backlog. It reports whether
// that moment was caught.
func restartAndKillMidCatchUp(t *testing.T, ctx context.Context, net *localnet.Network, base string, target map[string]uint64) bool {
	t.Helper()
	restarted := make(chan error, 1)
	go func() { restarted <- net.Restart(ctx) }()
	for {
		select {
		case err := <-restarted:
			require.NoError(t, err)
			return false // healthy before a partial state was seen
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		default:
		}
		if partial, ok := partialIndex(ctx, base, target); ok && partial {
			require.NoError(t, net.Kill())
			<-restarted // fails: the node died
			return true
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// partialIndex reports whether some follower is part-way through target;
// ok is false while the API is not up yet.
func partialIndex(ctx context.Context, base string, target map[string]uint64) (partial, ok bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/status", nil)
	if err != nil {
		return false, false
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	var body struct {
		Chains []followerStatus `json:"chains"`
	}
	if resp.StatusCode != http.StatusOK || decodeJSON(resp.Body, &body) != nil {
		return false, false
	}
	for _, c := range body.Chains {
		if c.IndexedHeight > 0 && c.IndexedHeight < target[c.Chain] {
			return true, true
		}
	}
	return false, true
}

// removeIndex deletes avadata's Badger directory (the VM's "index" dir under
// the node's chain data) so the next start re-indexes from genesis.
func removeIndex(t *testing.T, dataDir string) {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dataDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "index" {
			if _, statErr := os.Stat(filepath.Join(path, "MANIFEST")); statErr == nil {
				found = append(found, path)
			}
		}
		return err
	})
	require.NoError(t, err)
	require.Len(t, found, 1, "avadata index dirs under %s", dataDir)
	require.NoError(t, os.RemoveAll(found[0]))
}

// tpsByChain reads every chain's avg TPS results.
func tpsByChain(t *testing.T, ctx context.Context, base string) map[string][]tpsResult {
	t.Helper()
	out := map[string][]tpsResult{}
	for chain, id := range map[string]string{"P": "p-chain", "X": "x-chain", "C": "c-chain"} {
		r := get(t, ctx, base+"/metrics/v1/avg_tps/"+id)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", chain, r.body)
		var body struct {
			Results []tpsResult `json:"results"`
		}
		r.decode(t, &body)
		out[chain] = body.Results
	}
	return out
}
