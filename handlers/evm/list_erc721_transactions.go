package evm

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc721
// (listErc721Transactions): the ERC-721 transfers the address sent or
// received, newest first, each an Erc721Transfer (list_erc20_transactions.go).

func (s *server) serveListErc721Transactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	return serveTypedHistory(s, w, r, heights, s.transferHistory(routeListErc721Transactions, evmdata.Erc721))
}
