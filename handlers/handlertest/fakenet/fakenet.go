// Package fakenet is the local network the HTTP layer's tests run against:
// its chain IDs and its netinfo.Info. It imports nothing of the HTTP layer,
// so the tests of every package of it can share the one network.
package fakenet

import (
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Chain IDs of the fake local network. The P-chain ID is the same on every
// network (ids.Empty). Besides P, X and C the node follows one subnet-evm
// chain, "dispatch".
var (
	XChainID      = ids.ID{'x'}
	CChainID      = ids.ID{'c'}
	SubnetChainID = ids.ID{'d'}
	SubnetID      = ids.ID{'s'}
	AVAXAssetID   = ids.ID{'a', 'v', 'a', 'x'}
)

// SubnetChain is the store number and EVM chain id of "dispatch".
const (
	SubnetChain      = netinfo.FirstRegistered
	SubnetEVMChainID = 779672
)

// Info is the identity of the fake local network and of its followed
// chains.
func Info() netinfo.Info {
	chains := netinfo.Primary(constants.LocalID, XChainID, CChainID)
	chains = append(chains, netinfo.ChainInfo{
		Chain: SubnetChain, Kind: netinfo.KindEVM, BlockchainID: SubnetChainID,
		SubnetID: SubnetID, Name: "dispatch", EVMChainID: SubnetEVMChainID,
	})
	return netinfo.Info{NetworkID: constants.LocalID, AVAXAssetID: AVAXAssetID, Chains: chains}
}
