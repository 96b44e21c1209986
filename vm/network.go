package vm

import (
	"sync"

	"github.com/ava-labs/avalanchego/snow"
	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/netinfo"
)

// knownEVMChainIDs are the C-chain EVM chain IDs of the named networks; any
// other network's is read from eth_chainId once the node is reachable.
var knownEVMChainIDs = map[uint32]uint64{
	constants.MainnetID: 43114,
	constants.FujiID:    43113,
	constants.LocalID:   43112,
}

// networkInfo holds netinfo.Info, completed once the node answers.
type networkInfo struct {
	mu   sync.RWMutex
	info netinfo.Info
}

func newNetworkInfo(ctx *snow.Context) *networkInfo {
	info := netinfo.Info{
		NetworkID:   ctx.NetworkID,
		AVAXAssetID: ctx.AVAXAssetID,
		EVMChainID:  knownEVMChainIDs[ctx.NetworkID],
	}
	info.ChainIDs[netinfo.P] = constants.PlatformChainID
	info.ChainIDs[netinfo.X] = ctx.XChainID
	info.ChainIDs[netinfo.C] = ctx.CChainID
	return &networkInfo{info: info}
}

func (n *networkInfo) get() netinfo.Info {
	n.mu.RLock()
	defer n.mu.RUnlock()
	return n.info
}

func (n *networkInfo) setEVMChainID(id uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.info.EVMChainID = id
}
