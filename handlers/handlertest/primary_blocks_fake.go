package handlertest

import (
	"context"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Blocks lists chain's blocks as the store does: by height in q's
// direction, within [FromHeight, ToHeight), past After, at most Limit;
// q.NodeID is not a filter.
func (f *Primary) Blocks(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery) ([]pdata.IndexedBlock, error) {
	return f.selectBlocks(ctx, chain, q, nil)
}

// selectBlocks lists chain's blocks that keep accepts (all when nil) as
// Blocks does.
func (f *Primary) selectBlocks(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery, keep func(*pdata.IndexedBlock) bool) ([]pdata.IndexedBlock, error) {
	f.Mu.Lock()
	f.BlockQueries = append(f.BlockQueries, q)
	blocks := slices.Clone(f.blocks[chain])
	err := f.Err
	f.Mu.Unlock()
	if err != nil {
		return nil, err
	}
	slices.SortFunc(blocks, func(a, b pdata.IndexedBlock) int { return cmpUint(a.Number, b.Number) })
	if q.Desc {
		slices.Reverse(blocks)
	}
	out := slices.DeleteFunc(blocks, func(b pdata.IndexedBlock) bool {
		outside := b.Number < q.FromHeight || (q.ToHeight != 0 && b.Number >= q.ToHeight)
		passed := q.After != 0 && ((q.Desc && b.Number >= q.After) || (!q.Desc && b.Number <= q.After))
		return outside || passed || (keep != nil && !keep(&b))
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, ctx.Err()
}

// BlockByID finds chain's block with that ID.
func (f *Primary) BlockByID(ctx context.Context, chain netinfo.Chain, id ids.ID) (pdata.IndexedBlock, bool, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return pdata.IndexedBlock{}, false, f.Err
	}
	for _, b := range f.blocks[chain] {
		if b.ID == id {
			return b, true, ctx.Err()
		}
	}
	return pdata.IndexedBlock{}, false, ctx.Err()
}

// VertexByID finds the vertex with that ID.
func (f *Vertices) VertexByID(_ context.Context, id ids.ID) (pdata.Vertex, bool, error) {
	for _, v := range f.Vs {
		if v.ID == id {
			return v, true, nil
		}
	}
	return pdata.Vertex{}, false, nil
}
