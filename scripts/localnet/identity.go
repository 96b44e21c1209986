package localnet

import (
	"bytes"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/staking"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
)

// LocalValidators is how many validators the local network's genesis names
// (genesis.LocalConfig.InitialStakers), and so the size of the multi-node
// network: avalanchego ships their staking keys under staking/local/ in its
// module, as staker<i>.crt, staker<i>.key and signer<i>.key.
const LocalValidators = 5

// A node's staking identity lives in its data dir at the node's default
// paths, so the data dir alone is enough to restart it.
const (
	stakingDirName  = "staking"
	stakingCertName = "staker.crt"
	stakingKeyName  = "staker.key"
	signerKeyName   = "signer.key"
)

// identity is where one node's staking identity is, and whose it is.
type identity struct {
	certFile, keyFile, signerFile string
	nodeID                        ids.NodeID
}

func identityIn(dataDir string) identity {
	dir := filepath.Join(dataDir, stakingDirName)
	return identity{
		certFile:   filepath.Join(dir, stakingCertName),
		keyFile:    filepath.Join(dir, stakingKeyName),
		signerFile: filepath.Join(dir, signerKeyName),
	}
}

// installLocalIdentity gives the data dir of node i (1-based) the staking
// identity of the local genesis's i-th validator, copied from
// localStakingDir, unless the data dir has it already. Either way it checks
// the identity against the genesis: its NodeID and BLS public key.
func installLocalIdentity(dataDir, localStakingDir string, i int) (identity, error) {
	id := identityIn(dataDir)
	_, err := os.Stat(id.certFile)
	switch {
	case err == nil:
	case !errors.Is(err, fs.ErrNotExist):
		return identity{}, fmt.Errorf("checking node %d's staking identity: %w", i, err)
	case localStakingDir == "":
		return identity{}, fmt.Errorf("node %d has no staking identity in %s and no local staking dir was given to copy it from (the staking/local dir of the avalanchego module)",
			i, filepath.Dir(id.certFile))
	default:
		n := strconv.Itoa(i)
		for src, dst := range map[string]string{
			"staker" + n + ".crt": id.certFile,
			"staker" + n + ".key": id.keyFile,
			"signer" + n + ".key": id.signerFile,
		} {
			if err := copyFile(filepath.Join(localStakingDir, src), dst); err != nil {
				return identity{}, fmt.Errorf("installing node %d's staking identity: %w", i, err)
			}
		}
	}
	if id.nodeID, err = checkLocalIdentity(id, i); err != nil {
		return identity{}, err
	}
	return id, nil
}

// checkLocalIdentity returns the NodeID of the identity, after checking
// that it is the i-th validator of the local genesis.
func checkLocalIdentity(id identity, i int) (ids.NodeID, error) {
	stakers := genesis.LocalConfig.InitialStakers
	if i < 1 || i > len(stakers) {
		return ids.EmptyNodeID, fmt.Errorf("the local genesis has %d validators, not %d", len(stakers), i)
	}
	want := stakers[i-1]
	pemBytes, err := os.ReadFile(id.certFile)
	if err != nil {
		return ids.EmptyNodeID, fmt.Errorf("reading node %d's staking certificate: %w", i, err)
	}
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return ids.EmptyNodeID, fmt.Errorf("node %d's staking certificate %s is not PEM", i, id.certFile)
	}
	cert, err := staking.ParseCertificate(block.Bytes)
	if err != nil {
		return ids.EmptyNodeID, fmt.Errorf("parsing node %d's staking certificate %s: %w", i, id.certFile, err)
	}
	nodeID := ids.NodeIDFromCert(cert)
	if nodeID != want.NodeID {
		return ids.EmptyNodeID, fmt.Errorf("%s is %s, but the local genesis's validator %d is %s", id.certFile, nodeID, i, want.NodeID)
	}
	skBytes, err := os.ReadFile(id.signerFile)
	if err != nil {
		return ids.EmptyNodeID, fmt.Errorf("reading node %d's BLS key: %w", i, err)
	}
	sk, err := localsigner.FromBytes(skBytes)
	if err != nil {
		return ids.EmptyNodeID, fmt.Errorf("parsing node %d's BLS key %s: %w", i, id.signerFile, err)
	}
	if want.Signer == nil || !bytes.Equal(bls.PublicKeyToCompressedBytes(sk.PublicKey()), want.Signer.PublicKey[:]) {
		return ids.EmptyNodeID, fmt.Errorf("%s is not the BLS key the local genesis gives validator %d", id.signerFile, i)
	}
	return nodeID, nil
}

// copyFile copies a key file, private to its owner: the module cache's
// copies are read-only, and a node's data dir must stay writable.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
