package evm

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/chains/{chainId}/blocks/{blockId} (getBlock): one indexed block,
// by number (decimal) or hash (0x + 64 hex digits, any case). A block the
// index does not hold is a 404: one above the indexed height, an unknown
// hash, and the genesis block (block 0 is not indexed: it holds no
// transactions).

const paramBlockID = "blockId"

// blockID is a parsed {blockId}: a hash, or a number when Hash is nil.
type blockID struct {
	Number uint64
	Hash   *common.Hash
}

// parseBlockID reads {blockId}: decimal digits, or a 0x-prefixed hash.
func parseBlockID(raw string) (blockID, error) {
	if raw != "" && strings.Trim(raw, "0123456789") == "" {
		n, err := strconv.ParseUint(raw, 10, 64)
		if err != nil {
			return blockID{}, api.BadRequest("invalid %s '%s': the block number is too large", paramBlockID, api.Truncate(raw))
		}
		return blockID{Number: n}, nil
	}
	if strings.HasPrefix(raw, "0x") || strings.HasPrefix(raw, "0X") {
		h, err := parseTxHash(paramBlockID, raw)
		if err != nil {
			return blockID{}, api.BadRequest("invalid %s '%s': a block hash is 0x followed by 64 hex digits", paramBlockID, api.Truncate(raw))
		}
		return blockID{Hash: &h}, nil
	}
	return blockID{}, api.BadRequest("invalid %s '%s': must be a block number (decimal digits) or a block hash (0x followed by 64 hex digits)",
		paramBlockID, api.Truncate(raw))
}

// String is the block id in a canonical form (decimal number, lower-case
// hash), for page tokens and messages.
func (id blockID) String() string {
	if id.Hash != nil {
		return strings.ToLower(id.Hash.Hex())
	}
	return api.FormatUint(id.Number)
}

// blockRequest is the path of the block endpoints.
type blockRequest struct {
	Chain netinfo.ChainInfo
	Block blockID
}

func (s *server) parseBlockRequest(r *http.Request, heights *api.Heights) (blockRequest, error) {
	var req blockRequest
	var err error
	if req.Chain, err = s.resolveEVMChain(r, heights); err != nil {
		return req, err
	}
	req.Block, err = parseBlockID(api.PathVar(r, paramBlockID))
	return req, err
}

// readBlock reads the block req names; 404 when the index does not hold it.
func (s *server) readBlock(ctx context.Context, req blockRequest, heights *api.Heights) (evmdata.BlockSummary, error) {
	var block evmdata.BlockSummary
	var found bool
	var err error
	if req.Block.Hash != nil {
		block, found, err = s.reader.EVMBlockByHash(ctx, req.Chain.Chain, *req.Block.Hash)
	} else {
		block, found, err = s.reader.EVMBlock(ctx, req.Chain.Chain, req.Block.Number)
	}
	if err != nil {
		return evmdata.BlockSummary{}, fmt.Errorf("reading block %s: %w", req.Block, err)
	}
	if found {
		return block, nil
	}
	history, err := s.history(ctx, req.Chain, heights)
	if err != nil {
		return evmdata.BlockSummary{}, err
	}
	if history.Partial() {
		if req.Block.Hash != nil {
			return block, history.Before(fmt.Sprintf("no block with hash %s is in the index", req.Block))
		}
		if req.Block.Number < history.From {
			return block, history.BlockBefore(req.Block.Number)
		}
	}
	where := fmt.Sprintf("chain %d ('%s')", req.Chain.EVMChainID, api.ChainLabel(req.Chain))
	if req.Block.Hash != nil {
		return block, api.NotFound("no block with hash %s in the index of %s", req.Block, where)
	}
	indexed, _ := heights.Height(s.EVMChainStream(req.Chain))
	if req.Block.Number == 0 {
		return block, api.NotFound("block 0 of %s is the genesis block, which the index does not hold (it holds blocks 1 to %d)",
			where, indexed)
	}
	return block, api.NotFound("block %d of %s is not indexed yet: the index holds blocks %d to %d", req.Block.Number, where,
		history.From, indexed)
}

func (s *server) serveGetBlock(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseBlockRequest(r, heights)
	if err != nil {
		return err
	}
	block, err := s.readBlock(r.Context(), req, heights)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	return shapes.write(w, shapes.evmBlock(&block))
}
