package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet/multinode"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TwoNodes is a 2-node tmpnet network with sybil protection on and avadata
// on both nodes. It gives what the shared single-node network cannot:
// blocks signed by their proposers, a P-chain that verifies warp messages
// against real validator sets (sybil protection off makes every set empty),
// and two avadata replicas.
type TwoNodes struct {
	Net     *multinode.TmpnetNetwork
	URI     string // node 1
	Base    string // node 1's avadata
	Network string // the {network} path segment
}

// TwoNodes is the package's 2-node network (network ID 88888, the avadata
// chain on both nodes with one chain config, so one pageTokenSecret),
// started on first use: starting one takes about a minute, so the tests of
// a package share it.
//
// The {network} segment is the name the node reports for a custom network
// ("network-88888", info.getNetworkName): resolveNetwork accepts exactly
// the node's netinfo.Name(), which is constants.NetworkName(88888).
func (e *Env) TwoNodes(t testing.TB) *TwoNodes {
	t.Helper()
	return e.two.Get(t, "the 2-node network", func() *TwoNodes { return e.startTwoNodes(t) })
}

func (e *Env) startTwoNodes(t testing.TB) *TwoNodes {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	began := time.Now()
	config := ChainConfig()
	config["pageTokenSecret"] = randomSecret(t)
	config["apiKeys"] = []string{TwoNodesAPIKey}
	n, err := startTmpnet(ctx, multinode.TmpnetConfig{Nodes: 2, ChainConfig: config, RootDir: filepath.Join(e.tempDir(t), "tmpnet")})
	require.NoError(t, err, "%s: starting the 2-node network", e.name)
	e.onStop(t.Name(), n.Stop)
	uris := n.URIs()
	require.Len(t, uris, 2)
	sn := &TwoNodes{Net: n, URI: uris[0], Base: uris[0] + "/ext/bc/" + n.ChainID().String()}
	var netName struct {
		NetworkName string `json:"networkName"`
	}
	require.NoError(t, truth.Call(ctx, sn.URI+"/ext/info", "info.getNetworkName", struct{}{}, &netName))
	sn.Network = netName.NetworkName
	require.Equal(t, "network-88888", sn.Network, "info.getNetworkName")
	t.Logf("%s: 2-node network up in %s (for %s): %v, avadata %s, dir %s",
		e.name, time.Since(began).Round(time.Millisecond), t.Name(), uris, sn.Base, n.Dir())
	return sn
}

// TwoNodesAPIKey is the API key both replicas of the 2-node network
// accept (for the operations that need one, such as exports).
const TwoNodesAPIKey = "two-nodes-key"

// randomSecret is a fresh pageTokenSecret: 32 random bytes in hex.
func randomSecret(t testing.TB) string {
	t.Helper()
	b := make([]byte, 32)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return hex.EncodeToString(b)
}
