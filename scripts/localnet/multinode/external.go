package multinode

import (
	"encoding/base64"
	"fmt"

	"github.com/ava-labs/avalanchego/config"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/tests/fixture/tmpnet"
)

// leaveExternal makes the genesis with every node of the network as an
// initial staker (tmpnet would make it with the nodes it runs only), unless
// it is made already, then leaves the nodes from index running on out of
// the network for tmpnet: it neither starts them nor names them as
// bootstrap beacons. It returns the nodes left out.
func leaveExternal(network *tmpnet.Network, running int) ([]*tmpnet.Node, error) {
	if network.Genesis == nil {
		// tmpnet makes pre-funded keys only for a genesis it makes itself;
		// the subnet's creation takes its owner key from them.
		if len(network.PreFundedKeys) == 0 {
			keys, err := tmpnet.NewPrivateKeys(tmpnet.DefaultPreFundedKeyCount)
			if err != nil {
				return nil, fmt.Errorf("making pre-funded keys: %w", err)
			}
			network.PreFundedKeys = keys
		}
		genesis, err := network.DefaultGenesis()
		if err != nil {
			return nil, fmt.Errorf("making the genesis: %w", err)
		}
		network.Genesis = genesis
	}
	external := network.Nodes[running:]
	network.Nodes = network.Nodes[:running:running]
	return external, nil
}

// ExternalNode is a genesis validator that tmpnet does not run, with what
// a stand-in for it needs to take on its identity.
type ExternalNode struct {
	NodeID ids.NodeID
	// StakingKey and StakingCert are PEM-encoded, as in the node's
	// --staking-tls-key-file and --staking-tls-cert-file.
	StakingKey, StakingCert []byte
	// SignerKey is the BLS secret key, as in --staking-signer-key-file.
	SignerKey []byte
}

// ExternalNodes are the validators of TmpnetConfig.ExternalNodes, in node
// order.
func (t *TmpnetNetwork) ExternalNodes() ([]ExternalNode, error) {
	out := make([]ExternalNode, 0, len(t.external))
	for _, n := range t.external {
		e := ExternalNode{NodeID: n.NodeID}
		for _, f := range []struct {
			key string
			dst *[]byte
		}{
			{config.StakingTLSKeyContentKey, &e.StakingKey},
			{config.StakingCertContentKey, &e.StakingCert},
			{config.StakingSignerKeyContentKey, &e.SignerKey},
		} {
			b, err := base64.StdEncoding.DecodeString(n.Flags[f.key])
			if err != nil {
				return nil, fmt.Errorf("multinode: decoding %s of %s: %w", f.key, n.NodeID, err)
			}
			*f.dst = b
		}
		out = append(out, e)
	}
	return out, nil
}
