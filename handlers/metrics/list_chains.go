package metrics

import (
	"net/http"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET {metrics_url}/v2/chains (listChains): the EVM chains whose metrics
// this node serves, the C-chain first, in the SDK's MetricsListChainsResponse.
// `network` (mainnet, fuji or testnet; testnet also names a local network,
// api.IsNodeNetwork) filters: a network this node does not serve lists
// nothing. Every chain fits one page, so no nextPageToken is ever issued and
// a pageToken is a 400. A chain whose EVM chain id the follower has not read
// yet is left out (as GET /v1/chains does).

// Route names of the chain listing operations (the SDK's operationIds).
const (
	routeListChains = "listChains"
	routeGetChain   = "getChain"
)

// Query parameters of listChains.
const (
	paramNetwork   = "network"
	paramPageToken = "pageToken"
)

// Chain.network values (the SDK's closed NetworkType: a local network is a
// test network).
const (
	networkTypeMainnet = "mainnet"
	networkTypeTestnet = "testnet"
)

// metricsChain is the SDK's Chain: every field required.
type metricsChain struct {
	EVMChainID   uint64 `json:"evmChainId"`
	ChainName    string `json:"chainName"`
	BlockchainID string `json:"blockchainId"`
	SubnetID     string `json:"subnetId"`
	Network      string `json:"network"`
}

// metricsListChainsResponse is the SDK's MetricsListChainsResponse;
// nextPageToken is never present (one page holds every chain).
type metricsListChainsResponse struct {
	NextPageToken string         `json:"nextPageToken,omitempty"`
	Chains        []metricsChain `json:"chains"`
}

// newMetricsChain describes one followed EVM chain.
func newMetricsChain(ci netinfo.ChainInfo, node netinfo.Info) metricsChain {
	network := networkTypeTestnet
	if node.NetworkID == constants.MainnetID {
		network = networkTypeMainnet
	}
	return metricsChain{
		EVMChainID:   ci.EVMChainID,
		ChainName:    api.EVMChainName(ci),
		BlockchainID: ci.BlockchainID.String(),
		SubnetID:     ci.SubnetID.String(),
		Network:      network,
	}
}

func (s *server) serveListChains(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	q := r.URL.Query()
	node := s.Network()
	if q.Get(paramPageToken) != "" {
		return api.BadRequest("invalid %s: this listing is never paged (one page holds every chain), so no token continues it; ask without %s",
			paramPageToken, paramPageToken)
	}
	resp := metricsListChainsResponse{Chains: []metricsChain{}}
	if raw := q.Get(paramNetwork); raw != "" {
		same, err := api.IsNodeNetwork(paramNetwork, raw, node)
		if err != nil {
			return err
		}
		if !same {
			api.WriteJSON(w, http.StatusOK, resp)
			return nil
		}
	}
	for _, ci := range node.EVMChains() {
		if ci.EVMChainID != 0 {
			resp.Chains = append(resp.Chains, newMetricsChain(ci, node))
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
