package multinode

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/staking"
	"github.com/ava-labs/avalanchego/tests/fixture/tmpnet"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/stretchr/testify/require"
)

// TestLeaveExternal: the genesis names every node as a staker, tmpnet is
// left with the nodes it runs, and an external node's keys are the ones
// its NodeID and genesis BLS key come from.
func TestLeaveExternal(t *testing.T) {
	nodes := make([]*tmpnet.Node, 3)
	for i := range nodes {
		nodes[i] = tmpnet.NewNode()
		require.NoError(t, nodes[i].EnsureKeys())
	}
	network := &tmpnet.Network{Nodes: nodes}
	external, err := leaveExternal(network, 2)
	require.NoError(t, err)
	require.Equal(t, nodes[2:], external)
	require.Equal(t, nodes[:2], network.Nodes)
	require.NotEmpty(t, network.PreFundedKeys, "the subnet's owner key comes from them")

	stakers := map[ids.NodeID][]byte{}
	for _, s := range network.Genesis.InitialStakers {
		stakers[s.NodeID] = s.Signer.PublicKey[:]
	}
	require.Len(t, stakers, 3)

	tn := &TmpnetNetwork{network: network, external: external}
	got, err := tn.ExternalNodes()
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, nodes[2].NodeID, got[0].NodeID)
	tlsCert, err := staking.LoadTLSCertFromBytes(got[0].StakingKey, got[0].StakingCert)
	require.NoError(t, err)
	cert, err := staking.ParseCertificate(tlsCert.Leaf.Raw)
	require.NoError(t, err)
	require.Equal(t, nodes[2].NodeID, ids.NodeIDFromCert(cert))
	signer, err := localsigner.FromBytes(got[0].SignerKey)
	require.NoError(t, err)
	require.Equal(t, stakers[nodes[2].NodeID], bls.PublicKeyToCompressedBytes(signer.PublicKey()),
		"the genesis names the external node with its BLS key")
}
