// Package netinfo describes the Avalanche network the host node runs on: its
// ID and name, and the chains avadata follows. Every layer (followers, store,
// handlers) names a chain by its Chain number, the small stable number the
// store uses in keys.
package netinfo

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
)

// Chain is the number of a followed chain in the store's keys. P, X and C
// have fixed numbers; every other EVM chain gets the next free number from
// the store's chain registry the first time it is followed, and keeps it.
type Chain uint8

const (
	P Chain = iota
	X
	C
	// FirstRegistered is the number the registry gives the first chain
	// that is not P, X or C.
	FirstRegistered
)

// PrimaryChains lists the primary network's chains in a fixed order.
func PrimaryChains() []Chain { return []Chain{P, X, C} }

// IsPrimary reports whether c is P, X or C.
func (c Chain) IsPrimary() bool { return c < FirstRegistered }

// String returns the node's own alias of a primary chain ("P", "X", "C"),
// and "chain-<n>" for any other.
func (c Chain) String() string {
	switch c {
	case P:
		return "P"
	case X:
		return "X"
	case C:
		return "C"
	default:
		return fmt.Sprintf("chain-%d", uint8(c))
	}
}

// DataAPIAlias returns the Data API alias of a primary chain ("p-chain",
// ...); other chains have none and return String().
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

// ParseChain parses a node alias of a primary chain ("P", "X", "C", any case).
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

// Kind is the kind of VM a chain runs, which decides how it is followed.
type Kind uint8

const (
	KindPlatform Kind = iota // the P-chain
	KindAVM                  // the X-chain
	KindEVM                  // the C-chain and subnet-evm chains
)

// ChainInfo is the identity of one chain the node runs.
type ChainInfo struct {
	Chain        Chain
	Kind         Kind
	BlockchainID ids.ID
	SubnetID     ids.ID
	// Name is "P", "X", "C", or the chain's name on the P-chain.
	Name string
	// EVMChainID is the chain's eth_chainId (EVM chains only; 0 until read).
	EVMChainID uint64
}

// IsEVM reports whether the chain is an EVM chain.
func (c ChainInfo) IsEVM() bool { return c.Kind == KindEVM }

// Info is the identity of the node's network and of the chains avadata knows.
type Info struct {
	NetworkID   uint32
	AVAXAssetID ids.ID
	// Chains holds P, X and C first, then every other followed EVM chain.
	Chains []ChainInfo
}

// Primary returns the identities of P, X and C on the network.
func Primary(networkID uint32, xChainID, cChainID ids.ID) []ChainInfo {
	return []ChainInfo{
		{Chain: P, Kind: KindPlatform, BlockchainID: constants.PlatformChainID, SubnetID: constants.PrimaryNetworkID, Name: "P"},
		{Chain: X, Kind: KindAVM, BlockchainID: xChainID, SubnetID: constants.PrimaryNetworkID, Name: "X"},
		{Chain: C, Kind: KindEVM, BlockchainID: cChainID, SubnetID: constants.PrimaryNetworkID, Name: "C",
			EVMChainID: KnownCChainEVMID(networkID)},
	}
}

// KnownCChainEVMID is the C-chain's EVM chain ID on the named networks
// (43114 mainnet, 43113 fuji, 43112 local), 0 elsewhere (read it from the
// node).
func KnownCChainEVMID(networkID uint32) uint64 {
	for _, n := range WellKnownCChains() {
		if n.NetworkID == networkID {
			return n.EVMChainID
		}
	}
	return 0
}

// WellKnownCChain is the C-chain of a named network.
type WellKnownCChain struct {
	NetworkID  uint32
	Name       string
	EVMChainID uint64
}

// WellKnownCChains lists the C-chains of the named networks.
func WellKnownCChains() []WellKnownCChain {
	return []WellKnownCChain{
		{constants.MainnetID, "mainnet", 43114},
		{constants.FujiID, "fuji", 43113},
		{constants.LocalID, "local", 43112},
	}
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

// IsPublic reports whether the node is on mainnet or Fuji, the networks
// the hosted API serves.
func (i Info) IsPublic() bool {
	return i.NetworkID == constants.MainnetID || i.NetworkID == constants.FujiID
}

// HRP is the bech32 prefix of the network's X/P addresses.
func (i Info) HRP() string { return constants.GetHRP(i.NetworkID) }

// Chain returns the identity of chain c.
func (i Info) Chain(c Chain) (ChainInfo, bool) {
	for _, ci := range i.Chains {
		if ci.Chain == c {
			return ci, true
		}
	}
	return ChainInfo{}, false
}

// ChainID returns the blockchain ID of c (ids.Empty if unknown).
func (i Info) ChainID(c Chain) ids.ID {
	ci, _ := i.Chain(c)
	return ci.BlockchainID
}

// EVMChains returns the EVM chains, the C-chain first.
func (i Info) EVMChains() []ChainInfo {
	var out []ChainInfo
	for _, ci := range i.Chains {
		if ci.IsEVM() {
			out = append(out, ci)
		}
	}
	return out
}

// EVMChainByNumber returns the EVM chain whose eth_chainId is n.
func (i Info) EVMChainByNumber(n uint64) (ChainInfo, bool) {
	for _, ci := range i.Chains {
		if ci.IsEVM() && ci.EVMChainID == n && n != 0 {
			return ci, true
		}
	}
	return ChainInfo{}, false
}

// CChainEVMID is the C-chain's EVM chain ID (0 until known).
func (i Info) CChainEVMID() uint64 {
	ci, _ := i.Chain(C)
	return ci.EVMChainID
}

// ChainName names c for logs and metrics: "P", "X", "C", or the chain's name.
func (i Info) ChainName(c Chain) string {
	if ci, ok := i.Chain(c); ok && ci.Name != "" {
		return ci.Name
	}
	return c.String()
}
