package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc20
// (listErc20Transactions): the ERC-20 transfers the address sent or
// received, newest first, each an Erc20Transfer (typed_history.go).

func (s *server) serveListErc20Transactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	return serveTypedHistory(s, w, r, heights, s.transferHistory(routeListErc20Transactions, evmdata.Erc20))
}

// transferHistory is the typed history of an address's transfers of one
// token standard (ERC-20, ERC-721, ERC-1155: one entry per transfer, an
// ERC-1155 batch's elements apart), each shaped by that standard.
func (s *server) transferHistory(route string, kind evmdata.ErcType) typedHistory[evmdata.IndexedTransfer, evmdata.TransferPos, any] {
	return typedHistory[evmdata.IndexedTransfer, evmdata.TransferPos, any]{
		route:     route,
		positions: transferListingPositions(),
		read: func(ctx context.Context, target evmTarget, q pinnedQuery[evmdata.TransferPos]) ([]evmdata.IndexedTransfer, error) {
			transfers, err := s.reader.AddressTransfers(ctx, target.Chain.Chain, evmdata.AddressTransferQuery{
				Address: target.Address, Kind: kind, Blocks: q.Blocks, Desc: true, After: q.After, Pinned: q.Pinned, Limit: q.Limit,
			})
			if err != nil {
				return nil, fmt.Errorf("listing %s transfers of %s: %w", kind, target.Address, err)
			}
			return transfers, nil
		},
		shape: (*shaper).tokenTransfer,
	}
}
