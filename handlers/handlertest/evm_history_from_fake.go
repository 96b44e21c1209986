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

// RunningStateFrom is the store's: the chain's history start, unless a
// test set a back-fill's state (SetRunningState).
func (f *EVM) RunningStateFrom(ctx context.Context, chain netinfo.Chain) (uint64, bool, error) {
	f.mu.Lock()
	rs, set := f.RunningStates[chain]
	f.mu.Unlock()
	if set {
		return rs.From, rs.OK, nil
	}
	from, err := f.HistoryFrom(ctx, chain)
	return from, true, err
}

// RunningState is what SetRunningState makes RunningStateFrom answer.
type RunningState struct {
	From uint64
	OK   bool
}

// SetRunningState makes chain's running state count from from (ok false:
// being re-derived), as during a back-fill.
func (f *EVM) SetRunningState(chain netinfo.Chain, from uint64, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.RunningStates == nil {
		f.RunningStates = map[netinfo.Chain]RunningState{}
	}
	f.RunningStates[chain] = RunningState{From: from, OK: ok}
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
