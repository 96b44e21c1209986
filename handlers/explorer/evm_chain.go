package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// evmChainData is what an EVM chain's page shows: its latest blocks
// (getLatestBlocks) or its latest transactions (listLatestTransactions),
// one page of the list its tab names.
type evmChainData struct {
	Chain object
	Tab   string
	// List is the reply of the tab's listing: blocks or transactions, and
	// nextPageToken.
	List object
}

func (s *server) serveEVMChain(r *http.Request, req *request) (view, error) {
	chainID := api.PathVar(r, evmVarChainID)
	tab, err := pageTab(req, "blocks", "blocks", "transactions")
	if err != nil {
		return view{}, err
	}
	list := evmChainCall(pageQuery(req, listPageSize), chainID, "blocks")
	if tab == "transactions" {
		list = evmChainCall(pageQuery(req, listPageSize), chainID, "transactions")
	}
	chain, replies, err := s.readEVM(r.Context(), chainID, list)
	if err != nil {
		return view{}, err
	}
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	return view{Template: "evm_chain", Title: str(chain["chainName"]),
		Data: evmChainData{Chain: chain, Tab: tab, List: replies[0].Body}}, nil
}
