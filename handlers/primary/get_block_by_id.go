package primary

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}
// (getBlockById): one P- or X-chain block, by height or by its ID (the
// blockHash the listings show: the accepted, proposervm block's ID), shaped
// as the listings shape it.

const paramBlockID = "blockId"

// getBlockByIdRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}:
// the block's ID, or (ByHeight) its height.
type getBlockByIdRequest struct {
	Chain    netinfo.Chain
	ByHeight bool
	Height   uint64
	ID       ids.ID
}

func (s *server) parseGetBlockByIdRequest(r *http.Request, heights *api.Heights) (getBlockByIdRequest, error) {
	var req getBlockByIdRequest
	var err error
	if req.Chain, err = s.resolveBlocksChain(r, heights); err != nil {
		return req, err
	}
	raw := api.PathVar(r, paramBlockID)
	if h, err := strconv.ParseUint(raw, 10, 64); err == nil {
		req.ByHeight, req.Height = true, h
		return req, nil
	}
	if req.ID, err = api.ParseCB58ID(paramBlockID, raw); err != nil {
		return req, api.BadRequest("invalid %s '%s': must be a block height (decimal digits) or a cb58-encoded block ID, "+
			"e.g. 5615di9ytxujackzaXNrVuWQy5y8Yrt8chPCscMr5Ku9YxJ1S", paramBlockID, api.Truncate(raw))
	}
	return req, nil
}

func (s *server) serveGetBlockById(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetBlockByIdRequest(r, heights)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var b pdata.IndexedBlock
	found := false
	if req.ByHeight {
		var blocks []pdata.IndexedBlock
		blocks, err = s.reader.Blocks(ctx, req.Chain, pdata.BlockQuery{FromHeight: req.Height, ToHeight: req.Height + 1, Limit: 1})
		if found = len(blocks) == 1 && blocks[0].Number == req.Height; found {
			b = blocks[0]
		}
	} else {
		b, found, err = s.reader.BlockByID(ctx, req.Chain, req.ID)
	}
	if err != nil {
		return fmt.Errorf("reading %s block %s: %w", req.Chain, api.PathVar(r, paramBlockID), err)
	}
	if !found {
		what, hint := "ID "+req.ID.String(), ""
		if req.ByHeight {
			what = "height " + api.FormatUint(req.Height)
		} else {
			hint = s.notFoundHint(ctx, req.Chain, hintBlockID)
		}
		return api.NotFound("no %s block with %s is indexed%s", req.Chain.DataAPIAlias(), what, hint)
	}
	shapes := &shaper{node: s.Network(), chain: req.Chain}
	api.WriteJSON(w, http.StatusOK, shapes.block(&b))
	return nil
}
