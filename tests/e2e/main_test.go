// Package e2e runs avadata inside real avalanchego nodes built from the
// pinned module (make build), on a local network, and checks what it serves
// against the node's own APIs. `make test-e2e` builds the binaries first.
package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/avadata/avadata/scripts/localnet"
)

// env is the shared local network every test in the package uses. Tests
// that need to stop or kill a node start their own network instead.
var env *testEnv

type testEnv struct {
	net *localnet.Network
	// uri is the node's URI, base the avadata base URL (alias), metrics the
	// metrics API base URL.
	uri, base, metrics string
}

// repoRoot is the module root, two levels above this file.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// binaries returns the node binary and plugin dir built by `make build`.
func binaries() (avalanchego, pluginDir string, err error) {
	root := repoRoot()
	avalanchego = filepath.Join(root, "build", "avalanchego")
	pluginDir = filepath.Join(root, "build", "plugins")
	if _, err := os.Stat(avalanchego); err != nil {
		return "", "", fmt.Errorf("%s missing: run `make build` (make test-e2e does): %w", avalanchego, err)
	}
	return avalanchego, pluginDir, nil
}

// testChainConfig is the avadata chain config of the e2e nodes: the admin
// JSON-RPC methods on (tests pause followers), and rate limits that the
// suite's thousands of requests, from one anonymous client, do not hit.
func testChainConfig() map[string]any {
	return map[string]any{
		"adminApiEnabled": true,
		"stuckAfter":      "30s",
		"rateLimit":       map[string]any{"anonymousRps": 100000, "anonymousBurst": 100000},
	}
}

// testNodeFlags make blocks come as soon as txs arrive, and staking short
// enough for the staking tests (staking_scenario_test.go) to see stakers
// finish and be rewarded: a 20s minimum staking period, and no uptime
// requirement, since with sybil protection off no validator is ever
// connected and a required uptime would make the node abort every
// RewardValidatorTx. The reward config stays the local default: a shorter
// minting period lets the genesis validators' year-long stakes claim the
// whole remaining supply at genesis, and every later reward is then 0.
func testNodeFlags() map[string]string {
	return map[string]string{
		"proposervm-min-block-delay": "0s",
		"min-stake-duration":         "20s",
		"uptime-requirement":         "0",
	}
}

// startNetwork brings up a fresh single-node local network in dir.
func startNetwork(ctx context.Context, dir string) (*localnet.Network, error) {
	avalanchego, pluginDir, err := binaries()
	if err != nil {
		return nil, err
	}
	return localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		DataDir:         dir,
		ChainConfig:     testChainConfig(),
		ExtraFlags:      testNodeFlags(),
	})
}

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "avadata-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	net, err := startNetwork(ctx, filepath.Join(dir, "node"))
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting the local network:", err)
		return 1
	}
	env = &testEnv{net: net, uri: net.URI(), base: net.BaseURL(), metrics: net.BaseURL() + "/metrics"}
	fmt.Printf("e2e: node %s, avadata %s, logs %s\n", env.uri, env.base, net.LogDir())
	code := m.Run()
	stopCtx, stopCancel := context.WithTimeout(context.Background(), time.Minute)
	defer stopCancel()
	if err := net.Stop(stopCtx); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: stopping the local network:", err)
	}
	if code == 0 {
		_ = os.RemoveAll(dir)
	} else {
		fmt.Printf("e2e: kept %s for inspection\n", dir)
	}
	return code
}
