package primary

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/blocks
// (listLatestPrimaryNetworkBlocks): the P- or X-chain's blocks, newest first
// (the endpoint takes no sortOrder), optionally within a time range
// (inclusive at both ends), each shaped as the blocks-by-node listing shapes
// it. The token carries the height of the page's last block.

// listLatestPrimaryNetworkBlocksRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/blocks.
type listLatestPrimaryNetworkBlocksRequest struct {
	Chain netinfo.Chain
	Time  api.TimestampRange
	Page  api.Page
}

func (s *server) parseListLatestPrimaryNetworkBlocksRequest(r *http.Request, heights *api.Heights) (listLatestPrimaryNetworkBlocksRequest, error) {
	var req listLatestPrimaryNetworkBlocksRequest
	var err error
	if req.Chain, err = s.resolveBlocksChain(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListLatestPrimaryNetworkBlocks, false), req.Chain.String(),
		api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

func (s *server) serveListLatestPrimaryNetworkBlocks(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListLatestPrimaryNetworkBlocksRequest(r, heights)
	if err != nil {
		return err
	}
	return s.serveBlockPage(w, r, req.Chain, req.Time, req.Page, func(ctx context.Context, q pdata.BlockQuery) ([]pdata.IndexedBlock, error) {
		blocks, err := s.reader.Blocks(ctx, req.Chain, q)
		if err != nil {
			return nil, fmt.Errorf("listing %s blocks: %w", req.Chain, err)
		}
		return blocks, nil
	})
}

// resolveBlocksChain resolves the {blockchainId} of the block operations
// (the latest blocks, a block by ID). The hosted API takes the C-chain's
// IDs there too, but the index keeps the C-chain's blocks as EVM blocks,
// which the EVM block operations serve: the C-chain is a 400 that names
// them.
func (s *server) resolveBlocksChain(r *http.Request, heights *api.Heights) (netinfo.Chain, error) {
	chain, err := s.resolveChain(r, heights, allPrimaryChains())
	if err != nil {
		return 0, err
	}
	if chain == netinfo.C {
		evmID := "{chainId}"
		if id := s.Network().CChainEVMID(); id != 0 {
			evmID = api.FormatUint(id)
		}
		return 0, api.BadRequest("blockchainId '%s' is the C-chain, whose blocks are EVM blocks: list them with "+
			"GET /v1/chains/%s/blocks and get one with GET /v1/chains/%s/blocks/{blockId}; "+
			"this endpoint serves 'p-chain' and 'x-chain'",
			api.Truncate(api.PathVar(r, "blockchainId")), evmID, evmID)
	}
	return chain, nil
}
