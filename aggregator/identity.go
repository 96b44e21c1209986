package aggregator

import (
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/staking"
)

// The aggregator talks to validators as a p2p node of its own: a plugin's
// AppSender only reaches the plugin's own chain on other nodes, never their
// P-chain or C-chain handlers, and the host node's staking key is not
// available to plugins. Its TLS certificate is its NodeID, kept in the
// chain's data directory so the NodeID stays the same across restarts and
// operators can allow-list it. It needs no BLS key of its own: it is never a
// validator (the network layer signs its IP with a throwaway one).

// identityDirName is the directory under the chain's data directory that
// holds the certificate and its key.
const identityDirName = "sigagg"

// Identity is the aggregator's p2p identity.
type Identity struct {
	Cert   *tls.Certificate
	NodeID ids.NodeID
	// KeyPath and CertPath are where they are kept.
	KeyPath, CertPath string
}

// loadIdentity reads the certificate kept in chainDataDir, creating it on
// the first start.
func loadIdentity(chainDataDir string) (Identity, error) {
	dir := filepath.Join(chainDataDir, identityDirName)
	id := Identity{
		KeyPath:  filepath.Join(dir, "staker.key"),
		CertPath: filepath.Join(dir, "staker.crt"),
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return id, fmt.Errorf("creating %s: %w", dir, err)
	}
	// Writes a new pair only when there is no key yet.
	if err := staking.InitNodeStakingKeyPair(id.KeyPath, id.CertPath); err != nil {
		return id, fmt.Errorf("creating the aggregator's TLS identity in %s: %w", dir, err)
	}
	cert, err := staking.LoadTLSCertFromFiles(id.KeyPath, id.CertPath)
	if err != nil {
		return id, fmt.Errorf("loading the aggregator's TLS identity from %s: %w", dir, err)
	}
	parsed, err := staking.ParseCertificate(cert.Leaf.Raw)
	if err != nil {
		return id, fmt.Errorf("parsing the aggregator's certificate %s: %w", id.CertPath, err)
	}
	id.Cert, id.NodeID = cert, ids.NodeIDFromCert(parsed)
	return id, nil
}
