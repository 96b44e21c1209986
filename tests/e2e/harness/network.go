package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/avadata/avadata/scripts/localnet"
)

// RepoRoot is the module root, three levels above this file.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Binaries returns the node binary and plugin dir built by `make build`.
func Binaries() (avalanchego, pluginDir string, err error) {
	root := RepoRoot()
	avalanchego = filepath.Join(root, "build", "avalanchego")
	pluginDir = filepath.Join(root, "build", "plugins")
	if _, err := os.Stat(avalanchego); err != nil {
		return "", "", fmt.Errorf("%s missing: run `make build` (make test-e2e does): %w", avalanchego, err)
	}
	return avalanchego, pluginDir, nil
}

// APIKey is an API key the e2e nodes accept: the write operations (NFT
// reindexing, exports) need one.
const APIKey = "e2e-api-key"

// WebhookKey is the e2e nodes' webhook management key: APIKey may only
// read webhooks.
const WebhookKey = "e2e-webhook-key"

// ChainConfig is the avadata chain config of the e2e nodes: the admin
// JSON-RPC methods on (tests pause followers), rate limits that the suite's
// thousands of requests, from one anonymous client, do not hit, and
// webhooks that may target the tests' receivers on loopback.
func ChainConfig() map[string]any {
	return map[string]any{
		"adminApiEnabled": true,
		"apiKeys":         []string{APIKey},
		"webhooks":        map[string]any{"managementKeys": []string{WebhookKey}, "allowPrivateTargets": true},
		"stuckAfter":      "30s",
		"rateLimit":       map[string]any{"anonymousRps": 100000, "anonymousBurst": 100000},
	}
}

// NodeFlags make blocks come as soon as txs arrive, and staking short enough
// for the staking tests (the primary package's staking scenario) to see
// stakers finish and be rewarded: a 20s minimum staking period, and no uptime
// requirement, since with sybil protection off no validator is ever connected
// and a required uptime would make the node abort every RewardValidatorTx.
// The reward config stays the local default: a shorter minting period lets
// the genesis validators' year-long stakes claim the whole remaining supply
// at genesis, and every later reward is then 0.
func NodeFlags() map[string]string {
	return map[string]string{
		"proposervm-min-block-delay": "0s",
		"min-stake-duration":         "20s",
		"uptime-requirement":         "0",
	}
}

// SubnetEVMChainConfig is what the e2e networks add to the subnet-evm
// chain's config: a tx pool that holds a whole block's worth of one
// sender's transactions ahead of a nonce gap (the default queue keeps 64 per
// account), so the full-block catch-up benchmark can release 100+
// transactions into the pool at once, one block each.
func SubnetEVMChainConfig() map[string]any {
	return map[string]any{
		"tx-pool-account-queue": 1024,
		"tx-pool-global-queue":  4096,
	}
}

// startNetwork brings up a fresh single-node local network in dir.
func startNetwork(ctx context.Context, dir string) (*localnet.Network, error) {
	avalanchego, pluginDir, err := Binaries()
	if err != nil {
		return nil, err
	}
	return localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		DataDir:         dir,
		ChainConfig:     ChainConfig(),
		ExtraFlags:      NodeFlags(),

		SubnetEVMChainConfig: SubnetEVMChainConfig(),
	})
}
