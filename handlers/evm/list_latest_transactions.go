package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/transactions (listLatestTransactions): the
// chain's transactions, newest first (block, then index in the block),
// optionally only the failed or the successful ones (status, by receipt
// status); pinned (pinned_listing.go). The failed ones are read from the
// index's status rows; a page of the successful ones steps over the keys of
// the failures among them without reading them (the index keeps no row per
// successful tx: it cost the writer an entry per tx).

const paramStatus = "status"

// txStatuses are the OpenAPI's TransactionStatus values.
func txStatuses() []string { return []string{"failed", "success"} }

// parseStatusFilter reads status (case-insensitive): "" when absent.
func parseStatusFilter(r *http.Request) (string, evmdata.TxStatusFilter, error) {
	status, err := api.ParseEnum(r.URL.Query(), paramStatus, txStatuses())
	switch status {
	case "failed":
		return status, evmdata.FailedOnly, err
	case "success":
		return status, evmdata.SucceededOnly, err
	default:
		return status, evmdata.AnyStatus, err
	}
}

func (s *server) serveListLatestTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	chain, err := s.resolveEVMChain(r, heights)
	if err != nil {
		return err
	}
	statusText, status, err := parseStatusFilter(r)
	if err != nil {
		return err
	}
	listing, err := s.parseChainListing(r, heights, chain, api.DataPaging(routeListLatestTransactions, false), statusText)
	if err != nil {
		return err
	}
	txs, next, err := readPinnedPage(r.Context(), s, listing, txListingPositions(),
		func(ctx context.Context, q pinnedQuery[evmdata.TxPos]) ([]evmdata.IndexedTx, error) {
			txs, err := s.reader.LatestEVMTxs(ctx, chain.Chain, evmdata.LatestTxQuery{
				Status: status, After: q.After, Pinned: q.Pinned, Limit: q.Limit,
			})
			if err != nil {
				return nil, fmt.Errorf("listing the latest transactions: %w", err)
			}
			return txs, nil
		})
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), chain, defaultCurrency)
	return shapes.write(w, listNativeTransactionsResponse{Transactions: shapes.nativeTransactions(txs), NextPageToken: next})
}
