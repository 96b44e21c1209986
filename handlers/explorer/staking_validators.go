package explorer

import (
	"net/http"
	"net/url"
)

// validatorsData is what the validators page shows.
type validatorsData struct {
	// Filters are the form's values, by the API's parameter names.
	Filters map[string]string
	// Validators is listValidators' reply for the filters and page.
	Validators object
	// Network is getNetworkDetails' reply (nil when the node could not
	// tell), NetworkError why not.
	Network      object
	NetworkError string
	// Statuses, SortKeys and Orders are the choices of the form's selects.
	Statuses, SortKeys, Orders []string
}

// validatorFilterParams are listValidators' filter and sort parameters:
// the validators page's form fields carry these names, so the page's URL
// query is the API's, and the API validates it (a bad value is its 400).
func validatorFilterParams() []string {
	return []string{
		"nodeIds", "subnetId", "validationStatus",
		"minDelegationCapacity", "maxDelegationCapacity",
		"minTimeRemaining", "maxTimeRemaining",
		"minFeePercentage", "maxFeePercentage",
		"minUptimePerformance", "maxUptimePerformance",
		"sortBy", "sortOrder", "pageSize",
	}
}

// serveValidators draws the validators list (listValidators with the
// filters of the page's query) under the network's totals
// (getNetworkDetails).
func (s *server) serveValidators(r *http.Request, req *request) (view, error) {
	q := pageQuery(req, listPageSize)
	filters := map[string]string{}
	for _, name := range validatorFilterParams() {
		if v := req.Query.Get(name); v != "" {
			q.Set(name, v)
			filters[name] = v
		}
	}
	replies := s.getAll(r.Context(),
		call(q, "v1", "networks", req.Network, "validators"),
		call(nil, "v1", "networks", req.Network))
	if replies[0].Err != nil {
		return view{}, replies[0].Err
	}
	data := validatorsData{
		Filters:    filters,
		Validators: replies[0].Body,
		Network:    replies[1].Body,
		Statuses:   []string{"active", "pending", "completed", "removed"},
		SortKeys:   []string{"blockIndex", "timeRemaining", "delegationFee", "delegationCapacity", "uptimePerformance"},
		Orders:     []string{"desc", "asc"},
	}
	if err := replies[1].Err; err != nil {
		data.Network, data.NetworkError = nil, errorMessage(err, http.StatusInternalServerError)
	}
	return view{Template: "staking_validators", Title: "Validators", Data: data}, nil
}

// nodeQuery is the query that selects one node's stakers in the staking
// listings (listDelegators, the reward listings).
func nodeQuery(req *request, pageSize int, nodeID string) url.Values {
	q := pageQuery(req, pageSize)
	q.Set("nodeIds", nodeID)
	return q
}
