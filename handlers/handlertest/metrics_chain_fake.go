package handlertest

import (
	"context"
	"slices"
	"sync"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// ChainMetrics is the store's EVM metric rows: each chain's stored buckets
// per granularity, and the reads asked of them.
type ChainMetrics struct {
	mu      sync.Mutex
	buckets map[netinfo.Chain]map[metricdata.Granularity][]metricdata.ChainBucket
	calls   []ChainBucketsCall
	// lastHour is each address's last hour bucket with each role, totals
	// the running totals: what AddMetricBlock keeps (metrics_blocks_fake.go).
	lastHour map[netinfo.Chain]map[metricdata.Role]map[string]int64
	totals   map[netinfo.Chain]*metricTotals
	// Err fails every read when set.
	Err error
}

// ChainBucketsCall is one ChainBuckets read.
type ChainBucketsCall struct {
	Chain       netinfo.Chain
	Granularity metricdata.Granularity
	From, To    int64
	Limit       int
}

// chainMetrics is the fakes' metric rows, made on first use.
func (f *Fakes) chainMetrics() *ChainMetrics {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.ChainMetrics == nil {
		f.ChainMetrics = &ChainMetrics{}
	}
	return f.ChainMetrics
}

// SetChainBuckets stores chain's buckets (any order; each carries its
// granularity), replacing those of the granularities they have.
func (f *Fakes) SetChainBuckets(chain netinfo.Chain, buckets []metricdata.ChainBucket) {
	cm := f.chainMetrics()
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.buckets == nil {
		cm.buckets = map[netinfo.Chain]map[metricdata.Granularity][]metricdata.ChainBucket{}
	}
	if cm.buckets[chain] == nil {
		cm.buckets[chain] = map[metricdata.Granularity][]metricdata.ChainBucket{}
	}
	byG := map[metricdata.Granularity][]metricdata.ChainBucket{}
	for _, b := range buckets {
		byG[b.Granularity] = append(byG[b.Granularity], b)
	}
	for g, bs := range byG {
		slices.SortFunc(bs, func(a, b metricdata.ChainBucket) int { return int(b.Start - a.Start) }) // newest first
		cm.buckets[chain][g] = bs
	}
}

// ChainBucketCalls returns the ChainBuckets reads so far and forgets them.
func (f *Fakes) ChainBucketCalls() []ChainBucketsCall {
	cm := f.chainMetrics()
	cm.mu.Lock()
	defer cm.mu.Unlock()
	calls := cm.calls
	cm.calls = nil
	return calls
}

// ChainBuckets is the store's: chain's stored buckets of granularity g
// starting in [from, to], newest first, at most limit.
func (f *Fakes) ChainBuckets(ctx context.Context, chain netinfo.Chain, g metricdata.Granularity, from, to int64, limit int) ([]metricdata.ChainBucket, error) {
	cm := f.chainMetrics()
	cm.mu.Lock()
	defer cm.mu.Unlock()
	cm.calls = append(cm.calls, ChainBucketsCall{Chain: chain, Granularity: g, From: from, To: to, Limit: limit})
	if cm.Err != nil {
		return nil, cm.Err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []metricdata.ChainBucket
	for _, b := range cm.buckets[chain][g] {
		if len(out) == limit {
			break
		}
		if b.Start >= from && b.Start <= to {
			out = append(out, b)
		}
	}
	return out, nil
}

// RunningStateFrom is the metrics reader's: the EVM fake's (1, true when
// there is none).
func (f *Fakes) RunningStateFrom(ctx context.Context, chain netinfo.Chain) (uint64, bool, error) {
	if f.EVM == nil {
		return 1, true, nil
	}
	return f.EVM.RunningStateFrom(ctx, chain)
}
