package evm

import (
	"net/http"
	"slices"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/chains and GET /v1/chains/{chainId} (referenced by the spec; the
// OpenAPI's supportedChains and getChainInfo): the EVM chains this node
// follows. URLs are node-relative (/ext/bc/<blockchainID>/rpc), since
// avadata does not know the address clients reach the node at. A chain whose
// EVM chain id has not been read yet is left out of the list.

// Query parameters of GET /v1/chains.
const (
	paramNetworkFilter = "network"
	paramFeature       = "feature"
)

// Chain statuses (the OpenAPI's ChainStatus) and features (ApiFeature).
const (
	chainStatusOK          = "OK"
	chainStatusUnavailable = "UNAVAILABLE"
	featureNFTIndexing     = "nftIndexing"
	featureWebhooks        = "webhooks"
)

// supportedChainsResponse is the OpenAPI's ListChainsResponse.
type supportedChainsResponse struct {
	Chains []chainInfo `json:"chains"`
}

// supportedChainsRequest is the validated input of GET /v1/chains.
type supportedChainsRequest struct {
	// OtherNetwork is set when the network filter names another network:
	// this node serves none of its chains.
	OtherNetwork bool
	Feature      string // one of apiFeatures, "" for all
}

func (s *server) parseSupportedChainsRequest(r *http.Request, heights *api.Heights) (supportedChainsRequest, error) {
	var req supportedChainsRequest
	q := r.URL.Query()
	var err error
	if req.OtherNetwork, err = s.parseOtherNetwork(q); err != nil {
		return req, err
	}
	req.Feature, err = api.ParseEnum(q, paramFeature, apiFeatures())
	return req, err
}

func (s *server) serveSupportedChains(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseSupportedChainsRequest(r, heights)
	if err != nil {
		return err
	}
	resp := supportedChainsResponse{Chains: []chainInfo{}}
	if req.OtherNetwork || (req.Feature != "" && !slices.Contains(chainFeatures(), req.Feature)) {
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
	for _, chain := range s.Network().EVMChains() {
		if chain.EVMChainID != 0 {
			if _, err := s.history(r.Context(), chain, heights); err != nil {
				return err
			}
			resp.Chains = append(resp.Chains, s.chainInfo(chain))
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
