package metrics

import (
	"encoding/json"
	"math/big"
	"slices"

	"github.com/avadata/avadata/indexer/metricdata"
)

// The SDK's ChainMetric values, each read from one EVM chain's bucket
// (metricdata.ChainBucket) alone, at every granularity, and combined over
// several chains for the aggregate chainIds (total, mainnet, testnet). The
// time series (get_evm_chain_metrics.go) and the rolling windows use the
// same table.

// combineRule is how the figures of several chains make one value.
type combineRule byte

const (
	// combineSum adds the chains' values: additive figures, running
	// totals, distinct counts (an address active on two chains counts
	// twice) and the average rates (the sum of the chains' averages).
	combineSum combineRule = iota
	// combineMax takes the highest of the chains' values.
	combineMax
	// combineRatioOfSums divides the sum of the numerators by the sum of
	// the denominators (avgGasPrice: Σ GasPriceSum / Σ Txs).
	combineRatioOfSums
)

// metricFigure is one chain's figure of a metric in one bucket, exactly:
// Num/Den. Den is 1 for an integer figure; a Den of 0 makes the value 0 (a
// gas price average over no transactions, a rate of no block).
type metricFigure struct {
	Num, Den *big.Int
}

// intFigure is the figure of a count.
func intFigure(n uint64) metricFigure {
	return metricFigure{Num: new(big.Int).SetUint64(n), Den: big.NewInt(1)}
}

// bigFigure is the figure of an amount (nil: 0).
func bigFigure(n *big.Int) metricFigure {
	if n == nil {
		return intFigure(0)
	}
	return metricFigure{Num: new(big.Int).Set(n), Den: big.NewInt(1)}
}

// ratioFigure is num/den; den 0 makes the value 0.
func ratioFigure(num *big.Int, den uint64) metricFigure {
	if num == nil {
		num = new(big.Int)
	}
	return metricFigure{Num: new(big.Int).Set(num), Den: new(big.Int).SetUint64(den)}
}

// rat is the figure's value; 0 when Den is 0.
func (f metricFigure) rat() *big.Rat {
	if f.Den == nil || f.Den.Sign() == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(f.Num, f.Den)
}

// chainMetric is one ChainMetric: how its figure is read from a chain's
// bucket, whether it is a running total, and how chains combine.
type chainMetric struct {
	name string
	// cumulative: a running total from genesis through the bucket's last
	// block. An empty bucket carries the value before it, and the value
	// needs the chain's whole history (refused on a partial chain).
	cumulative bool
	// integer: written as an exact integer (counts, gas, wei); otherwise
	// a ratio written as the nearest float.
	integer bool
	combine combineRule
	// figure reads one chain's figure from its bucket of the metric's
	// granularity (or a window merged by mergeChainBuckets).
	figure func(b *metricdata.ChainBucket) metricFigure
}

// chainMetrics is the table of every ChainMetric, in the SDK's order.
func chainMetrics() []chainMetric {
	count := func(field func(b *metricdata.ChainBucket) uint64) func(b *metricdata.ChainBucket) metricFigure {
		return func(b *metricdata.ChainBucket) metricFigure { return intFigure(field(b)) }
	}
	return []chainMetric{
		{name: "activeAddresses", integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.ActiveAddresses })},
		{name: "activeSenders", integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.ActiveSenders })},
		{name: "cumulativeTxCount", cumulative: true, integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.CumulativeTxs })},
		{name: "cumulativeAddresses", cumulative: true, integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.CumulativeAddresses })},
		{name: "cumulativeContracts", cumulative: true, integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.CumulativeContracts })},
		{name: "cumulativeDeployers", cumulative: true, integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.CumulativeDeployers })},
		{name: "contracts", integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.Contracts })},
		{name: "deployers", integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.Deployers })},
		{name: "gasUsed", integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.GasUsed })},
		{name: "txCount", integer: true, figure: count(func(b *metricdata.ChainBucket) uint64 { return b.Txs })},
		{name: "avgGps", figure: func(b *metricdata.ChainBucket) metricFigure {
			return ratioFigure(new(big.Int).SetUint64(b.GasUsed), bucketSeconds(b))
		}},
		{name: "maxGps", combine: combineMax, figure: func(b *metricdata.ChainBucket) metricFigure { return rateFigure(b.MaxGps) }},
		{name: "avgTps", figure: func(b *metricdata.ChainBucket) metricFigure {
			return ratioFigure(new(big.Int).SetUint64(b.Txs), bucketSeconds(b))
		}},
		{name: "maxTps", combine: combineMax, figure: func(b *metricdata.ChainBucket) metricFigure { return rateFigure(b.MaxTps) }},
		{name: "avgGasPrice", combine: combineRatioOfSums, figure: func(b *metricdata.ChainBucket) metricFigure {
			return ratioFigure(b.GasPriceSum, b.Txs)
		}},
		{name: "maxGasPrice", integer: true, combine: combineMax, figure: func(b *metricdata.ChainBucket) metricFigure {
			return bigFigure(b.MaxGasPrice)
		}},
		{name: "feesPaid", integer: true, figure: func(b *metricdata.ChainBucket) metricFigure { return bigFigure(b.FeesPaid) }},
	}
}

