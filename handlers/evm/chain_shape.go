package evm

import (
	"fmt"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// apiFeatures is the OpenAPI's ApiFeature enum; avadata indexes NFTs and
// serves address_activity webhooks on every EVM chain it follows, but does
// not decode Teleporter messages.
func apiFeatures() []string { return []string{featureNFTIndexing, featureWebhooks, "teleporter"} }

// chainFeatures are the features every followed EVM chain has.
func chainFeatures() []string { return []string{featureNFTIndexing, featureWebhooks} }

// chainInfo is the OpenAPI's ChainInfo (and GetChainResponse).
type chainInfo struct {
	ChainID         string       `json:"chainId"`
	Status          string       `json:"status"`
	ChainName       string       `json:"chainName"`
	Description     string       `json:"description"`
	PlatformChainID string       `json:"platformChainId,omitempty"`
	SubnetID        string       `json:"subnetId,omitempty"`
	VMName          string       `json:"vmName"`
	RPCURL          string       `json:"rpcUrl"`
	WSURL           string       `json:"wsUrl,omitempty"`
	IsTestnet       bool         `json:"isTestnet"`
	NetworkToken    networkToken `json:"networkToken"`
	EnabledFeatures []string     `json:"enabledFeatures"`
}

// chainInfo describes one followed EVM chain.
func (s *server) chainInfo(chain netinfo.ChainInfo) chainInfo {
	node := s.Network()
	id := chain.BlockchainID.String()
	return chainInfo{
		ChainID:         api.FormatUint(chain.EVMChainID),
		Status:          s.chainStatus(chain.Chain),
		ChainName:       api.EVMChainName(chain),
		Description:     evmChainDescription(chain, node),
		PlatformChainID: id,
		SubnetID:        chain.SubnetID.String(),
		VMName:          "EVM",
		RPCURL:          "/ext/bc/" + id + "/rpc",
		WSURL:           "/ext/bc/" + id + "/ws",
		IsTestnet:       node.NetworkID != constants.MainnetID,
		NetworkToken:    s.nativeToken(chain),
		EnabledFeatures: chainFeatures(),
	}
}

// chainStatus is UNAVAILABLE when the chain's follower has stopped (or never
// reported): its data no longer advances. A follower an operator paused is
// still OK: it serves what it indexed.
func (s *server) chainStatus(chain netinfo.Chain) string {
	for _, st := range s.Statuses() {
		if st.Chain == chain && (st.Running || st.Paused) {
			return chainStatusOK
		}
	}
	return chainStatusUnavailable
}

func evmChainDescription(chain netinfo.ChainInfo, node netinfo.Info) string {
	if chain.Chain == netinfo.C {
		return fmt.Sprintf("The Contract Chain of the Avalanche primary network on %s.", node.Name())
	}
	return fmt.Sprintf("EVM chain '%s' of subnet %s on %s.", api.ChainLabel(chain), chain.SubnetID, node.Name())
}
