package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative
// (listNativeTransactions): the top-level transactions the address sent,
// received, or created a contract by, newest first, each a
// NativeTransaction (typed_history.go).

func (s *server) serveListNativeTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	return serveTypedHistory(s, w, r, heights, typedHistory[evmdata.IndexedTx, evmdata.TxPos, nativeTransaction]{
		route:     routeListNativeTransactions,
		positions: txListingPositions(),
		read: func(ctx context.Context, target evmTarget, q pinnedQuery[evmdata.TxPos]) ([]evmdata.IndexedTx, error) {
			txs, err := s.reader.AddressNativeTxs(ctx, target.Chain.Chain, evmdata.AddressTxQuery{
				Address: target.Address, Blocks: q.Blocks, Desc: true, After: q.After, Pinned: q.Pinned, Limit: q.Limit,
			})
			if err != nil {
				return nil, fmt.Errorf("listing native transactions of %s: %w", target.Address, err)
			}
			return txs, nil
		},
		shape: (*shaper).nativeTransaction,
	})
}
