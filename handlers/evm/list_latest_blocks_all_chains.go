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

// GET /v1/blocks (listLatestBlocksAllChains) and its deprecated path GET
// /v1/chains/allBlocks (listAllLatestBlocks): the blocks of every followed
// EVM chain, newest first by block timestamp across chains
// (all_chains_listing.go). network (mainnet, fuji, testnet, local or the
// node's network name) naming another network than the node's gets an
// empty list, as GET /v1/chains does.

func (s *server) serveListLatestBlocksAllChains(route string) api.Handler {
	return func(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
		req, err := s.parseAllChainsRequest(r, heights, route)
		if err != nil {
			return err
		}
		resp := listEvmBlocksResponse{Blocks: []evmBlock{}}
		if req.OtherNetwork {
			api.WriteJSON(w, http.StatusOK, resp)
			return nil
		}
		items, next, err := readAllChainsPage(r.Context(), s, heights, req, allChainsBlocks(s))
		if err != nil {
			return err
		}
		resp.NextPageToken = next
		shapes := map[netinfo.Chain]*shaper{}
		for i := range items {
			shape := shaperOf(r.Context(), s, shapes, items[i].chain)
			resp.Blocks = append(resp.Blocks, shape.evmBlock(&items[i].item))
		}
		return writeShaped(w, shapes, resp)
	}
}

// allChainsBlocks reads and places blocks in a listing across chains: a
// block's position is its number, kept as its distance below the pin.
func allChainsBlocks(s *server) allChainsListing[evmdata.BlockSummary, uint64] {
	return allChainsListing[evmdata.BlockSummary, uint64]{
		read: func(ctx context.Context, chain netinfo.ChainInfo, after *uint64, pinned uint64, limit int) ([]evmdata.BlockSummary, error) {
			blocks, err := s.reader.EVMBlocks(ctx, chain.Chain, evmdata.BlockQuery{After: after, Pinned: pinned, Limit: limit})
			if err != nil {
				return nil, fmt.Errorf("listing the blocks of chain %d: %w", chain.EVMChainID, err)
			}
			return blocks, nil
		},
		posOf:  func(b evmdata.BlockSummary) uint64 { return b.Number },
		timeOf: func(b evmdata.BlockSummary) uint64 { return b.Timestamp },
		appendPos: func(b []byte, pinned, number uint64) []byte {
			return binary.AppendUvarint(b, pinned-number)
		},
		readPos: func(b []byte, pinned uint64) (uint64, []byte, bool) {
			below, n := binary.Uvarint(b)
			if n <= 0 || below > pinned {
				return 0, nil, false
			}
			return pinned - below, b[n:], true
		},
	}
}

// shaperOf is the shaper of chain's items in a reply that shows several
// chains (made on first use).
func shaperOf(ctx context.Context, s *server, shapes map[netinfo.Chain]*shaper, chain netinfo.ChainInfo) *shaper {
	shape, ok := shapes[chain.Chain]
	if !ok {
		shape = s.newShaper(ctx, chain, defaultCurrency)
		shapes[chain.Chain] = shape
	}
	return shape
}

// writeShaped writes resp unless shaping it failed on any chain.
func writeShaped(w http.ResponseWriter, shapes map[netinfo.Chain]*shaper, resp any) error {
	for _, shape := range shapes {
		if shape.err != nil {
			return shape.err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
