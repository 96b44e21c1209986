package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet/multinode"
	"github.com/avadata/avadata/vm"
)

// StartMultiNode starts a tmpnet network of the built node and plugin as
// cfg says (the binaries and root dir are filled in here) and stops it when
// t ends.
func StartMultiNode(t *testing.T, ctx context.Context, cfg multinode.TmpnetConfig) *multinode.TmpnetNetwork {
	t.Helper()
	cfg.RootDir = t.TempDir()
	n, err := startTmpnet(ctx, cfg)
	require.NoError(t, err, "starting the %d-node network", cfg.Nodes)
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := n.Stop(stopCtx); err != nil {
			t.Error(err)
		}
	})
	return n
}

// startTmpnet starts a tmpnet network of the built node and plugin in
// cfg.RootDir.
func startTmpnet(ctx context.Context, cfg multinode.TmpnetConfig) (*multinode.TmpnetNetwork, error) {
	avalanchego, pluginDir, err := Binaries()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(pluginDir, vm.ID.String())); err != nil {
		return nil, fmt.Errorf("no avadata plugin (make build): %w", err)
	}
	cfg.AvalancheGoPath, cfg.PluginDir = avalanchego, pluginDir
	n, err := multinode.StartTmpnet(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("starting the %d-node network: %w", cfg.Nodes, err)
	}
	return n, nil
}
