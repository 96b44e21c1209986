package evm

import (
	"context"
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
		if !req.OtherNetwork {
			resp.Blocks, resp.NextPageToken, err = shapeAllChainsPage(r.Context(), s, heights, req, allChainsBlocks(s), (*shaper).evmBlock)
			if err != nil {
				return err
			}
		}
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
}

// allChainsBlocks reads and places blocks in a listing across chains: a
// block's position is its number.
func allChainsBlocks(s *server) allChainsListing[evmdata.BlockSummary, uint64] {
	return allChainsListing[evmdata.BlockSummary, uint64]{
		read: func(ctx context.Context, chain netinfo.ChainInfo, after *uint64, pinned uint64, limit int) ([]evmdata.BlockSummary, error) {
			blocks, err := s.reader.EVMBlocks(ctx, chain.Chain, evmdata.BlockQuery{After: after, Pinned: pinned, Limit: limit})
			if err != nil {
				return nil, fmt.Errorf("listing the blocks of chain %d: %w", chain.EVMChainID, err)
			}
			return blocks, nil
		},
		posOf:     func(b evmdata.BlockSummary) uint64 { return b.Number },
		timeOf:    func(b evmdata.BlockSummary) uint64 { return b.Timestamp },
		appendPos: appendBelow,
		readPos:   readBelow,
	}
}
