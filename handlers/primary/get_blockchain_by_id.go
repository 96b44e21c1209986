package primary

import (
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/networks/{network}/blockchains/{blockchainId} (getBlockchainById):
// one blockchain of any subnet (subnets.go). {blockchainId} is a cb58
// blockchain ID, or the alias of a primary-network chain (p-chain,
// x-chain, c-chain).

// getBlockchainByIDRequest is the validated input of getBlockchainById.
type getBlockchainByIDRequest struct {
	BlockchainID ids.ID
}

func (s *server) parseGetBlockchainByIDRequest(r *http.Request, heights *api.Heights) (getBlockchainByIDRequest, error) {
	var req getBlockchainByIDRequest
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P)
	segment := api.PathVar(r, paramBlockchainID)
	if chain, ok := api.ChainByAlias(segment); ok {
		req.BlockchainID = s.Network().ChainID(chain)
		return req, nil
	}
	var err error
	if req.BlockchainID, err = api.ParseCB58ID(paramBlockchainID, segment); err != nil {
		return req, api.BadRequest("invalid %s '%s': must be a cb58-encoded blockchain ID or one of 'p-chain', 'x-chain', 'c-chain'",
			paramBlockchainID, api.Truncate(segment))
	}
	return req, nil
}

func (s *server) serveGetBlockchainByID(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetBlockchainByIDRequest(r, heights)
	if err != nil {
		return err
	}
	chain, found, err := s.reader.Blockchain(r.Context(), req.BlockchainID)
	if err != nil {
		return fmt.Errorf("reading blockchain %s: %w", req.BlockchainID, err)
	}
	if !found {
		return api.NotFound("blockchain %s not found on network '%s' (or this node has not indexed its CreateChainTx yet)",
			req.BlockchainID, s.Network().Name())
	}
	api.WriteJSON(w, http.StatusOK, blockchain(&chain))
	return nil
}
