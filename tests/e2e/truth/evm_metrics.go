package truth

import (
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/evmtest"
)

// The Metrics API's EVM chain metrics recomputed from what the node says
// (EVMChain: blocks, receipts, callTracer traces, token transfers decoded
// from the logs), independently of avadata's indexer and handlers: the
// bucket boundaries, the figures and their rules are written here again
// from the definitions (helper-brief20.md), not imported.

// MetricsGranularity is a bucket width of the Metrics API: hour, day, week
// (from Monday 00:00 UTC) or month, all in UTC.
type MetricsGranularity string

const (
	MetricsHour  MetricsGranularity = "hour"
	MetricsDay   MetricsGranularity = "day"
	MetricsWeek  MetricsGranularity = "week"
	MetricsMonth MetricsGranularity = "month"
)

// MetricsGranularities lists them, finest first.
func MetricsGranularities() []MetricsGranularity {
	return []MetricsGranularity{MetricsHour, MetricsDay, MetricsWeek, MetricsMonth}
}

// Start is the Unix second at which the bucket holding ts begins.
func (g MetricsGranularity) Start(ts int64) int64 {
	t := time.Unix(ts, 0).UTC()
	midnight := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	switch g {
	case MetricsHour:
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, time.UTC).Unix()
	case MetricsDay:
		return midnight.Unix()
	case MetricsWeek:
		for midnight.Weekday() != time.Monday {
			midnight = midnight.AddDate(0, 0, -1)
		}
		return midnight.Unix()
	case MetricsMonth:
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Unix()
	}
	panic("unknown granularity " + string(g))
}

// Next is the start of the bucket after the one starting at start.
func (g MetricsGranularity) Next(start int64) int64 {
	t := time.Unix(start, 0).UTC()
	switch g {
	case MetricsHour:
		return t.Add(time.Hour).Unix()
	case MetricsDay:
		return t.AddDate(0, 0, 1).Unix()
	case MetricsWeek:
		return t.AddDate(0, 0, 7).Unix()
	case MetricsMonth:
		return t.AddDate(0, 1, 0).Unix()
	}
	panic("unknown granularity " + string(g))
}

// ChainMetricNames are the SDK's ChainMetric values.
func ChainMetricNames() []string {
	return []string{
		"activeAddresses", "activeSenders", "cumulativeTxCount", "cumulativeAddresses", "cumulativeContracts",
		"cumulativeDeployers", "contracts", "deployers", "gasUsed", "txCount", "avgGps", "maxGps", "avgTps", "maxTps",
		"avgGasPrice", "maxGasPrice", "feesPaid",
	}
}

// RollingMetricNames are the SDK's ChainRollingWindowMetric values.
func RollingMetricNames() []string {
	return []string{
		"gasUsed", "txCount", "avgGps", "maxGps", "avgTps", "maxTps", "avgGasPrice", "maxGasPrice", "feesPaid",
		"contracts", "deployers", "activeAddresses", "activeSenders",
	}
}

// metricsBlock is one block's part of the metrics.
type metricsBlock struct {
	number, ts, txs, gasUsed, contracts uint64
	fees, gasPriceSum, maxGasPrice      *big.Int
	// The distinct addresses of each role in the block.
	active, senders, deployers map[common.Address]bool
}

// ChainMetrics is an EVM chain's activity, block by block, from block 1
// (the chain's first indexed block) to the height it was made at.
type ChainMetrics struct {
	blocks []*metricsBlock // blocks[i] is block i+1
}

// Height is the newest block the metrics count.
func (m *ChainMetrics) Height() uint64 { return uint64(len(m.blocks)) }

// FirstTs and LastTs are the timestamps of the first and newest block.
func (m *ChainMetrics) FirstTs() int64 { return int64(m.blocks[0].ts) }
func (m *ChainMetrics) LastTs() int64  { return int64(m.blocks[len(m.blocks)-1].ts) }

// Metrics recomputes the chain's metrics over blocks 1..height, which must
// have been scanned (ScanTo).
func (c *EVMChain) Metrics(height uint64) (*ChainMetrics, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if height == 0 || height > c.scanned {
		return nil, fmt.Errorf("metrics up to block %d: blocks 1..%d are scanned", height, c.scanned)
	}
	m := &ChainMetrics{blocks: make([]*metricsBlock, height)}
	for n := uint64(1); n <= height; n++ {
		b, ok := c.blocks[n]
		if !ok {
			return nil, fmt.Errorf("block %d was not scanned", n)
		}
		mb := &metricsBlock{
			number: n, ts: b.Timestamp, txs: uint64(len(b.Txs)),
			fees: new(big.Int), gasPriceSum: new(big.Int), maxGasPrice: new(big.Int),
			active: map[common.Address]bool{}, senders: map[common.Address]bool{}, deployers: map[common.Address]bool{},
		}
		for _, h := range b.Txs {
			x, ok := c.txs[h]
			if !ok {
				return nil, fmt.Errorf("block %d: tx %s was not scanned", n, h)
			}
			if err := mb.add(x); err != nil {
				return nil, fmt.Errorf("block %d tx %s: %w", n, h, err)
			}
		}
		m.blocks[n-1] = mb
	}
	return m, nil
}

