package primary

import (
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/networks/{network}/subnets/{subnetId} (getSubnetById): one
// subnet (the primary network too) with its owner, L1 state and
// blockchains (subnets.go).

// getSubnetByIDRequest is the validated input of getSubnetById.
type getSubnetByIDRequest struct {
	SubnetID ids.ID
}

func (s *server) parseGetSubnetByIDRequest(r *http.Request, heights *api.Heights) (getSubnetByIDRequest, error) {
	var req getSubnetByIDRequest
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P)
	var err error
	req.SubnetID, err = api.ParseCB58ID(paramSubnetID, api.PathVar(r, paramSubnetID))
	return req, err
}

func (s *server) serveGetSubnetByID(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetSubnetByIDRequest(r, heights)
	if err != nil {
		return err
	}
	subnet, found, err := s.reader.Subnet(r.Context(), req.SubnetID)
	if err != nil {
		return fmt.Errorf("reading subnet %s: %w", req.SubnetID, err)
	}
	if !found {
		return api.NotFound("subnet %s not found on network '%s' (or this node has not indexed its CreateSubnetTx yet)",
			req.SubnetID, s.Network().Name())
	}
	api.WriteJSON(w, http.StatusOK, s.registryShaper().subnet(&subnet))
	return nil
}
