package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/tokens/{address}/transfers (listTransfers): the
// transfers of one token contract, newest first, each shaped by the token's
// standard (ERC-20, ERC-721 or ERC-1155 transfer); pinned (pinned_listing.go).
//
// An address the index never saw move tokens (an unknown address, a wallet,
// a contract that is not a token) gets 200 with an empty list, like any
// listing whose filter matches nothing: the index cannot tell "no transfers
// yet" from "not a token", and the hosted API answers the same way.

// listTransfersResponse is the OpenAPI's ListTransfersResponse; each item is
// an erc20Transfer, erc721Transfer or erc1155Transfer.
type listTransfersResponse struct {
	Transfers     []any  `json:"transfers"`
	NextPageToken string `json:"nextPageToken,omitempty"`
}

func (s *server) serveListTransfers(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseEVMBlockListing(r, heights, api.DataPaging(routeListTransfers, false))
	if err != nil {
		return err
	}
	transfers, next, err := readPinnedPage(r.Context(), s, req, transferListingPositions(),
		func(ctx context.Context, q pinnedQuery[evmdata.TransferPos]) ([]evmdata.IndexedTransfer, error) {
			transfers, err := s.reader.TokenTransfers(ctx, req.Chain.Chain, evmdata.TransferQuery{
				Token: req.Address, Blocks: q.Blocks, After: q.After, Pinned: q.Pinned, Limit: q.Limit,
			})
			if err != nil {
				return nil, fmt.Errorf("listing transfers of token %s: %w", req.Address, err)
			}
			return transfers, nil
		})
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp := listTransfersResponse{Transfers: make([]any, len(transfers)), NextPageToken: next}
	for i := range transfers {
		resp.Transfers[i] = shapes.tokenTransfer(&transfers[i])
	}
	return shapes.write(w, resp)
}
