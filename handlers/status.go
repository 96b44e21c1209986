package handlers

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// StatusResponse is the body of GET /v1/status and the result of the
// avadata.status JSON-RPC method.
type StatusResponse struct {
	Version string            `json:"version"`
	Network NetworkStatus     `json:"network"`
	Chains  []follower.Status `json:"chains"`
}

// NetworkStatus identifies the network the node, and so avadata, serves.
type NetworkStatus struct {
	Name      string `json:"name"`
	NetworkID uint32 `json:"networkId"`
	// EVMChainID is the C-chain's EVM chain id (0 until known).
	EVMChainID uint64 `json:"evmChainId"`
	// EVMChains lists every followed EVM chain, the C-chain first.
	EVMChains []EVMChainStatus `json:"evmChains"`
}

// EVMChainStatus identifies one followed EVM chain.
type EVMChainStatus struct {
	Name         string `json:"name"`
	BlockchainID string `json:"blockchainId"`
	// EVMChainID is the chain's eth_chainId (0 until read from the node).
	EVMChainID uint64 `json:"evmChainId"`
}

// status assembles the current StatusResponse.
func (s *server) status() StatusResponse {
	node := s.Network()
	chains := s.Statuses()
	if chains == nil {
		chains = []follower.Status{} // an empty list, never null
	}
	return StatusResponse{
		Version: s.Version(),
		Network: NetworkStatus{
			Name:       node.Name(),
			NetworkID:  node.NetworkID,
			EVMChainID: node.CChainEVMID(),
			EVMChains:  evmChainStatuses(node),
		},
		Chains: chains,
	}
}

func evmChainStatuses(node netinfo.Info) []EVMChainStatus {
	out := []EVMChainStatus{}
	for _, ci := range node.EVMChains() {
		out = append(out, EVMChainStatus{
			Name:         node.ChainName(ci.Chain),
			BlockchainID: ci.BlockchainID.String(),
			EVMChainID:   ci.EVMChainID,
		})
	}
	return out
}

// serveStatus handles GET /v1/status.
func (s *server) serveStatus(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	api.WriteJSON(w, http.StatusOK, s.status())
	return nil
}
