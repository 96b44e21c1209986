package evm

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/transactions (listLatestTransactionsAllChains) and its deprecated
// path GET /v1/chains/allTransactions (listAllLatestTransactions): the
// transactions of every followed EVM chain, newest first by block
// timestamp across chains (all_chains_listing.go), optionally only the
// failed or the successful ones (status, as listLatestTransactions).
// network naming another network than the node's gets an empty list.

func (s *server) serveListLatestTransactionsAllChains(route string) api.Handler {
	return func(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
		statusText, status, err := parseStatusFilter(r)
		if err != nil {
			return err
		}
		req, err := s.parseAllChainsRequest(r, heights, route, statusText)
		if err != nil {
			return err
		}
		resp := listNativeTransactionsResponse{Transactions: []nativeTransaction{}}
		if !req.OtherNetwork {
			resp.Transactions, resp.NextPageToken, err = shapeAllChainsPage(r.Context(), s, heights, req, allChainsTxs(s, status),
				(*shaper).nativeTransaction)
			if err != nil {
				return err
			}
		}
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
}

// allChainsTxs reads and places transactions in a listing across chains: a
// tx's position is its block and index.
func allChainsTxs(s *server, status evmdata.TxStatusFilter) allChainsListing[evmdata.IndexedTx, evmdata.TxPos] {
	return allChainsListing[evmdata.IndexedTx, evmdata.TxPos]{
		read: func(ctx context.Context, chain netinfo.ChainInfo, after *evmdata.TxPos, pinned uint64, limit int) ([]evmdata.IndexedTx, error) {
			txs, err := s.reader.LatestEVMTxs(ctx, chain.Chain, evmdata.LatestTxQuery{Status: status, After: after, Pinned: pinned, Limit: limit})
			if err != nil {
				return nil, fmt.Errorf("listing the latest transactions of chain %d: %w", chain.EVMChainID, err)
			}
			return txs, nil
		},
		posOf:  txPosOf,
		timeOf: func(tx evmdata.IndexedTx) uint64 { return tx.Block.Timestamp },
		appendPos: func(b []byte, pinned uint64, p evmdata.TxPos) []byte {
			return binary.AppendUvarint(appendBelow(b, pinned, p.Block), uint64(p.Index))
		},
		readPos: func(b []byte, pinned uint64) (evmdata.TxPos, []byte, bool) {
			block, rest, ok := readBelow(b, pinned)
			if !ok {
				return evmdata.TxPos{}, nil, false
			}
			index, n := binary.Uvarint(rest)
			if n <= 0 || index > math.MaxUint32 {
				return evmdata.TxPos{}, nil, false
			}
			return evmdata.TxPos{Block: block, Index: uint32(index)}, rest[n:], true
		},
	}
}
