package primary

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/networks/{network}/blockchains (listBlockchains): every
// blockchain, the P-, X- and C-chain included, in creation order
// (subnets.go).

// listBlockchainsRequest is the validated input of listBlockchains.
type listBlockchainsRequest struct {
	Page api.Page
}

func (s *server) parseListBlockchainsRequest(r *http.Request, heights *api.Heights) (listBlockchainsRequest, error) {
	page, err := s.parseRegistryPage(r, heights, routeListBlockchains)
	return listBlockchainsRequest{Page: page}, err
}

func (s *server) serveListBlockchains(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListBlockchainsRequest(r, heights)
	if err != nil {
		return err
	}
	chains, next, err := listRegistry(r.Context(), s, req.Page, "blockchains", s.reader.Blockchains, blockchainPos)
	if err != nil {
		return err
	}
	resp := listBlockchainsResponse{NextPageToken: next, Blockchains: make([]blockchainReply, len(chains))}
	for i := range chains {
		resp.Blockchains[i] = blockchain(&chains[i])
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
