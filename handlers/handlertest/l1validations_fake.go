package handlertest

import (
	"context"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/pdata"
)

// L1Validations answers as the store does: the validations of
// L1ValidationState (kept in validation ID order) that q selects, with the
// creation details only when q.WithTx.
func (f *Staking) L1Validations(ctx context.Context, q pdata.L1ValidationQuery) (pdata.L1Validations, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Err != nil {
		return pdata.L1Validations{}, f.Err
	}
	out := f.L1ValidationState
	out.Validations = nil
	all := slices.Clone(f.L1ValidationState.Validations)
	slices.SortFunc(all, func(a, b pdata.IndexedL1Validation) int { return a.ValidationID.Compare(b.ValidationID) })
	for _, v := range all {
		switch {
		case len(q.IDs) > 0 && !slices.Contains(q.IDs, v.ValidationID),
			q.Subnet != nil && v.Subnet != *q.Subnet,
			q.NodeID != nil && v.NodeID != *q.NodeID:
			continue
		}
		if !q.WithTx {
			v.Creation, v.CreationTime = nil, 0
		}
		out.Validations = append(out.Validations, v)
	}
	return out, ctx.Err()
}

// L1ValidationIDs lists the IDs of validations in order.
func L1ValidationIDs(validations []pdata.IndexedL1Validation) []ids.ID {
	out := make([]ids.ID, len(validations))
	for i := range validations {
		out[i] = validations[i].ValidationID
	}
	return out
}
