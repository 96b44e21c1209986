package primary

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/networks/{network}/subnets (listSubnets): every subnet, the
// primary network included, with its owner, L1 state and blockchains, in
// creation order (subnets.go).

// listSubnetsRequest is the validated input of listSubnets.
type listSubnetsRequest struct {
	Page api.Page
}

func (s *server) parseListSubnetsRequest(r *http.Request, heights *api.Heights) (listSubnetsRequest, error) {
	page, err := s.parseRegistryPage(r, heights, routeListSubnets)
	return listSubnetsRequest{Page: page}, err
}

func (s *server) serveListSubnets(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListSubnetsRequest(r, heights)
	if err != nil {
		return err
	}
	subnets, next, err := listRegistry(r.Context(), s, req.Page, "subnets", s.reader.Subnets, subnetPos)
	if err != nil {
		return err
	}
	resp := listSubnetsResponse{NextPageToken: next, Subnets: make([]subnetReply, len(subnets))}
	shapes := s.registryShaper()
	for i := range subnets {
		resp.Subnets[i] = shapes.subnet(&subnets[i])
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
