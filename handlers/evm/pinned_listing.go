package evm

import (
	"context"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// The EVM listings bounded by blocks (an address's transactions, a token's
// transfers) page alike: the first page reads the chain's indexed height
// and pins it; the token carries the pinned height (PageToken.Position) and
// the last item's position (PageToken.Extra), so later pages show no block
// that arrived after the first page and never repeat or skip an item.

// evmBlockListing is the validated input of a listing bounded by blocks.
type evmBlockListing struct {
	evmTarget
	Blocks api.BlockRange
	Page   api.Page
}

// parseEVMBlockListing reads {chainId}, {address}, startBlock/endBlock and
// the paging parameters; filters are the normalized values of the
// listing's other filters, bound into its page tokens.
func (s *server) parseEVMBlockListing(r *http.Request, heights *api.Heights, paging api.Paging, filters ...string) (evmBlockListing, error) {
	var req evmBlockListing
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Blocks, err = api.ParseBlockRange(q); err != nil {
		return req, err
	}
	// A range reaching below the chain's first indexed block would be
	// answered short: refused instead (history.go).
	history, err := s.history(r.Context(), req.Chain, heights)
	if err != nil {
		return req, err
	}
	if err = history.CheckBlockRange(req.Blocks); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, paging,
		append(append(req.filterValues(), api.FormatBound(req.Blocks.Start), api.FormatBound(req.Blocks.End)), filters...)...)
	return req, err
}

// pinnedQuery is the part of a reader query that readPinnedPage fills: the
// block range, the position, the pinned height and the limit.
type pinnedQuery[P any] struct {
	Blocks evmdata.BlockRange
	After  *P
	Pinned uint64
	Limit  int
}

// listingPositions is how a listing's items are positioned: decode and encode
// its position, and give an item's position.
type listingPositions[T, P any] struct {
	decode func([]byte) (P, bool)
	encode func(P) []byte
	posOf  func(T) P
}

// readPinnedPage reads one page of a listing: one item more than the page
// size tells whether another page exists. It returns the page and the next
// page's token ("" when none). A range that selects nothing (endBlock=0) is
// not read at all.
func readPinnedPage[T, P any](ctx context.Context, s *server, req evmBlockListing, positions listingPositions[T, P],
	read func(context.Context, pinnedQuery[P]) ([]T, error),
) ([]T, string, error) {
	after, err := api.ResumeAfter(req.Page, positions.decode)
	if err != nil {
		return nil, "", err
	}
	blocks, empty := evmBlocks(req.Blocks)
	if empty {
		return nil, "", nil
	}
	query := pinnedQuery[P]{Blocks: blocks, After: after, Pinned: s.PinnedHeight(req.Page, s.EVMChainStream(req.Chain)), Limit: req.Page.Size + 1}
	items, err := read(ctx, query)
	if err != nil {
		return nil, "", err
	}
	items, hasMore := api.TrimPage(items, req.Page.Size)
	if !hasMore {
		return items, "", nil
	}
	last := positions.posOf(items[len(items)-1])
	token, err := s.NextPageToken(req.Page, int64(query.Pinned), positions.encode(last))
	return items, token, err
}
