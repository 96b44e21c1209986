//go:build e2e

package adopt

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// backfillBlocks is how many blocks the back-fill test makes on the
// subnet-evm chain before indexing it from a recent height.
const (
	backfillBlocks = 600
	backfillRecent = 100 // the first index starts this many blocks below the head
)

// chainStatus is what the test reads of a chain's /v1/status entry.
type chainStatus struct {
	Chain         string `json:"chain"`
	IndexedHeight uint64 `json:"indexedHeight"`
	HistoryFrom   uint64 `json:"historyFrom"`
	LastError     string `json:"lastError"`
	Backfill      *struct {
		Target      uint64 `json:"target"`
		FirstHeight uint64 `json:"firstHeight"`
		State       string `json:"state"`
		LastError   string `json:"lastError"`
	} `json:"backfill"`
}

func statusOf(t *testing.T, ctx context.Context, base, chain string) (chainStatus, bool) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/status", nil)
	require.NoError(t, err)
	resp, err := harness.HTTPClient.Do(req)
	if err != nil {
		return chainStatus{}, false // not up (yet, or any more)
	}
	defer resp.Body.Close()
	var body struct {
		Chains []chainStatus `json:"chains"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil {
		return chainStatus{}, false
	}
	for _, c := range body.Chains {
		if c.Chain == chain {
			return c, true
		}
	}
	return chainStatus{}, false
}

// TestAdoptBackfillToGenesis indexes an EVM chain of an archive node (a
// local node keeps every block) from a recent height, then asks for it from
// genesis: the back-fill fills the index down to block 1 while EWOQ keeps
// sending transfers, ERC-20, ERC-721 and ERC-1155 activity and the follower
// keeps indexing them; it is killed with SIGKILL once in the middle of the
// fill and resumes. The finished index serves exactly what an index built
// from genesis serves (blocks with their cumulative tx counts, EWOQ's txs,
// every transfer, the NFT tokens with their owners, holders and totals),
// and what the node says (receipts, tx counts, ownerOf).
func TestAdoptBackfillToGenesis(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	// Small batches and a bounded pace: the fill takes many commits and a
	// few seconds, so the kill below lands inside it and the status shows
	// the follower indexing new blocks while it runs.
	config["batchSize"], config["fetchers"], config["backfillBlocksPerSecond"] = 1, 1, 60
	cfg := localnet.Config{AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: harness.NodeFlags()}
	began := time.Now()
	net, err := localnet.Start(ctx, cfg)
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	chain := net.EVMChains()[1]
	base := net.ChainURL()

	a := newActivity(t, ctx, chain)
	defer a.c.Close()
	head := a.until(t, ctx, backfillBlocks)
	t.Logf("%d blocks made in %s", head, time.Since(began).Round(time.Second))

	// An index of the chain from a recent height only.
	recent := head - backfillRecent
	fromRecent := func() {
		t.Helper()
		require.NoError(t, net.Stop(ctx))
		harness.RemoveIndex(t, net.DataDir())
		setIndexFrom(t, net, map[string]any{chain.Name: recent})
		require.NoError(t, net.Restart(ctx))
		now, err := a.c.BlockNumber(ctx)
		require.NoError(t, err)
		harness.WaitIndexed(t, ctx, base, map[string]uint64{chain.Name: now})
		s, ok := statusOf(t, ctx, base, chain.Name)
		require.True(t, ok)
		require.Equal(t, recent, s.HistoryFrom, "%+v", s)
		require.Nil(t, s.Backfill, "indexFrom names the first height: nothing to back-fill")
	}
	fromRecent()

	// Now from genesis: the back-fill runs while new blocks keep arriving.
	var sending sync.WaitGroup
	stop := make(chan struct{})
	sendErr := make(chan error, 1)
	var rounds struct{ done, failed int } // written by the sender, read after it stops
	// gate pauses the sender: held by the sender for each round, by the
	// test while it kills the node. A node killed right after accepting
	// blocks may not have them on disk and accept others at those heights
	// after the restart, which no index could follow; the kill lands while
	// no block is being made, and blocks keep arriving before and after.
	var gate sync.Mutex
	sending.Add(1)
	go func() {
		defer sending.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			gate.Lock()
			err := a.roundOnce(ctx)
			gate.Unlock()
			if err != nil {
				if ctx.Err() != nil {
					sendErr <- err
					return
				}
				rounds.failed++
				a.recover(ctx, stop) // the node restarts or was killed
				continue
			}
			rounds.done++
		}
	}()
	stopSending := func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		sending.Wait()
	}
	defer stopSending()

	// The fill is fast (hundreds of blocks a second): the kill has to land
	// while the node is still starting, as the kill -9 catch-up tests do;
	// an attempt that misses it builds the recent index again.
	killed := false
	var fillTook time.Duration
	gate.Lock()
	for attempt := 1; !killed && attempt <= 4; attempt++ {
		if attempt > 1 {
			fromRecent()
		}
		require.NoError(t, net.Stop(ctx))
		setIndexFrom(t, net, map[string]any{chain.Name: "genesis"})
		started := time.Now()
		killed = restartAndKillMidFill(t, ctx, net, base, chain.Name, recent)
		fillTook = time.Since(started)
		t.Logf("attempt %d: killed mid-fill: %v", attempt, killed)
	}
	require.True(t, killed, "the kill never landed in the middle of the fill")
	gate.Unlock()
	resumed := time.Now()
	require.NoError(t, net.Restart(ctx))
	var unfinished []chainStatus // the back-fill not done yet, as the status showed it
	for {
		s, ok := statusOf(t, ctx, base, chain.Name)
		if ok && s.Backfill != nil {
			require.Empty(t, s.Backfill.LastError)
			if s.Backfill.State == "done" {
				require.Equal(t, uint64(1), s.HistoryFrom)
				require.Equal(t, uint64(1), s.Backfill.FirstHeight)
				break
			}
			unfinished = append(unfinished, s)
		}
		select {
		case err := <-sendErr:
			t.Fatal(err)
		case <-ctx.Done():
			t.Fatalf("the back-fill did not finish: %+v", s)
		case <-time.After(3 * time.Millisecond):
		}
	}
	t.Logf("back-fill of %d blocks: killed after %s, resumed and done %s after the restart began; %d status reads showed it unfinished",
		recent-1, fillTook.Round(time.Millisecond), time.Since(resumed).Round(time.Millisecond), len(unfinished))
	stopSending()
	t.Logf("rounds of txs sent during the back-fill: %d, %d of them cut by a restart", rounds.done, rounds.failed)
	final, err := a.c.BlockNumber(ctx)
	require.NoError(t, err)
	require.Greater(t, final, head, "new blocks arrived meanwhile")
	require.NotEmpty(t, unfinished)
	n := len(unfinished)
	t.Logf("while the back-fill ran the follower went from %d to %d", unfinished[0].IndexedHeight, unfinished[n-1].IndexedHeight)
	require.Greater(t, unfinished[n-1].IndexedHeight, unfinished[0].IndexedHeight,
		"the follower indexed new blocks while the back-fill ran")
	for _, s := range unfinished {
		require.Equal(t, s.Backfill.FirstHeight, s.HistoryFrom, "historyFrom follows the fill")
	}
	harness.WaitIndexed(t, ctx, base, map[string]uint64{chain.Name: final})
	backfilled := snapshot(t, ctx, base, chain, a)

	// The same chain indexed from genesis in one go.
	rebuildStarted := time.Now()
	require.NoError(t, net.Stop(ctx))
	harness.RemoveIndex(t, net.DataDir())
	require.NoError(t, net.Restart(ctx))
	harness.WaitIndexed(t, ctx, base, map[string]uint64{chain.Name: final})
	t.Logf("from-genesis index of %d blocks in %s", final, time.Since(rebuildStarted).Round(time.Millisecond))
	fromGenesis := snapshot(t, ctx, base, chain, a)
	checkAgainstNode(t, ctx, fromGenesis, a, final)
	require.Equal(t, fromGenesis, backfilled)
	s, ok := statusOf(t, ctx, base, chain.Name)
	require.True(t, ok)
	require.Nil(t, s.Backfill, "an index from genesis has nothing to back-fill")
}

// setIndexFrom rewrites the avadata chain config's indexFrom (the node
// reads it when it next starts) in the file localnet wrote.
func setIndexFrom(t *testing.T, net *localnet.Network, indexFrom any) {
	t.Helper()
	path := filepath.Join(net.DataDir(), "configs", "chains", net.ChainID().String(), "config.json")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal(b, &cfg))
	cfg["indexFrom"] = indexFrom
	b, err = json.MarshalIndent(cfg, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
}

// restartAndKillMidFill starts the node and SIGKILLs it as soon as the
// status shows the back-fill part-way down from first; it reports whether
// that moment was caught (false: the node came up healthy first, or the
// fill was done before the status showed it).
func restartAndKillMidFill(t *testing.T, ctx context.Context, net *localnet.Network, base, chain string, first uint64) bool {
	t.Helper()
	restarted := make(chan error, 1)
	go func() { restarted <- net.Restart(ctx) }()
	for {
		select {
		case err := <-restarted:
			require.NoError(t, err)
			return false
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		default:
		}
		s, ok := statusOf(t, ctx, base, chain)
		if ok && s.Backfill != nil && s.Backfill.State == "filling" && s.Backfill.FirstHeight > 1 && s.Backfill.FirstHeight < first {
			t.Logf("killing the node with the index filled down to %d", s.Backfill.FirstHeight)
			require.NoError(t, net.Kill())
			<-restarted // fails: the node died
			return true
		}
		time.Sleep(2 * time.Millisecond)
	}
}
