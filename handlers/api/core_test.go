package api

import (
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Chain IDs of the fake local network. The P-chain ID is the same on every
// network (ids.Empty). Besides P, X and C the node follows one subnet-evm
// chain, "dispatch".
var (
	testXChainID      = ids.ID{'x'}
	testCChainID      = ids.ID{'c'}
	testSubnetChainID = ids.ID{'d'}
	testSubnetID      = ids.ID{'s'}
	testAVAXAssetID   = ids.ID{'a', 'v', 'a', 'x'}
)

// SubnetChain is the store number and EVM chain id of "dispatch".
const (
	testSubnetChain      = netinfo.FirstRegistered
	testSubnetEVMChainID = 779672
)

func localInfo() netinfo.Info {
	chains := netinfo.Primary(constants.LocalID, testXChainID, testCChainID)
	chains = append(chains, netinfo.ChainInfo{
		Chain: testSubnetChain, Kind: netinfo.KindEVM, BlockchainID: testSubnetChainID,
		SubnetID: testSubnetID, Name: "dispatch", EVMChainID: testSubnetEVMChainID,
	})
	return netinfo.Info{NetworkID: constants.LocalID, AVAXAssetID: testAVAXAssetID, Chains: chains}
}

// testNode is the NodeView of the api package's tests: the local network
// of LocalInfo, every stream at the height set in statuses.
type testNode struct {
	statuses []follower.Status
}

func (testNode) Network() netinfo.Info { return localInfo() }

func (n testNode) Statuses() []follower.Status { return n.statuses }

func (testNode) PageTokenKey() []byte { return []byte("test page token key") }

// newTestCore is a Core over testNode with the clock now.
func newTestCore(now func() time.Time) *Core {
	return NewCore(testNode{}, nil, now, "test", time.Second)
}
