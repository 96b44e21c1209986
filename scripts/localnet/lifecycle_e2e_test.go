//go:build e2e

// The tests of this file start real nodes (make build first): the e2e
// targets of the Makefile run them with -tags e2e; make test-unit leaves
// them out.

package localnet

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/avadata/avadata/vm"
)

// binaries returns the node binary and the plugin dir for the integration
// test: $AVADATA_AVALANCHEGO and $AVADATA_PLUGIN_DIR, or the `make build`
// outputs. The test is skipped when they are missing.
func binaries(t *testing.T) (avalanchego, pluginDir string) {
	t.Helper()
	avalanchego = os.Getenv("AVADATA_AVALANCHEGO")
	if avalanchego == "" {
		avalanchego = filepath.Join("..", "..", "build", "avalanchego")
	}
	pluginDir = os.Getenv("AVADATA_PLUGIN_DIR")
	if pluginDir == "" {
		pluginDir = filepath.Join("..", "..", "build", "plugins")
	}
	for _, p := range []string{avalanchego, filepath.Join(pluginDir, vm.ID.String()), filepath.Join(pluginDir, SubnetEVMVMID.String())} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("needs %s (make build): %v", p, err)
		}
	}
	return avalanchego, pluginDir
}

// TestOperatorNetworkLifecycle brings a network up on free ports, crashes it, restarts it,
// stops it and starts it again from its data dir.
func TestOperatorNetworkLifecycle(t *testing.T) {
	avalanchego, pluginDir := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cfg := Config{AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: t.TempDir(), Logf: t.Logf}

	began := time.Now()
	n, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Kill() })
	t.Logf("first start: %s", time.Since(began))
	checkUp(t, n)
	checkChainConfig(t, n)
	checkSubnetEVM(t, ctx, n, true)
	uri, chainID, evmChains := n.URI(), n.ChainID(), n.EVMChains()

	pid := n.PID()
	if err := n.Kill(); err != nil {
		t.Fatal(err)
	}
	checkGone(t, n, pid)

	began = time.Now()
	if err := n.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("restart after kill: %s", time.Since(began))
	if n.URI() != uri || n.PID() == pid {
		t.Errorf("after restart: URI %s (was %s), pid %d (was %d)", n.URI(), uri, n.PID(), pid)
	}
	checkUp(t, n)

	pid = n.PID()
	began = time.Now()
	if err := n.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("stop: %s", time.Since(began))
	checkGone(t, n, pid)

	began = time.Now()
	again, err := Start(ctx, cfg) // reuses the data dir: same chain, same ports
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Kill() })
	t.Logf("start on existing data dir: %s", time.Since(began))
	if again.URI() != uri || again.ChainID() != chainID {
		t.Errorf("reused network: %s %s, want %s %s", again.URI(), again.ChainID(), uri, chainID)
	}
	if got := again.EVMChains(); !slices.Equal(got, evmChains) {
		t.Errorf("reused network's EVM chains: %+v, want %+v", got, evmChains)
	}
	checkUp(t, again)
	checkSubnetEVM(t, ctx, again, false)
	pid = again.PID()
	if err := again.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	checkGone(t, again, pid)
}

func checkUp(t *testing.T, n *Network) {
	t.Helper()
	if n.PID() == 0 {
		t.Error("PID() = 0 on a running network")
	}
	if status := getStatus(t, n.URI()+"/ext/health"); status != http.StatusOK {
		t.Errorf("/ext/health: %d", status)
	}
	for _, url := range []string{n.ChainURL() + "/", n.BaseURL() + "/"} {
		if status := getStatus(t, url); status == http.StatusNotFound || status == http.StatusServiceUnavailable {
			t.Errorf("%s: %d", url, status)
		}
	}
	select {
	case <-n.Exited():
		t.Error("Exited() closed on a running network")
	default:
	}
}

func checkGone(t *testing.T, n *Network, pid int) {
	t.Helper()
	if n.PID() != 0 {
		t.Errorf("PID() = %d after the node went away", n.PID())
	}
	if groupAlive(pid) {
		t.Errorf("processes of group %d (node and plugin) still alive", pid)
	}
	if _, err := http.Get(n.URI() + "/ext/health"); err == nil {
		t.Error("node still answers")
	}
}

func checkChainConfig(t *testing.T, n *Network) {
	t.Helper()
	var cfg map[string]any
	readJSON(t, filepath.Join(n.DataDir(), "configs", "chains", n.ChainID().String(), "config.json"), &cfg)
	if cfg["nodeURI"] != n.URI() || len(cfg) != 1 {
		t.Errorf("avadata chain config: %v", cfg)
	}
	b, err := os.ReadFile(statePath(n.DataDir()))
	if err != nil {
		t.Fatal(err)
	}
	var s state
	if err := json.Unmarshal(b, &s); err != nil || s.ChainID != n.ChainID() || s.SubnetID != n.SubnetID() {
		t.Errorf("state file %s: %v", b, err)
	}
}

func getStatus(t *testing.T, url string) int {
	t.Helper()
	client := http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Errorf("GET %s: %v", url, err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}
