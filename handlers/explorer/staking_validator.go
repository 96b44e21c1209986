package explorer

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// validatorData is what a validator's page shows: its tab's listing.
type validatorData struct {
	NodeID string
	Tab    string
	// List is the tab's reply: getSingleValidatorDetails (validations),
	// listDelegators (delegators), listHistoricalPrimaryNetworkRewards
	// (rewards), listPendingPrimaryNetworkRewards (pending) or
	// listPrimaryNetworkBlocksByNodeId on the P-chain (blocks).
	List object
}

// validationsPageSize is the page size of a validator page's validations:
// fewer than listPageSize, because each is drawn whole, a block of about
// 2 KB rather than a table row.
const validationsPageSize = 10

// serveValidator draws one node's page: each tab is one API listing of
// that node, paged.
func (s *server) serveValidator(r *http.Request, req *request) (view, error) {
	nodeID := api.PathVar(r, "nodeId")
	tab, err := pageTab(req, "validations", "validations", "delegators", "rewards", "pending", "blocks")
	if err != nil {
		return view{}, err
	}
	var c apiCall
	switch tab {
	case "validations":
		c = call(pageQuery(req, validationsPageSize), "v1", "networks", req.Network, "validators", nodeID)
	case "delegators":
		c = call(nodeQuery(req, listPageSize, nodeID), "v1", "networks", req.Network, "delegators")
	case "rewards":
		c = call(nodeQuery(req, listPageSize, nodeID), "v1", "networks", req.Network, "rewards")
	case "pending":
		c = call(nodeQuery(req, listPageSize, nodeID), "v1", "networks", req.Network, "rewards:listPending")
	case "blocks":
		c = call(pageQuery(req, listPageSize), "v1", "networks", req.Network, "blockchains", "p-chain", "nodes", nodeID, "blocks")
	default:
		return view{}, fmt.Errorf("the validator page has no listing for its tab %q", tab) // pageTab let through a tab the switch lacks
	}
	list, err := s.get(r.Context(), c)
	if err != nil {
		return view{}, err
	}
	return view{Template: "staking_validator", Title: "Validator " + nodeID,
		Data: validatorData{NodeID: nodeID, Tab: tab, List: list}}, nil
}
