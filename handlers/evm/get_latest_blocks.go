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

// GET /v1/chains/{chainId}/blocks (getLatestBlocks): the chain's indexed
// blocks, newest first, pinned (pinned_listing.go): the first page pins the
// chain's indexed height, so paging while blocks arrive pages down to block
// 1 (the genesis block is not indexed) with nothing repeated or lost.

func (s *server) serveGetLatestBlocks(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	chain, err := s.resolveEVMChain(r, heights)
	if err != nil {
		return err
	}
	listing, err := s.parseChainListing(r, heights, chain, api.DataPaging(routeGetLatestBlocks, false))
	if err != nil {
		return err
	}
	blocks, next, err := readPinnedPage(r.Context(), s, listing, blockListingPositions(),
		func(ctx context.Context, q pinnedQuery[uint64]) ([]evmdata.BlockSummary, error) {
			blocks, err := s.reader.EVMBlocks(ctx, chain.Chain, evmdata.BlockQuery{After: q.After, Pinned: q.Pinned, Limit: q.Limit})
			if err != nil {
				return nil, fmt.Errorf("listing blocks: %w", err)
			}
			return blocks, nil
		})
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), chain, defaultCurrency)
	resp := listEvmBlocksResponse{Blocks: make([]evmBlock, len(blocks)), NextPageToken: next}
	for i := range blocks {
		resp.Blocks[i] = shapes.evmBlock(&blocks[i])
	}
	return shapes.write(w, resp)
}

// parseChainListing reads the paging of a listing of a whole chain (no
// address, no block range); filters are the listing's other normalized
// filter values, bound into its page tokens with the chain.
func (s *server) parseChainListing(r *http.Request, heights *api.Heights, chain netinfo.ChainInfo, paging api.Paging,
	filters ...string,
) (evmBlockListing, error) {
	stream := s.EVMChainStream(chain)
	page, err := s.ParsePage(r.Context(), heights, r.URL.Query(), paging, append([]string{stream}, filters...)...)
	return evmBlockListing{evmTarget: evmTarget{Chain: chain, Stream: stream}, Page: page}, err
}

// resolveEVMChain resolves {chainId}; the request reads that chain's index.
func (s *server) resolveEVMChain(r *http.Request, heights *api.Heights) (netinfo.ChainInfo, error) {
	chain, err := api.ResolveEVMChain(api.PathVar(r, api.ParamChainID), s.Network())
	if err != nil {
		return netinfo.ChainInfo{}, err
	}
	s.ReadsStream(heights, s.EVMChainStream(chain))
	if _, err := s.history(r.Context(), chain, heights); err != nil {
		return netinfo.ChainInfo{}, err
	}
	return chain, nil
}

// blockListingPositions places a chain's blocks by number.
func blockListingPositions() listingPositions[evmdata.BlockSummary, uint64] {
	return listingPositions[evmdata.BlockSummary, uint64]{
		decode: decodeBlockNumber,
		encode: func(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) },
		posOf:  func(b evmdata.BlockSummary) uint64 { return b.Number },
	}
}

func decodeBlockNumber(b []byte) (uint64, bool) {
	if len(b) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(b), true
}
