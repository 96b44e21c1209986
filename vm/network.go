package vm

import (
	"sync"

	"github.com/ava-labs/avalanchego/snow"

	"github.com/avadata/avadata/indexer/netinfo"
)

// networkInfo holds netinfo.Info, completed once the node answers (EVM chain
// IDs, the followed subnet-evm chains).
type networkInfo struct {
	mu   sync.RWMutex
	info netinfo.Info
}

func newNetworkInfo(ctx *snow.Context) *networkInfo {
	return &networkInfo{info: netinfo.Info{
		NetworkID:   ctx.NetworkID,
		AVAXAssetID: ctx.AVAXAssetID,
		Chains:      netinfo.Primary(ctx.NetworkID, ctx.XChainID, ctx.CChainID),
	}}
}

func (n *networkInfo) get() netinfo.Info {
	n.mu.RLock()
	defer n.mu.RUnlock()
	info := n.info
	info.Chains = append([]netinfo.ChainInfo(nil), n.info.Chains...)
	return info
}

// setChains replaces the chain list (P, X, C first).
func (n *networkInfo) setChains(chains []netinfo.ChainInfo) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.info.Chains = append([]netinfo.ChainInfo(nil), chains...)
}

// mergeChains keeps every primary chain of known (followed or not: handlers
// still name them) with what resolving learned (the C-chain's EVM id), and
// appends the other followed chains.
func mergeChains(known, resolved []netinfo.ChainInfo) []netinfo.ChainInfo {
	out := make([]netinfo.ChainInfo, 0, len(known)+len(resolved))
	for _, k := range known {
		if !k.Chain.IsPrimary() {
			continue
		}
		for _, r := range resolved {
			if r.Chain == k.Chain {
				k = r
			}
		}
		out = append(out, k)
	}
	for _, r := range resolved {
		if !r.Chain.IsPrimary() {
			out = append(out, r)
		}
	}
	return out
}
