package evm

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc1155
// (listErc1155Transactions): the ERC-1155 transfers the address sent or
// received, newest first, one per TransferSingle and one per element of a
// TransferBatch, each an Erc1155Transfer (list_erc20_transactions.go).

func (s *server) serveListErc1155Transactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	return serveTypedHistory(s, w, r, heights, s.transferHistory(routeListErc1155Transactions, evmdata.Erc1155))
}
