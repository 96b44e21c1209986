package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// blockchainData is what a blockchain's page shows.
type blockchainData struct {
	// Chain is getBlockchainById's reply.
	Chain object
	// FollowedEVM says whether the node follows the chain as an EVM chain
	// (getChainInfo of its evmChainId answers), so its explorer pages exist.
	FollowedEVM bool
}

// serveBlockchain draws one blockchain (getBlockchainById): its name, VM,
// subnet and creation, and for an EVM chain the node follows, a link to
// that chain's pages.
func (s *server) serveBlockchain(r *http.Request, req *request) (view, error) {
	id := api.PathVar(r, "blockchainId")
	ctx := r.Context()
	chain, err := s.get(ctx, call(nil, "v1", "networks", req.Network, "blockchains", id))
	if err != nil {
		return view{}, err
	}
	data := blockchainData{Chain: chain}
	if evmChainID := str(chain["evmChainId"]); evmChainID != "" {
		_, err := s.get(ctx, call(nil, "v1", "chains", evmChainID))
		data.FollowedEVM = err == nil
	}
	return view{Template: "staking_blockchain", Title: "Blockchain " + str(either(chain["blockchainName"], id)), Data: data}, nil
}
