package operator

import (
	"context"
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
)

// TestOperatorCreateChainCommand runs the operator's command (as on Fuji or
// Mainnet, here with the local pre-funded key) and checks with the node's
// P-chain that it created an avadata chain in a new subnet.
func TestOperatorCreateChainCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin := filepath.Join(harness.RepoRoot(), "build", "avadata-createchain")
	cmd := exec.CommandContext(ctx, bin, "--uri", env.URI(t))
	cmd.Env = append(os.Environ(), "AVADATA_PRIVATE_KEY="+genesis.EWOQKeyFormattedStr)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	chainID := regexp.MustCompile(`chain ID:\s+(\S+)`).FindSubmatch(out)
	subnetID := regexp.MustCompile(`subnet ID:\s+(\S+)`).FindSubmatch(out)
	require.NotNil(t, chainID, "%s", out)
	require.NotNil(t, subnetID, "%s", out)

	var status struct {
		Status string `json:"status"`
	}
	require.NoError(t, truth.Call(ctx, env.URI(t)+"/ext/bc/P", "platform.getTxStatus", map[string]string{"txID": string(chainID[1])}, &status))
	require.Equal(t, "Committed", status.Status)
	found := false
	for _, c := range truth.Blockchains(t, ctx, env.URI(t)) {
		if c.ID == string(chainID[1]) {
			found = true
			require.Equal(t, string(subnetID[1]), c.SubnetID)
			require.Equal(t, "avadata", c.Name)
			require.Equal(t, "jvYiSef3EbLnfxvPEBXrjsHRrNoQBb4v7naspNVhz5GzZ42qj", c.VMID)
		}
	}
	require.True(t, found, "chain %s not on the P-chain", chainID[1])
}
