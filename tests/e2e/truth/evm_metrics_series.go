package truth

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// MetricsValue is one figure as the Metrics API must write it: an exact
// integer (a count, gas, wei) or a ratio (avg*, max*Tps/Gps, avgGasPrice),
// which the API writes as the float64 nearest to it. Exactly one is set.
type MetricsValue struct {
	Int   *big.Int
	Ratio *big.Rat
	// Summed: a sum of ratios each rounded to a float64 on its own (an
	// aggregate's avgTps/avgGps), so the written value may be a few ulps
	// off the exact sum.
	Summed bool
}

func intMetric(n uint64) MetricsValue     { return MetricsValue{Int: new(big.Int).SetUint64(n)} }
func bigMetric(n *big.Int) MetricsValue   { return MetricsValue{Int: new(big.Int).Set(n)} }
func ratioMetric(r *big.Rat) MetricsValue { return MetricsValue{Ratio: r} }

// String is the value as the API should write it.
func (v MetricsValue) String() string {
	if v.Int != nil {
		return v.Int.String()
	}
	f, _ := v.Ratio.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Matches reports whether got, the JSON number the API wrote, is v: the
// same digits for an integer, the same float64 for a ratio (within 4 ulps
// for a sum of separately rounded ratios).
func (v MetricsValue) Matches(got string) bool {
	if v.Int != nil {
		return got == v.Int.String()
	}
	g, err := strconv.ParseFloat(got, 64)
	if err != nil {
		return false
	}
	want, _ := v.Ratio.Float64()
	if !v.Summed {
		return g == want
	}
	return math.Abs(g-want) <= 4*math.Abs(math.Nextafter(want, math.Inf(1))-want)
}

// ratio is num / max(1, den) as an exact ratio; 0 when num is 0.
func ratio(num *big.Int, den int64) *big.Rat {
	return new(big.Rat).SetFrac(num, big.NewInt(max(1, den)))
}

// MetricsValueOf is metric's value over the figures of one or more chains
// (the same bucket or window of each): a chain's own value when there is
// one, an aggregate's (chainId total/testnet) otherwise: additive and
// cumulative figures and distinct counts summed per chain, max* the
// maximum over the chains, avgTps/avgGps the sum of the chains' averages,
// avgGasPrice Σ gas price / Σ txs.
func MetricsValueOf(metric string, chains []*MetricsFigures) (MetricsValue, error) {
	sum := func(field func(*MetricsFigures) uint64) MetricsValue {
		var n uint64
		for _, f := range chains {
			n += field(f)
		}
		return intMetric(n)
	}
	maxRate := func(field func(*MetricsFigures) MetricsRate) MetricsValue {
		best := new(big.Rat)
		for _, f := range chains {
			if r := field(f).rat(); r.Cmp(best) > 0 {
				best = r
			}
		}
		return ratioMetric(best)
	}
	sumAvg := func(num func(*MetricsFigures) uint64) MetricsValue {
		total := new(big.Rat)
		for _, f := range chains {
			if f.Blocks > 0 {
				total.Add(total, ratio(new(big.Int).SetUint64(num(f)), f.LastTs-f.PrevTs))
			}
		}
		return MetricsValue{Ratio: total, Summed: len(chains) > 1}
	}
	switch metric {
	case "txCount":
		return sum(func(f *MetricsFigures) uint64 { return f.Txs }), nil
	case "gasUsed":
		return sum(func(f *MetricsFigures) uint64 { return f.GasUsed }), nil
	case "contracts":
		return sum(func(f *MetricsFigures) uint64 { return f.Contracts }), nil
	case "activeAddresses":
		return sum(func(f *MetricsFigures) uint64 { return f.Active }), nil
	case "activeSenders":
		return sum(func(f *MetricsFigures) uint64 { return f.Senders }), nil
	case "deployers":
		return sum(func(f *MetricsFigures) uint64 { return f.Deployers }), nil
	case "cumulativeTxCount":
		return sum(func(f *MetricsFigures) uint64 { return f.CumTxs }), nil
	case "cumulativeAddresses":
		return sum(func(f *MetricsFigures) uint64 { return f.CumAddresses }), nil
	case "cumulativeContracts":
		return sum(func(f *MetricsFigures) uint64 { return f.CumContracts }), nil
	case "cumulativeDeployers":
		return sum(func(f *MetricsFigures) uint64 { return f.CumDep }), nil
	case "feesPaid":
		n := new(big.Int)
		for _, f := range chains {
			n.Add(n, f.Fees)
		}
		return bigMetric(n), nil
	case "maxGasPrice":
		n := new(big.Int)
		for _, f := range chains {
			if f.MaxGasPrice.Cmp(n) > 0 {
				n.Set(f.MaxGasPrice)
			}
		}
		return bigMetric(n), nil
	case "avgGasPrice":
		num, txs := new(big.Int), uint64(0)
		for _, f := range chains {
			num.Add(num, f.GasPriceSum)
			txs += f.Txs
		}
		if txs == 0 {
			return ratioMetric(new(big.Rat)), nil
		}
		return ratioMetric(new(big.Rat).SetFrac(num, new(big.Int).SetUint64(txs))), nil
	case "maxTps":
		return maxRate(func(f *MetricsFigures) MetricsRate { return f.MaxTps }), nil
	case "maxGps":
		return maxRate(func(f *MetricsFigures) MetricsRate { return f.MaxGps }), nil
	case "avgTps":
		return sumAvg(func(f *MetricsFigures) uint64 { return f.Txs }), nil
	case "avgGps":
		return sumAvg(func(f *MetricsFigures) uint64 { return f.GasUsed }), nil
	}
	return MetricsValue{}, fmt.Errorf("no metric %q", metric)
}

// Bucket is the figures of the g-bucket starting at start: its blocks, and
// the running totals through its last block (through the last block
// before it when it has none).
func (m *ChainMetrics) Bucket(g MetricsGranularity, start int64) *MetricsFigures {
	return m.figures(m.blocksIn(start, g.Next(start)))
}

// BucketStarts are the starts of the g-buckets a series over [startTs,
// endTs] (nil: no bound) covers, newest first: dense, from the later of
// the bucket holding startTs and that of the first block of any of the
// chains, to the earlier of endTs and the bucket of the newest block of
// any of them.
func BucketStarts(g MetricsGranularity, chains []*ChainMetrics, startTs, endTs *int64) []int64 {
	var lo, hi int64 = math.MaxInt64, math.MinInt64
	for _, m := range chains {
		lo = min(lo, g.Start(m.FirstTs()))
		hi = max(hi, g.Start(m.LastTs()))
	}
	if startTs != nil {
		lo = max(lo, g.Start(*startTs))
	}
	var out []int64
	for s := lo; s <= hi && (endTs == nil || s <= *endTs); s = g.Next(s) {
		out = append([]int64{s}, out...)
	}
	return out
}

// MetricsPoint is one point of a series.
type MetricsPoint struct {
	Timestamp int64
	Value     MetricsValue
}

// Series is metric's series at g over [startTs, endTs] for one chain, or
// for the aggregate of several (chainId total), newest first.
func Series(metric string, g MetricsGranularity, chains []*ChainMetrics, startTs, endTs *int64) ([]MetricsPoint, error) {
	var out []MetricsPoint
	for _, s := range BucketStarts(g, chains, startTs, endTs) {
		figs := make([]*MetricsFigures, len(chains))
		for i, m := range chains {
			figs[i] = m.Bucket(g, s)
		}
		v, err := MetricsValueOf(metric, figs)
		if err != nil {
			return nil, err
		}
		out = append(out, MetricsPoint{Timestamp: s, Value: v})
	}
	return out, nil
}

// RollingWindows are the keys of a rolling window reply with their width
// in hours (0: allTime, from genesis).
func RollingWindows() []struct {
	Key   string
	Hours int64
} {
	return []struct {
		Key   string
		Hours int64
	}{{"lastHour", 1}, {"lastDay", 24}, {"lastWeek", 168}, {"lastMonth", 720}, {"last90Days", 2160}, {"lastYear", 8760}, {"allTime", 0}}
}

// Window is the figures of the blocks of the rolling window of hours
// hour buckets ending with the hour of the chain's newest block (0: every
// block).
func (m *ChainMetrics) Window(hours int64) *MetricsFigures {
	if hours == 0 {
		return m.figures(0, len(m.blocks))
	}
	h := MetricsHour.Start(m.LastTs())
	return m.figures(m.blocksIn(h-(hours-1)*3600, h+3600))
}

// RollingServed says whether a rolling window reply has the window of
// hours (0: allTime) of metric: every window of every metric, but the
// distinct active addresses and senders only over the last hour, day and
// week (as the SDK documents them), and active addresses over allTime.
func RollingServed(metric string, hours int64) bool {
	switch metric {
	case "activeAddresses":
		return hours <= 168
	case "activeSenders":
		return hours != 0 && hours <= 168
	default:
		return true
	}
}

// Rolling is metric's rolling window values for one chain, or the
// aggregate of several (each over its own windows), by key: the windows
// RollingServed names.
func Rolling(metric string, chains []*ChainMetrics) (map[string]MetricsValue, error) {
	out := map[string]MetricsValue{}
	for _, w := range RollingWindows() {
		if !RollingServed(metric, w.Hours) {
			continue
		}
		figs := make([]*MetricsFigures, len(chains))
		for i, m := range chains {
			figs[i] = m.Window(w.Hours)
		}
		v, err := MetricsValueOf(metric, figs)
		if err != nil {
			return nil, err
		}
		out[w.Key] = v
	}
	return out, nil
}

// MatchesNumber reports whether got, a number as a JavaScript client
// parsed and wrote it back (the SDK: every value a float64), is v read the
// same way: the float64 nearest to v (within 4 ulps for a sum of
// separately rounded ratios).
func (v MetricsValue) MatchesNumber(got float64) bool {
	var want float64
	if v.Int != nil {
		want, _ = new(big.Float).SetInt(v.Int).Float64()
	} else {
		want, _ = v.Ratio.Float64()
	}
	if !v.Summed {
		return got == want
	}
	return math.Abs(got-want) <= 4*math.Abs(math.Nextafter(want, math.Inf(1))-want)
}
