package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet/multinode"
	"github.com/avadata/avadata/vm"
)

// twoNodes is a 2-node tmpnet network with sybil protection on and avadata
// on both nodes.
type twoNodes struct {
	n       *multinode.TmpnetNetwork
	uri     string // node 1
	base    string // node 1's avadata
	network string // the {network} path segment
}

// TestTwoNodeNetwork runs the checks that need what the shared single-node
// network cannot give: blocks signed by their proposers, a P-chain that
// verifies warp messages against real validator sets (sybil protection off
// makes every set empty), and two avadata replicas. They share one 2-node
// network, since starting one takes about a minute.
func TestTwoNodeNetwork(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	tn := startTwoNodes(t, ctx)
	t.Run("BlocksByNode", func(t *testing.T) { blocksByNodeSigned(t, ctx, tn) })
	t.Run("L1WarpTxs", func(t *testing.T) { l1WarpTxsSigned(t, ctx, tn) })
	t.Run("ReplicasBehindOneProxy", func(t *testing.T) { replicasBehindOneProxy(t, ctx, tn) })
}

// startTwoNodes starts a 2-node network (network ID 88888, sybil
// protection on, the avadata chain on both nodes with one chain config, so
// one pageTokenSecret) and stops it when t ends.
//
// The {network} segment is the name the node reports for a custom network
// ("network-88888", info.getNetworkName): resolveNetwork accepts exactly
// the node's netinfo.Name(), which is constants.NetworkName(88888).
func startTwoNodes(t *testing.T, ctx context.Context) *twoNodes {
	t.Helper()
	began := time.Now()
	config := testChainConfig()
	config["pageTokenSecret"] = randomSecret(t)
	n := startMultiNode(t, ctx, multinode.TmpnetConfig{Nodes: 2, ChainConfig: config})
	uris := n.URIs()
	require.Len(t, uris, 2)
	sn := &twoNodes{n: n, uri: uris[0], base: uris[0] + "/ext/bc/" + n.ChainID().String()}
	var netName struct {
		NetworkName string `json:"networkName"`
	}
	require.NoError(t, callJSON(ctx, sn.uri+"/ext/info", "info.getNetworkName", struct{}{}, &netName))
	sn.network = netName.NetworkName
	require.Equal(t, "network-88888", sn.network, "info.getNetworkName")
	t.Logf("2-node network up in %s: %v, avadata %s, dir %s", time.Since(began).Round(time.Millisecond), uris, sn.base, n.Dir())
	return sn
}

// startMultiNode starts a tmpnet network of the built node and plugin as
// cfg says (the binaries and root dir are filled in here), skipping the
// test when they are not built, and stops it when t ends.
func startMultiNode(t *testing.T, ctx context.Context, cfg multinode.TmpnetConfig) *multinode.TmpnetNetwork {
	t.Helper()
	if testing.Short() {
		t.Skipf("starts a %d-node network", cfg.Nodes)
	}
	avalanchego, pluginDir, err := binaries()
	if err != nil {
		t.Skipf("multinode harness cannot run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pluginDir, vm.ID.String())); err != nil {
		t.Skipf("multinode harness cannot run: no avadata plugin (make build): %v", err)
	}
	cfg.AvalancheGoPath, cfg.PluginDir, cfg.RootDir = avalanchego, pluginDir, t.TempDir()
	n, err := multinode.StartTmpnet(ctx, cfg)
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
