package explorer

import (
	"net/http"
	"net/url"

	"github.com/avadata/avadata/handlers/api"
)

// l1ValidatorData is what an L1 validation's page shows.
type l1ValidatorData struct {
	// Validator is the validation as listL1Validators shows it.
	Validator object
	// BlockHeight is the P-chain height the listing read its state at.
	BlockHeight any
	// Creation is the validation's first P-chain tx (its
	// ConvertSubnetToL1Tx or RegisterL1ValidatorTx), nil if the index has
	// none; Txs a page of its txs, newest first
	// (listLatestPrimaryNetworkTransactions?l1ValidationId=).
	Creation object
	Txs      object
}

// serveL1Validator draws one L1 validation: its node, weight, balance and
// owners (listL1Validators?l1ValidationId=, inactive ones included) and
// the P-chain txs about it.
func (s *server) serveL1Validator(r *http.Request, req *request) (view, error) {
	id := api.PathVar(r, "validationId")
	txs := pageQuery(req, listPageSize)
	txs.Set("l1ValidationId", id)
	first := url.Values{"l1ValidationId": {id}, "sortOrder": {"asc"}, "pageSize": {"1"}}
	replies := s.getAll(r.Context(),
		call(url.Values{"l1ValidationId": {id}, "includeInactiveL1Validators": {"true"}}, "v1", "networks", req.Network, "l1Validators"),
		call(txs, "v1", "networks", req.Network, "blockchains", "p-chain", "transactions"),
		call(first, "v1", "networks", req.Network, "blockchains", "p-chain", "transactions"))
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	vals, _ := replies[0].Body["validators"].([]any)
	if len(vals) == 0 {
		return view{}, api.NotFound("L1 validation %s not found on network '%s' (or this node has not indexed it yet)",
			api.Truncate(id), req.NetworkName)
	}
	data := l1ValidatorData{BlockHeight: replies[0].Body["blockHeight"], Txs: replies[1].Body}
	data.Validator, _ = vals[0].(object)
	if created, _ := replies[2].Body["transactions"].([]any); len(created) > 0 {
		data.Creation, _ = created[0].(object)
	}
	return view{Template: "staking_l1_validator", Title: "L1 validator " + id, Data: data}, nil
}
