package evm

import (
	"fmt"
	"net/http"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/address/{address}/chains (listAddressChains), and its deprecated
// alias GET /v1/chains/address/{address} (getAddressChains): the EVM chains
// this node follows on which the address took part in an indexed
// transaction (as sender, recipient, created contract, party of a token
// transfer or of an internal transaction), each as GET /v1/chains shows it,
// in the order GET /v1/chains lists them. The index answers at once, so
// unlike the hosted API's there is no 15-minute refresh delay, and
// unindexedChains is left out: every followed chain is indexed.

// listAddressChainsRequest is the validated input of both routes.
type listAddressChainsRequest struct {
	Address common.Address
}

func parseListAddressChainsRequest(r *http.Request) (listAddressChainsRequest, error) {
	addr, err := api.ParseEVMAddress(api.ParamAddress, api.PathVar(r, api.ParamAddress))
	return listAddressChainsRequest{Address: addr}, err
}

// listAddressChainsResponse is the OpenAPI's ListAddressChainsResponse.
type listAddressChainsResponse struct {
	IndexedChains []chainInfo `json:"indexedChains"`
}

func (s *server) serveListAddressChains(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := parseListAddressChainsRequest(r)
	if err != nil {
		return err
	}
	resp := listAddressChainsResponse{IndexedChains: []chainInfo{}}
	for _, chain := range s.Network().EVMChains() {
		if chain.EVMChainID == 0 {
			continue // not listed by GET /v1/chains either until its id is known
		}
		s.ReadsStream(heights, s.EVMChainStream(chain))
		// Activity only before a chain's first indexed block is not
		// seen: X-Avadata-History-From names such chains.
		if _, err := s.history(r.Context(), chain, heights); err != nil {
			return err
		}
		active, err := s.reader.HasActivity(r.Context(), chain.Chain, req.Address)
		if err != nil {
			return fmt.Errorf("looking for the activity of %s on %s: %w", req.Address, api.ChainLabel(chain), err)
		}
		if active {
			resp.IndexedChains = append(resp.IndexedChains, s.chainInfo(chain))
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