// add counts one transaction into its block.
func (mb *metricsBlock) add(x *EVMTx) error {
	r := x.Receipt
	if r.EffectiveGasPrice == nil {
		return fmt.Errorf("receipt without effectiveGasPrice")
	}
	mb.gasUsed += r.GasUsed
	mb.fees.Add(mb.fees, new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice))
	mb.gasPriceSum.Add(mb.gasPriceSum, r.EffectiveGasPrice)
	if r.EffectiveGasPrice.Cmp(mb.maxGasPrice) > 0 {
		mb.maxGasPrice.Set(r.EffectiveGasPrice)
	}
	note := func(set map[common.Address]bool, a common.Address) {
		if a != (common.Address{}) {
			set[a] = true
		}
	}
	note(mb.senders, x.From)
	note(mb.active, x.From)
	if x.To != nil {
		note(mb.active, *x.To)
	}
	// Token transfers count whatever the tx's status: a reverted tx has no
	// logs, so there is nothing to count there.
	for _, tr := range x.Transfers {
		note(mb.active, tr.From)
		note(mb.active, tr.To)
	}
	if r.Status != 1 {
		return nil // a reverted tx created nothing
	}
	for _, cr := range Creations(x.Trace) {
		mb.contracts++
		note(mb.deployers, cr.From)
	}
	return nil
}

// Creations are the frames of a successful transaction's trace that left a
// contract: the top-level creation and those below it (a factory's), each
// neither failed nor under a failed frame. From is the deployer: the
// sender of a top-level creation, the creating contract of a nested one.
func Creations(root *evmtest.CallFrame) []*evmtest.CallFrame {
	var out []*evmtest.CallFrame
	var walk func(f *evmtest.CallFrame)
	walk = func(f *evmtest.CallFrame) {
		if f.Error != "" {
			return // nothing below a failed frame survives
		}
		if IsCreation(f.Type) && f.To != nil {
			out = append(out, f)
		}
		for i := range f.Calls {
			walk(&f.Calls[i])
		}
	}
	walk(root)
	return out
}

// MetricsRate is a count over seconds, kept exact.
type MetricsRate struct{ Count, Seconds uint64 }

func (r MetricsRate) rat() *big.Rat {
	if r.Seconds == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(r.Count), new(big.Int).SetUint64(r.Seconds))
}

// MetricsFigures are the figures of a set of blocks (a bucket or a rolling
// window) every ChainMetric is computed from.
type MetricsFigures struct {
	Blocks, Txs, GasUsed, Contracts uint64
	Fees, GasPriceSum, MaxGasPrice  *big.Int
	FirstTs, LastTs                 int64
	// PrevTs is the timestamp of the block before the first one; for the
	// chain's first block, the first block's own.
	PrevTs               int64
	MaxTps, MaxGps       MetricsRate
	Active, Senders      uint64 // distinct addresses
	Deployers            uint64
	CumTxs, CumAddresses uint64 // running totals through the last block
	CumContracts, CumDep uint64
}

func newFigures() *MetricsFigures {
	return &MetricsFigures{Fees: new(big.Int), GasPriceSum: new(big.Int), MaxGasPrice: new(big.Int)}
}

// figures sums blocks [from, to) (indexes into m.blocks).
func (m *ChainMetrics) figures(from, to int) *MetricsFigures {
	f := newFigures()
	active, senders, deployers := map[common.Address]bool{}, map[common.Address]bool{}, map[common.Address]bool{}
	for i := from; i < to; i++ {
		b := m.blocks[i]
		if f.Blocks == 0 {
			f.FirstTs = int64(b.ts)
			f.PrevTs = int64(b.ts)
			if i > 0 {
				f.PrevTs = int64(m.blocks[i-1].ts)
			}
		}
		f.LastTs = int64(b.ts)
		f.Blocks++
		f.Txs += b.txs
		f.GasUsed += b.gasUsed
		f.Contracts += b.contracts
		f.Fees.Add(f.Fees, b.fees)
		f.GasPriceSum.Add(f.GasPriceSum, b.gasPriceSum)
		if b.maxGasPrice.Cmp(f.MaxGasPrice) > 0 {
			f.MaxGasPrice.Set(b.maxGasPrice)
		}
		if i > 0 {
			secs := max(1, b.ts-m.blocks[i-1].ts)
			if r := (MetricsRate{b.txs, secs}); r.rat().Cmp(f.MaxTps.rat()) > 0 {
				f.MaxTps = r
			}
			if r := (MetricsRate{b.gasUsed, secs}); r.rat().Cmp(f.MaxGps.rat()) > 0 {
				f.MaxGps = r
			}
		}
		for a := range b.active {
			active[a] = true
		}
		for a := range b.senders {
			senders[a] = true
		}
		for a := range b.deployers {
			deployers[a] = true
		}
	}
	f.Active, f.Senders, f.Deployers = uint64(len(active)), uint64(len(senders)), uint64(len(deployers))
	// The running totals from block 1 through the last block of the set.
	cumActive, cumDeployers := map[common.Address]bool{}, map[common.Address]bool{}
	for i := 0; i < to; i++ {
		b := m.blocks[i]
		f.CumTxs += b.txs
		f.CumContracts += b.contracts
		for a := range b.active {
			cumActive[a] = true
		}
		for a := range b.deployers {
			cumDeployers[a] = true
		}
	}
	f.CumAddresses, f.CumDep = uint64(len(cumActive)), uint64(len(cumDeployers))
	return f
}

// blocksIn returns the index range [from, to) of the blocks whose
// timestamp is in [start, end).
func (m *ChainMetrics) blocksIn(start, end int64) (from, to int) {
	from = slices.IndexFunc(m.blocks, func(b *metricsBlock) bool { return int64(b.ts) >= start })
	if from < 0 {
		return len(m.blocks), len(m.blocks)
	}
	to = from
	for to < len(m.blocks) && int64(m.blocks[to].ts) < end {
		to++
	}
	return from, to
}
