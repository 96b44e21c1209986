package handlertest

import (
	"context"

	"github.com/avadata/avadata/indexer/netinfo"
)

// HistoryFrom is the store's: P and X from genesis, the C-chain from
// CHistoryFrom when a test set it.
func (f *Primary) HistoryFrom(_ context.Context, chain netinfo.Chain) (uint64, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if chain == netinfo.C && f.CHistoryFrom > 1 {
		return f.CHistoryFrom, nil
	}
	return 1, nil
}
