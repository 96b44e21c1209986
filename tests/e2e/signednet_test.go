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

// signedNet is a 2-node tmpnet network with sybil protection on.
type signedNet struct {
	n       *multinode.TmpnetNetwork
	uri     string // node 1
	base    string // node 1's avadata
	network string // the {network} path segment
}

// TestSignedNetwork runs the checks that need what the shared single-node
// network cannot give: blocks signed by their proposers, and a P-chain
// that verifies warp messages against real validator sets (sybil
// protection off makes every set empty). Both share one 2-node network,
// since starting one takes about a minute.
func TestSignedNetwork(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	sn := startSignedNet(t, ctx)
	t.Run("BlocksByNode", func(t *testing.T) { blocksByNodeSigned(t, ctx, sn) })
	t.Run("L1WarpTxs", func(t *testing.T) { l1WarpTxsSigned(t, ctx, sn) })
}

// startSignedNet starts a 2-node network (network ID 88888, sybil
// protection on, the avadata chain on both nodes) and stops it when t
// ends.
//
// The {network} segment is the name the node reports for a custom network
// ("network-88888", info.getNetworkName): resolveNetwork accepts exactly
// the node's netinfo.Name(), which is constants.NetworkName(88888).
func startSignedNet(t *testing.T, ctx context.Context) *signedNet {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a 2-node network")
	}
	avalanchego, pluginDir, err := binaries()
	if err != nil {
		t.Skipf("multinode harness cannot run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pluginDir, vm.ID.String())); err != nil {
		t.Skipf("multinode harness cannot run: no avadata plugin (make build): %v", err)
	}
	began := time.Now()
	n, err := multinode.StartTmpnet(ctx, multinode.TmpnetConfig{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		Nodes:           2,
		RootDir:         t.TempDir(),
		ChainConfig:     testChainConfig(),
	})
	require.NoError(t, err, "starting the 2-node network")
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := n.Stop(stopCtx); err != nil {
			t.Error(err)
		}
	})
	uris := n.URIs()
	require.Len(t, uris, 2)
	sn := &signedNet{n: n, uri: uris[0], base: uris[0] + "/ext/bc/" + n.ChainID().String()}
	var netName struct {
		NetworkName string `json:"networkName"`
	}
	require.NoError(t, callJSON(ctx, sn.uri+"/ext/info", "info.getNetworkName", struct{}{}, &netName))
	sn.network = netName.NetworkName
	require.Equal(t, "network-88888", sn.network, "info.getNetworkName")
	t.Logf("2-node network up in %s: %v, avadata %s, dir %s", time.Since(began).Round(time.Millisecond), uris, sn.base, n.Dir())
	return sn
}
