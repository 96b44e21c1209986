package store

import (
	"context"

	"github.com/avadata/avadata/indexer/netinfo"
)

// HistoryFrom is the Store's (history.go), for the primary-network
// handlers: the C-chain's atomic memory depends on its first indexed block.
func (r *PrimaryReader) HistoryFrom(ctx context.Context, chain netinfo.Chain) (uint64, error) {
	return r.s.HistoryFrom(ctx, chain)
}
