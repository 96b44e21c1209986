package handlers

import (
	"net/http"

	"github.com/avadata/avadata/indexer/follower"
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
	Name       string `json:"name"`
	NetworkID  uint32 `json:"networkId"`
	EVMChainID uint64 `json:"evmChainId"`
}

// status assembles the current StatusResponse.
func (s *server) status() StatusResponse {
	node := s.backend.Network()
	chains := s.backend.Statuses()
	if chains == nil {
		chains = []follower.Status{} // an empty list, never null
	}
	return StatusResponse{
		Version: s.cfg.Version,
		Network: NetworkStatus{
			Name:       node.Name(),
			NetworkID:  node.NetworkID,
			EVMChainID: node.EVMChainID,
		},
		Chains: chains,
	}
}

// serveStatus handles GET /v1/status.
func (s *server) serveStatus(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, s.status())
	return nil
}