// chainMetricNames lists the ChainMetric values, for messages and the
// OpenAPI document's enum.
func chainMetricNames() []string {
	var names []string
	for _, m := range chainMetrics() {
		names = append(names, m.name)
	}
	return names
}

// lookupChainMetric finds the ChainMetric named name (case-sensitive, as
// the SDK sends it).
func lookupChainMetric(name string) (chainMetric, bool) {
	metrics := chainMetrics()
	i := slices.IndexFunc(metrics, func(m chainMetric) bool { return m.name == name })
	if i < 0 {
		return chainMetric{}, false
	}
	return metrics[i], true
}

// bucketSeconds is what avgTps and avgGps divide by: the seconds from the
// block before the bucket's first one to its last block, at least 1. A
// bucket holding the chain's first indexed block has no block before it
// (PrevBlockTs 0): it counts from its first block.
func bucketSeconds(b *metricdata.ChainBucket) uint64 {
	prev := b.PrevBlockTs
	if prev == 0 {
		prev = b.FirstBlockTs
	}
	if b.LastBlockTs-prev < 1 {
		return 1
	}
	return uint64(b.LastBlockTs - prev)
}

// rateFigure is a block rate as a figure (no rate: 0).
func rateFigure(r metricdata.Rate) metricFigure {
	return ratioFigure(new(big.Int).SetUint64(r.Count), r.Seconds)
}

// emptyFigure is one chain's figure of a bucket without blocks (a running
// total carries its value instead: see the series builder).
func (m chainMetric) emptyFigure() metricFigure {
	if m.combine == combineRatioOfSums {
		return metricFigure{Num: new(big.Int), Den: new(big.Int)}
	}
	return intFigure(0)
}

// value combines the figures of one bucket of one or more chains and
// writes the metric's value: an exact integer, or the float nearest the
// exact ratio. No figure at all is 0.
func (m chainMetric) value(figures ...metricFigure) json.Number {
	var v *big.Rat
	switch m.combine {
	case combineRatioOfSums:
		num, den := new(big.Int), new(big.Int)
		for _, f := range figures {
			num.Add(num, f.Num)
			den.Add(den, f.Den)
		}
		v = metricFigure{Num: num, Den: den}.rat()
	case combineMax:
		v = new(big.Rat)
		for _, f := range figures {
			if r := f.rat(); r.Cmp(v) > 0 {
				v = r
			}
		}
	default:
		v = new(big.Rat)
		for _, f := range figures {
			v.Add(v, f.rat())
		}
	}
	if m.integer && v.IsInt() {
		return bigValue(v.Num())
	}
	return ratioValue(new(big.Float).SetInt(v.Num()), new(big.Float).SetInt(v.Denom()))
}

// mergeChainBuckets is one chain's figures over consecutive buckets (a
// rolling window's hour buckets), in any order, as one bucket: sums and
// maxima over all their blocks, the first and last block times of the
// whole, the PrevBlockTs of the oldest bucket (so avgTps divides by the
// window's span) and the running totals of the newest. Distinct counts
// (ActiveAddresses, ActiveSenders, Deployers) cannot be merged from the
// buckets: they are left 0 for the caller to set from the store's
// last-activity rows. The merge of no bucket is the zero bucket.
func mergeChainBuckets(buckets []metricdata.ChainBucket) metricdata.ChainBucket {
	if len(buckets) == 0 {
		return metricdata.ChainBucket{}
	}
	oldest, newest := 0, 0
	for i, b := range buckets {
		if b.Start < buckets[oldest].Start {
			oldest = i
		}
		if b.Start > buckets[newest].Start {
			newest = i
		}
	}
	o, n := buckets[oldest], buckets[newest]
	m := metricdata.ChainBucket{
		Granularity:         o.Granularity,
		Start:               o.Start,
		FeesPaid:            new(big.Int),
		GasPriceSum:         new(big.Int),
		MaxGasPrice:         new(big.Int),
		FirstBlockTs:        o.FirstBlockTs,
		LastBlockTs:         n.LastBlockTs,
		PrevBlockTs:         o.PrevBlockTs,
		CumulativeTxs:       n.CumulativeTxs,
		CumulativeAddresses: n.CumulativeAddresses,
		CumulativeContracts: n.CumulativeContracts,
		CumulativeDeployers: n.CumulativeDeployers,
	}
	for _, b := range buckets {
		m.Blocks += b.Blocks
		m.Txs += b.Txs
		m.GasUsed += b.GasUsed
		m.Contracts += b.Contracts
		addBig(m.FeesPaid, b.FeesPaid)
		addBig(m.GasPriceSum, b.GasPriceSum)
		if b.MaxGasPrice != nil && b.MaxGasPrice.Cmp(m.MaxGasPrice) > 0 {
			m.MaxGasPrice.Set(b.MaxGasPrice)
		}
		if b.MaxTps.Greater(m.MaxTps) {
			m.MaxTps = b.MaxTps
		}
		if b.MaxGps.Greater(m.MaxGps) {
			m.MaxGps = b.MaxGps
		}
	}
	return m
}

// addBig adds n (nil: 0) to sum.
func addBig(sum, n *big.Int) {
	if n != nil {
		sum.Add(sum, n)
	}
}
