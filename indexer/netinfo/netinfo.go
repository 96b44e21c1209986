// Package netinfo describes the Avalanche network the host node runs on: its
// ID and name, and the primary-network chains avadata follows. Every layer
// (followers, store, handlers) names chains with the Chain type defined here.
package netinfo

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
)

// Chain is one of the primary-network chains avadata follows.
type Chain uint8

const (
	P Chain = iota
	X
	C
)

// Chains lists every followed chain in a fixed order.
var Chains = []Chain{P, X, C}

// String returns the node's own alias of the chain ("P", "X", "C").
func (c Chain) String() string {
	switch c {
	case P:
		return "P"
	case X:
		return "X"
	case C:
		return "C"
	default:
		return fmt.Sprintf("chain(%d)", uint8(c))
	}
}

// DataAPIAlias returns the Data API alias of the chain ("p-chain", ...).
func (c Chain) DataAPIAlias() string {
	switch c {
	case P:
		return "p-chain"
	case X:
		return "x-chain"
	case C:
		return "c-chain"
	default:
		return c.String()
	}
}

// ParseChain parses a node alias ("P", "X", "C", any case).
func ParseChain(s string) (Chain, error) {
	switch s {
	case "P", "p":
		return P, nil
	case "X", "x":
		return X, nil
	case "C", "c":
		return C, nil
	default:
		return 0, fmt.Errorf("unknown chain %q: want P, X or C", s)
	}
}

// Info is the identity of the node's network.
type Info struct {
	NetworkID   uint32
	AVAXAssetID ids.ID
	// ChainIDs holds the blockchain ID of each Chain, indexed by Chain.
	ChainIDs [3]ids.ID
	// EVMChainID is the C-chain's EVM chain ID (eth_chainId): 43114 on
	// mainnet, 43113 on fuji, 43112 on a local network.
	EVMChainID uint64
}

// Name returns the Data API name of the network: "mainnet", "fuji", "local",
// or the node's own name for any other network (e.g. "network-88888").
func (i Info) Name() string {
	switch i.NetworkID {
	case constants.MainnetID:
		return "mainnet"
	case constants.FujiID:
		return "fuji"
	case constants.LocalID:
		return "local"
	default:
		return constants.NetworkName(i.NetworkID)
	}
}

// HRP is the bech32 prefix of the network's X/P addresses.
func (i Info) HRP() string { return constants.GetHRP(i.NetworkID) }

// ChainID returns the blockchain ID of c.
func (i Info) ChainID(c Chain) ids.ID { return i.ChainIDs[c] }

// ChainByID returns the Chain whose blockchain ID is id.
func (i Info) ChainByID(id ids.ID) (Chain, bool) {
	for _, c := range Chains {
		if i.ChainIDs[c] == id {
			return c, true
		}
	}
	return 0, false
}
