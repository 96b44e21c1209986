package evm

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/netinfo"
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
)

// apiFeatures is the OpenAPI's ApiFeature enum; avadata indexes NFTs but
// has no webhooks and does not decode Teleporter messages.
func apiFeatures() []string { return []string{featureNFTIndexing, "webhooks", "teleporter"} }

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

// listChainsResponse is the OpenAPI's ListChainsResponse.
type listChainsResponse struct {
	Chains []chainInfo `json:"chains"`
}

// listChainsRequest is the validated input of GET /v1/chains.
type listChainsRequest struct {
	// OtherNetwork is set when the network filter names another network:
	// this node serves none of its chains.
	OtherNetwork bool
	Feature      string // one of apiFeatures, "" for all
}

func (s *server) parseListChainsRequest(r *http.Request, heights *api.Heights) (listChainsRequest, error) {
	var req listChainsRequest
	q := r.URL.Query()
	if raw := q.Get(paramNetworkFilter); raw != "" {
		same, err := api.IsNodeNetwork(paramNetworkFilter, raw, s.Network())
		if err != nil {
			return req, err
		}
		req.OtherNetwork = !same
	}
	var err error
	req.Feature, err = api.ParseEnum(q, paramFeature, apiFeatures())
	return req, err
}

func (s *server) serveListChains(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListChainsRequest(r, heights)
	if err != nil {
		return err
	}
	resp := listChainsResponse{Chains: []chainInfo{}}
	if req.OtherNetwork || (req.Feature != "" && req.Feature != featureNFTIndexing) {
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
	for _, chain := range s.Network().EVMChains() {
		if chain.EVMChainID != 0 {
			resp.Chains = append(resp.Chains, s.chainInfo(chain))
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

func (s *server) serveGetChain(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	chain, err := api.ResolveEVMChain(api.PathVar(r, api.ParamChainID), s.Network())
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, s.chainInfo(chain))
	return nil
}

// chainInfo describes one followed EVM chain.
func (s *server) chainInfo(chain netinfo.ChainInfo) chainInfo {
	node := s.Network()
	id := chain.BlockchainID.String()
	return chainInfo{
		ChainID:         api.FormatUint(chain.EVMChainID),
		Status:          s.chainStatus(chain.Chain),
		ChainName:       evmChainName(chain),
		Description:     evmChainDescription(chain, node),
		PlatformChainID: id,
		SubnetID:        chain.SubnetID.String(),
		VMName:          "EVM",
		RPCURL:          "/ext/bc/" + id + "/rpc",
		WSURL:           "/ext/bc/" + id + "/ws",
		IsTestnet:       node.NetworkID != constants.MainnetID,
		NetworkToken:    s.nativeToken(chain),
		EnabledFeatures: []string{featureNFTIndexing},
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

func evmChainName(chain netinfo.ChainInfo) string {
	if chain.Chain == netinfo.C {
		return "Avalanche (C-Chain)"
	}
	return api.ChainLabel(chain)
}

func evmChainDescription(chain netinfo.ChainInfo, node netinfo.Info) string {
	if chain.Chain == netinfo.C {
		return fmt.Sprintf("The Contract Chain of the Avalanche primary network on %s.", node.Name())
	}
	return fmt.Sprintf("EVM chain '%s' of subnet %s on %s.", api.ChainLabel(chain), chain.SubnetID, node.Name())
}
