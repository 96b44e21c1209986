package explorer

import (
	"net/http"
)

// primaryLatestData is what a chain page shows: one tab of the chain's
// latest blocks (P, X) or transactions (P, X and C's atomic ones).
type primaryLatestData struct {
	primaryPage
	// Tab is "blocks" or "transactions"; HasBlocks says whether the chain
	// has a blocks tab (the C-chain's blocks are the EVM pages').
	Tab       string
	HasBlocks bool
	// Blocks is listLatestPrimaryNetworkBlocks' reply, Txs
	// listLatestPrimaryNetworkTransactions': the one of the tab.
	Blocks, Txs object
}

// servePrimaryLatest draws /{p-chain|x-chain|c-chain}: the latest blocks or
// transactions, newest first, paged.
func (s *server) servePrimaryLatest(r *http.Request, req *request) (view, error) {
	p, err := s.primaryPageOfPath(r)
	if err != nil {
		return view{}, err
	}
	d := primaryLatestData{primaryPage: p, HasBlocks: p.Chain.HasBlocks()}
	if d.HasBlocks {
		d.Tab, err = pageTab(req, "blocks", "blocks", "transactions")
	} else {
		d.Tab, err = pageTab(req, "transactions", "transactions")
	}
	if err != nil {
		return view{}, err
	}
	if d.Tab == "blocks" {
		d.Blocks, err = s.get(r.Context(), primaryCall(req, p, primaryListQuery(req), "blocks"))
	} else {
		d.Txs, err = s.get(r.Context(), primaryCall(req, p, primaryListQuery(req), "transactions"))
	}
	if err != nil {
		return view{}, err
	}
	return view{Template: "primary_latest", Title: p.Chain.Label, Data: d}, nil
}
