package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/transactions (listTransactions): the
// transactions that involve an address, each with the token transfers and
// internal transactions in which the address is sender or receiver. Sorted
// by block and position, newest first by default; pinned (pinned_listing.go).

// listTransactionDetailsResponse is the OpenAPI's
// ListTransactionDetailsResponse.
type listTransactionDetailsResponse struct {
	Transactions  []transactionDetails `json:"transactions"`
	NextPageToken string               `json:"nextPageToken,omitempty"`
}

func (s *server) serveListTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseEVMBlockListing(r, heights, api.DataPaging(routeListTransactions, true))
	if err != nil {
		return err
	}
	txs, next, err := s.readAddressTxPage(r.Context(), req)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp := listTransactionDetailsResponse{Transactions: make([]transactionDetails, len(txs)), NextPageToken: next}
	for i := range txs {
		resp.Transactions[i] = transactionDetails{
			NativeTransaction: shapes.nativeTransaction(&txs[i]),
			txLists:           shapes.addressEntryLists(&txs[i]),
		}
	}
	return shapes.write(w, resp)
}

// readAddressTxPage reads a page of the transactions that involve the
// address of req (listTransactions, listTransactionsV2), in the page's
// order, and the next page's token.
func (s *server) readAddressTxPage(ctx context.Context, req evmBlockListing) ([]evmdata.IndexedTx, string, error) {
	return readPinnedPage(ctx, s, req, txListingPositions(),
		func(ctx context.Context, q pinnedQuery[evmdata.TxPos]) ([]evmdata.IndexedTx, error) {
			txs, err := s.reader.AddressTxs(ctx, req.Chain.Chain, evmdata.AddressTxQuery{
				Address: req.Address, Blocks: q.Blocks, Desc: req.Page.Order == api.SortDesc,
				After: q.After, Pinned: q.Pinned, Limit: q.Limit,
			})
			if err != nil {
				return nil, fmt.Errorf("listing transactions of %s: %w", req.Address, err)
			}
			return txs, nil
		})
}
