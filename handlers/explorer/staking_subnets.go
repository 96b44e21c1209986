package explorer

import (
	"net/http"
)

// serveSubnets draws the subnets list (listSubnets): each subnet's owner,
// whether it is an L1, and its blockchains.
func (s *server) serveSubnets(r *http.Request, req *request) (view, error) {
	subnets, err := s.get(r.Context(), call(pageQuery(req, listPageSize), "v1", "networks", req.Network, "subnets"))
	if err != nil {
		return view{}, err
	}
	return view{Template: "staking_subnets", Title: "Subnets", Data: subnets}, nil
}
