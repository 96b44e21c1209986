package primary

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks
// (listPrimaryNetworkBlocksByNodeId): the blocks a node proposed, newest first
// (the endpoint takes no sortOrder), optionally within a time range (inclusive
// at both ends, as in the tx listing). The token carries the height of the
// page's last block.

// listPrimaryNetworkBlocksByNodeIdRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks.
type listPrimaryNetworkBlocksByNodeIdRequest struct {
	Chain  netinfo.Chain
	NodeID ids.NodeID
	Time   api.TimestampRange
	Page   api.Page
}

func (s *server) parseListPrimaryNetworkBlocksByNodeIdRequest(r *http.Request, heights *api.Heights) (listPrimaryNetworkBlocksByNodeIdRequest, error) {
	var req listPrimaryNetworkBlocksByNodeIdRequest
	var err error
	if req.Chain, err = s.resolveChain(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	if req.NodeID, err = api.ParseNodeID(api.ParamNodeID, api.PathVar(r, api.ParamNodeID)); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListPrimaryNetworkBlocksByNodeId, false), req.Chain.String(), req.NodeID.String(),
		api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

func (s *server) serveListPrimaryNetworkBlocksByNodeId(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListPrimaryNetworkBlocksByNodeIdRequest(r, heights)
	if err != nil {
		return err
	}
	if err := s.refuseWithoutProposers(r.Context(), req.Chain, "the blocks a node proposed"); err != nil {
		return err
	}
	return s.serveBlockPage(w, r, req.Chain, req.Time, req.Page, func(ctx context.Context, q pdata.BlockQuery) ([]pdata.IndexedBlock, error) {
		q.NodeID = req.NodeID
		blocks, err := s.reader.BlocksByProposer(ctx, req.Chain, q)
		if err != nil {
			return nil, fmt.Errorf("listing %s blocks of %s: %w", req.Chain, req.NodeID, err)
		}
		return blocks, nil
	})
}

// serveBlockPage writes one page of a block listing, newest first, within
// the time range: list reads the blocks q selects (one more than the page,
// to know whether another follows). The token carries the height of the
// page's last block, so later pages go on below it whatever arrives above.
func (s *server) serveBlockPage(w http.ResponseWriter, r *http.Request, chain netinfo.Chain, tr api.TimestampRange, pg api.Page,
	list func(ctx context.Context, q pdata.BlockQuery) ([]pdata.IndexedBlock, error),
) error {
	ctx := r.Context()
	after, err := api.ResumeAfter(pg, decodeBlockHeight)
	if err != nil {
		return err
	}
	resp := listPrimaryBlocksResponse{Blocks: []primaryNetworkBlock{}, ChainInfo: newPrimaryChainInfo(r, chain)}
	q := pdata.BlockQuery{Desc: true, Limit: pg.Size + 1}
	if after != nil {
		q.After = *after
	}
	var empty bool
	if q.FromHeight, q.ToHeight, empty, err = s.blockHeightRange(ctx, chain, tr); err != nil {
		return err
	}
	if !empty {
		blocks, err := list(ctx, q)
		if err != nil {
			return err
		}
		blocks, more := api.TrimPage(blocks, pg.Size)
		if more {
			last := blocks[len(blocks)-1].Number
			s.PageReaches(pg, chain, last)
			if resp.NextPageToken, err = s.NextPageToken(pg, int64(last), encodeBlockHeight(last)); err != nil {
				return err
			}
		}
		shapes := &shaper{node: s.Network(), chain: chain}
		for i := range blocks {
			resp.Blocks = append(resp.Blocks, shapes.block(&blocks[i]))
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// blockHeightRange is heightRange for a block listing, which shows the
// genesis block (height 0) too: heightRange's bounds cannot tell it from
// "no block" (a range that starts after the genesis but before block 1
// starts at 0), so the genesis block's own time decides whether it is in.
func (s *server) blockHeightRange(ctx context.Context, chain netinfo.Chain, tr api.TimestampRange) (from, to uint64, empty bool, err error) {
	if from, to, empty, err = s.heightRange(ctx, chain, tr); err != nil || empty || from > 0 || (!tr.Start.Set && !tr.End.Set) {
		return from, to, empty, err
	}
	genesis, err := s.reader.Blocks(ctx, chain, pdata.BlockQuery{ToHeight: 1, Limit: 1})
	if err != nil {
		return 0, 0, false, fmt.Errorf("reading the %s genesis block: %w", chain, err)
	}
	if len(genesis) == 1 && ((tr.Start.Set && genesis[0].Time < tr.Start.Value) || (tr.End.Set && genesis[0].Time > tr.End.Value)) {
		from = 1
	}
	return from, to, to != 0 && from >= to, nil
}

// block shapes one block summary. Transactions are tx IDs in cb58 (C-chain
// atomic tx IDs are cb58 too); hashes follow the chain (blockHash).
func (v *shaper) block(b *pdata.IndexedBlock) primaryNetworkBlock {
	out := primaryNetworkBlock{
		BlockNumber:    api.FormatUint(b.Number),
		BlockHash:      v.blockHash(b.ID),
		ParentHash:     v.blockHash(b.ParentID),
		BlockTimestamp: b.Time,
		BlockType:      b.Type,
		TxCount:        len(b.TxIDs),
		Transactions:   make([]string, len(b.TxIDs)),
		BlockSizeBytes: b.Size,
	}
	for i, id := range b.TxIDs {
		out.Transactions[i] = id.String()
	}
	if b.CurrentSupply != nil {
		out.CurrentSupply = api.FormatUint(*b.CurrentSupply)
	}
	if f := b.L1Fees; f != nil {
		out.L1ValidatorsAccruedFees = ptr(f.AccruedFees)
		out.ActiveL1Validators = ptr(f.ActiveL1Validators)
	}
	if p := b.Proposer; p != nil {
		out.ProposerDetails = &proposerDetails{
			ProposerID:           v.blockHash(p.ID),
			ProposerParentID:     v.blockHash(p.ParentID),
			ProposerPChainHeight: ptr(p.PChainHeight),
			ProposerTimestamp:    ptr(p.Timestamp),
		}
		if p.NodeID != ids.EmptyNodeID {
			out.ProposerDetails.ProposerNodeID = p.NodeID.String()
		}
	}
	return out
}

// The position of the block listing (PageToken.Extra): the last height.
func encodeBlockHeight(h uint64) []byte { return binary.BigEndian.AppendUint64(nil, h) }

func decodeBlockHeight(b []byte) (uint64, bool) {
	if len(b) != 8 {
		return 0, false
	}
	return binary.BigEndian.Uint64(b), true
}
