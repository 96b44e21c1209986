package evm

import (
	"context"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// An address's typed histories (listNativeTransactions, listErc20/721/1155
// Transactions, listInternalTransactions): one list per kind of activity,
// read from the address's activity rows of that kind, newest first (the
// operations take no sortOrder), within startBlock/endBlock, pinned
// (pinned_listing.go). Each serves through serveTypedHistory; its file
// names what it reads and how an item is shaped.

// typedHistoryResponse is the OpenAPI's ListNativeTransactionsResponse,
// ListErc20TransactionsResponse, ListErc721TransactionsResponse,
// ListErc1155TransactionsResponse and ListInternalTransactionsResponse.
type typedHistoryResponse[J any] struct {
	Transactions  []J    `json:"transactions"`
	NextPageToken string `json:"nextPageToken,omitempty"`
}

// typedHistory is one typed history: where its items are (positions), how
// a page of them is read (read, for the address of target), and how one is
// shaped.
type typedHistory[T, P, J any] struct {
	route     string
	positions listingPositions[T, P]
	read      func(ctx context.Context, target evmTarget, q pinnedQuery[P]) ([]T, error)
	shape     func(v *shaper, item *T) J
}

// serveTypedHistory serves a page of h: {chainId}, {address},
// startBlock/endBlock and the paging parameters, newest first.
func serveTypedHistory[T, P, J any](s *server, w http.ResponseWriter, r *http.Request, heights *api.Heights,
	h typedHistory[T, P, J],
) error {
	req, err := s.parseEVMBlockListing(r, heights, api.DataPaging(h.route, false))
	if err != nil {
		return err
	}
	items, next, err := readPinnedPage(r.Context(), s, req, h.positions,
		func(ctx context.Context, q pinnedQuery[P]) ([]T, error) { return h.read(ctx, req.evmTarget, q) })
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp := typedHistoryResponse[J]{Transactions: make([]J, len(items)), NextPageToken: next}
	for i := range items {
		resp.Transactions[i] = h.shape(shapes, &items[i])
	}
	return shapes.write(w, resp)
}
