package handlertest

import (
	"context"

	"github.com/avadata/avadata/indexer/netinfo"
)

// HistoryFrom is the store's: the chain's first indexed block, 1 unless a
// test made the chain's history partial (SetHistoryFrom). It ignores Err
// and Block, so that tests of other reads fail where they did.
func (f *EVM) HistoryFrom(_ context.Context, chain netinfo.Chain) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if h := f.HistoryStarts[chain]; h > 1 {
		return h, nil
	}
	return 1, nil
}

// SetHistoryFrom makes chain's index start at block first, as on a node
// that state-synced it.
func (f *EVM) SetHistoryFrom(chain netinfo.Chain, first uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.HistoryStarts == nil {
		f.HistoryStarts = map[netinfo.Chain]uint64{}
	}
	f.HistoryStarts[chain] = first
}

// HistoryFrom is the metrics reader's: the EVM fake's (1 when there is
// none).
func (f *Fakes) HistoryFrom(ctx context.Context, chain netinfo.Chain) (uint64, error) {
	if f.EVM == nil {
		return 1, nil
	}
	return f.EVM.HistoryFrom(ctx, chain)
}
