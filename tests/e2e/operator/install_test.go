package operator

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/vm"
)

// TestOperatorInstallOnExistingNode runs the one command of the README's
// path for an existing node (avadata-createchain --data-dir) against a
// node's data dir layout: it creates the chain (checked on the P-chain),
// installs the plugin where the node loads it, writes the chain config,
// reports what the node's settings give (checked against what the node
// answers), and a second run reuses the chain and keeps the operator's
// edited config.
func TestOperatorInstallOnExistingNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	build := filepath.Join(harness.RepoRoot(), "build")
	dataDir := t.TempDir()
	run := func() []byte {
		cmd := exec.CommandContext(ctx, filepath.Join(build, "avadata-createchain"), "--uri", env.URI(t), "--data-dir", dataDir)
		cmd.Env = append(os.Environ(), "AVADATA_PRIVATE_KEY="+genesis.EWOQKeyFormattedStr)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return out
	}
	out := run()
	chainID := regexp.MustCompile(`chain ID:\s+(\S+)`).FindSubmatch(out)
	subnetID := regexp.MustCompile(`subnet ID:\s+(\S+)`).FindSubmatch(out)
	require.NotNil(t, chainID, "%s", out)
	require.NotNil(t, subnetID, "%s", out)
	found := false
	for _, c := range truth.Blockchains(t, ctx, env.URI(t)) {
		if c.ID == string(chainID[1]) {
			found = true
			require.Equal(t, string(subnetID[1]), c.SubnetID)
		}
	}
	require.True(t, found, "chain %s not on the P-chain", chainID[1])

	plugin, err := os.ReadFile(filepath.Join(dataDir, "plugins", vm.ID.String()))
	require.NoError(t, err)
	built, err := os.ReadFile(filepath.Join(build, "avadata"))
	require.NoError(t, err)
	require.True(t, bytes.Equal(built, plugin), "the installed plugin is the built one")
	cfgPath := filepath.Join(dataDir, "configs", "chains", string(chainID[1]), "config.json")
	var cfg map[string]string
	written, err := os.ReadFile(cfgPath)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(written, &cfg))
	require.Equal(t, env.URI(t), cfg["nodeURI"])
	require.Contains(t, string(out), "--track-subnets="+string(subnetID[1]))

	// What the probe says about the index API is what the node answers.
	var last json.RawMessage
	indexOn := truth.Call(ctx, env.URI(t)+"/ext/index/P/block", "index.getLastAccepted", map[string]string{"encoding": "hex"}, &last) == nil
	mark := "missing"
	if indexOn {
		mark = "on     "
	}
	require.Contains(t, string(out), "["+mark+"] --index-enabled=true", "%s", out)

	// Again, with the operator's own config: no second chain, config kept.
	mine := []byte(`{"nodeURI": "` + env.URI(t) + `", "indexFrom": "genesis"}`)
	require.NoError(t, os.WriteFile(cfgPath, mine, 0o644))
	again := run()
	require.Contains(t, string(again), "reusing the avadata chain "+string(chainID[1]))
	require.NotContains(t, string(again), "creating the avadata subnet")
	kept, err := os.ReadFile(cfgPath)
	require.NoError(t, err)
	require.Equal(t, mine, kept)
}
