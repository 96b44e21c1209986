package evm

import (
	"context"
	"encoding/binary"
	"fmt"
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
		if req.OtherNetwork {
			api.WriteJSON(w, http.StatusOK, resp)
			return nil
		}
		items, next, err := readAllChainsPage(r.Context(), s, heights, req, allChainsTxs(s, status))
		if err != nil {
			return err
		}
		resp.NextPageToken = next
		shapes := map[netinfo.Chain]*shaper{}
		for i := range items {
			shape := shaperOf(r.Context(), s, shapes, items[i].chain)
			resp.Transactions = append(resp.Transactions, shape.nativeTransaction(&items[i].item))
		}
		return writeShaped(w, shapes, resp)
	}
}

// allChainsTxs reads and places transactions in a listing across chains: a
// tx's position is its block (as its distance below the pin) and index.
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
			return binary.AppendUvarint(binary.AppendUvarint(b, pinned-p.Block), uint64(p.Index))
		},
		readPos: func(b []byte, pinned uint64) (evmdata.TxPos, []byte, bool) {
			below, n := binary.Uvarint(b)
			if n <= 0 || below > pinned {
				return evmdata.TxPos{}, nil, false
			}
			index, m := binary.Uvarint(b[n:])
			if m <= 0 || index > 1<<32-1 {
				return evmdata.TxPos{}, nil, false
			}
			return evmdata.TxPos{Block: pinned - below, Index: uint32(index)}, b[n+m:], true
		},
	}
}
