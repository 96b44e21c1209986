package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// subnetData is what a subnet's page shows.
type subnetData struct {
	// Subnet is getSubnetById's reply.
	Subnet object
	// Tab is "validators" (listValidators of the subnet) or, for an L1,
	// "l1-validators" (listL1Validators of the subnet); List its reply.
	Tab  string
	List object
	// IncludeInactive says whether the L1 validators listed include those
	// disabled, run dry or removed (includeInactiveL1Validators).
	IncludeInactive bool
}

// includeInactiveParam is listL1Validators' toggle, which the subnet page
// takes under the same name.
const includeInactiveParam = "includeInactiveL1Validators"

// serveSubnet draws one subnet or L1 (getSubnetById) with its validators
// (listValidators?subnetId=) or, for an L1, its L1 validators with their
// balances (listL1Validators?subnetId=); an L1 opens on the latter.
func (s *server) serveSubnet(r *http.Request, req *request) (view, error) {
	subnetID := api.PathVar(r, "subnetId")
	ctx := r.Context()
	subnet, err := s.get(ctx, call(nil, "v1", "networks", req.Network, "subnets", subnetID))
	if err != nil {
		return view{}, err
	}
	isL1, _ := subnet["isL1"].(bool)
	data := subnetData{Subnet: subnet, IncludeInactive: req.Query.Get(includeInactiveParam) == "true"}
	fallback := "validators"
	if isL1 {
		fallback = "l1-validators"
	}
	if data.Tab, err = pageTab(req, fallback, "validators", "l1-validators"); err != nil {
		return view{}, err
	}
	q := pageQuery(req, listPageSize)
	q.Set("subnetId", subnetID)
	var list apiCall
	switch data.Tab {
	case "validators":
		list = call(q, "v1", "networks", req.Network, "validators")
	case "l1-validators":
		if raw := req.Query.Get(includeInactiveParam); raw != "" {
			q.Set(includeInactiveParam, raw) // the API validates it
		}
		list = call(q, "v1", "networks", req.Network, "l1Validators")
	}
	if data.List, err = s.get(ctx, list); err != nil {
		return view{}, err
	}
	return view{Template: "staking_subnet", Title: "Subnet " + subnetID, Data: data}, nil
}
