package primary

import (
	"fmt"
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
	q, err := registryQuery(req.Page)
	if err != nil {
		return err
	}
	subnets, err := s.reader.Subnets(r.Context(), q)
	if err != nil {
		return fmt.Errorf("listing subnets: %w", err)
	}
	resp := listSubnetsResponse{}
	if subnets, resp.NextPageToken, err = nextRegistryToken(s, req.Page, subnets, subnetPos); err != nil {
		return err
	}
	shapes := s.registryShaper()
	resp.Subnets = make([]subnetReply, len(subnets))
	for i := range subnets {
		resp.Subnets[i] = shapes.subnet(&subnets[i])
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
