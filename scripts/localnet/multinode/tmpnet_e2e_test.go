//go:build e2e

// The tests of this file start real nodes (make build first): the e2e
// targets of the Makefile run them with -tags e2e; make test-unit leaves
// them out.

package multinode

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/avadata/avadata/vm"
)

// TestOperatorStartTmpnet is a smoke test: two nodes validating the avadata subnet,
// both serving the chain. Skipped unless `make build` outputs exist (or
// $AVADATA_AVALANCHEGO / $AVADATA_PLUGIN_DIR point at them).
func TestOperatorStartTmpnet(t *testing.T) {
	avalanchego := envOr("AVADATA_AVALANCHEGO", filepath.Join("..", "..", "..", "build", "avalanchego"))
	pluginDir := envOr("AVADATA_PLUGIN_DIR", filepath.Join("..", "..", "..", "build", "plugins"))
	for _, p := range []string{avalanchego, filepath.Join(pluginDir, vm.ID.String())} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("needs %s (make build): %v", p, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	began := time.Now()
	n, err := StartTmpnet(ctx, TmpnetConfig{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		Nodes:           2,
		RootDir:         t.TempDir(),
		Log:             testWriter{t},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("2-node network up in %s: %v, chain %s", time.Since(began), n.URIs(), n.ChainID())
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := n.Stop(stopCtx); err != nil {
			t.Error(err)
		}
	})
	if len(n.URIs()) != 2 || len(n.NodeIDs()) != 2 {
		t.Errorf("URIs %v, node IDs %v", n.URIs(), n.NodeIDs())
	}
	for _, uri := range n.URIs() {
		if !served(ctx, uri+"/ext/bc/"+n.ChainID().String()+"/") {
			t.Errorf("%s does not serve the avadata chain", uri)
		}
	}
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
