package evm

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals
// (listInternalTransactions): the internal transactions (the trace frames
// avadata keeps: value moves, creations, self-destructs) the address sent
// or received, newest first, each an InternalTransaction with its block
// and transaction (typed_history.go). Blocks that were not traced have
// none to list.

func (s *server) serveListInternalTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	return serveTypedHistory(s, w, r, heights, typedHistory[evmdata.IndexedInternalTx, evmdata.InternalPos, internalTransactionEntry]{
		route:     routeListInternalTransactions,
		positions: internalListingPositions(),
		read: func(ctx context.Context, target evmTarget, q pinnedQuery[evmdata.InternalPos]) ([]evmdata.IndexedInternalTx, error) {
			its, err := s.reader.AddressInternalTxs(ctx, target.Chain.Chain, evmdata.AddressInternalQuery{
				Address: target.Address, Blocks: q.Blocks, Desc: true, After: q.After, Pinned: q.Pinned, Limit: q.Limit,
			})
			if err != nil {
				return nil, fmt.Errorf("listing internal transactions of %s: %w", target.Address, err)
			}
			return its, nil
		},
		shape: (*shaper).internalTransactionEntry,
	})
}

// internalListingPositions places internal transactions: by block, tx
// index, then frame.
func internalListingPositions() listingPositions[evmdata.IndexedInternalTx, evmdata.InternalPos] {
	return listingPositions[evmdata.IndexedInternalTx, evmdata.InternalPos]{
		decode: decodeInternalPos, encode: encodeInternalPos,
		posOf: func(t evmdata.IndexedInternalTx) evmdata.InternalPos {
			return evmdata.InternalPos{Block: t.Block.Number, TxIndex: t.TxIndex, Frame: t.Index}
		},
	}
}

const internalPosLen = 8 + 4 + 4

func encodeInternalPos(p evmdata.InternalPos) []byte {
	b := binary.BigEndian.AppendUint64(nil, p.Block)
	b = binary.BigEndian.AppendUint32(b, p.TxIndex)
	return binary.BigEndian.AppendUint32(b, p.Frame)
}

func decodeInternalPos(b []byte) (evmdata.InternalPos, bool) {
	if len(b) != internalPosLen {
		return evmdata.InternalPos{}, false
	}
	return evmdata.InternalPos{
		Block: binary.BigEndian.Uint64(b), TxIndex: binary.BigEndian.Uint32(b[8:]), Frame: binary.BigEndian.Uint32(b[12:]),
	}, true
}
