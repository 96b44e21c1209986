package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The rolling windows of getEvmChainRollingWindowMetrics: each ends at the
// hour bucket H of the chain's newest counted block and spans a number of
// hour buckets back from it; allTime spans the whole chain.
//
// A window's figures are the merge (mergeChainBuckets) of the coarsest
// stored buckets that tile it: whole months inside it, then whole weeks,
// then days, then hours at the edges (coverWindow), so a year costs a few
// dozen bucket reads, not 8760. Distinct counts cannot be merged from
// buckets: they are the store's count of the addresses whose last hour with
// the role is the window's first hour or later (Reader.ActiveSince), exact
// for any window.

// hourSeconds is the width of an hour bucket.
const hourSeconds = 3600

// rollingWindow is one key of the SDK's ChainRollingWindowMetricsValue.
type rollingWindow struct {
	name  string
	hours int64 // 0: allTime
}

// rollingWindows lists the windows in the SDK's order.
func rollingWindows() []rollingWindow {
	return []rollingWindow{
		{name: "lastHour", hours: 1},
		{name: "lastDay", hours: 24},
		{name: "lastWeek", hours: 7 * 24},
		{name: "lastMonth", hours: 30 * 24},
		{name: "last90Days", hours: 90 * 24},
		{name: "lastYear", hours: 365 * 24},
		{name: "allTime"},
	}
}

// distinctRole is the role whose distinct addresses the metric counts, if
// it is a distinct count.
func distinctRole(m chainMetric) (metricdata.Role, bool) {
	switch m.name {
	case "activeAddresses":
		return metricdata.Active, true
	case "activeSenders":
		return metricdata.Sender, true
	case "deployers":
		return metricdata.Deployer, true
	default:
		return 0, false
	}
}

// chainWindows computes one chain's figure of m for every window it can
// serve exactly (nil for the others), in rollingWindows order. partial says
// the chain's metrics count from above genesis: the hour bucket of the
// first counted block is incomplete, so a window reaching it, and allTime,
// are not served.
func chainWindows(ctx context.Context, reader Reader, chain netinfo.Chain, m chainMetric, partial bool) ([]*metricFigure, error) {
	newest, err := newestHour(ctx, reader, chain)
	if err != nil {
		return nil, err
	}
	_, distinct := distinctRole(m)
	for attempt := 1; ; attempt++ {
		out, err := chainWindowsAt(ctx, reader, chain, m, partial, newest)
		if err != nil || !distinct {
			return out, err
		}
		// A distinct count reads the addresses active since the window's
		// first hour, up to now: a block of a later hour committed since
		// the newest hour was read would count in every window. The
		// newest hour unchanged after the counts says none was.
		again, err := newestHour(ctx, reader, chain)
		if err != nil {
			return nil, err
		}
		if len(again) == len(newest) && (len(again) == 0 || again[0].Start == newest[0].Start) ||
			attempt == maxWindowAttempts {
			return out, nil
		}
		newest = again
	}
}

// maxWindowAttempts bounds the recounts of a chain's distinct windows
// while its newest hour moves (once an hour: one recount is enough).
const maxWindowAttempts = 3

// newestHour reads the chain's newest hour bucket (none: no block counted).
func newestHour(ctx context.Context, reader Reader, chain netinfo.Chain) ([]metricdata.ChainBucket, error) {
	newest, err := reader.ChainBuckets(ctx, chain, metricdata.Hour, 0, math.MaxInt64, 1)
	if err != nil {
		return nil, fmt.Errorf("reading the newest hour bucket of %s: %w", chain, err)
	}
	return newest, nil
}

// chainWindowsAt is chainWindows for the newest hour bucket read.
func chainWindowsAt(ctx context.Context, reader Reader, chain netinfo.Chain, m chainMetric, partial bool,
	newest []metricdata.ChainBucket,
) ([]*metricFigure, error) {
	windows := rollingWindows()
	out := make([]*metricFigure, len(windows))
	role, distinct := distinctRole(m)
	if len(newest) == 0 {
		// No block counted yet: from genesis every window is empty; above
		// it nothing is known.
		if !partial {
			for i, w := range windows {
				if distinct && !distinctServed(role, w.hours) {
					continue // the same keys as once blocks are counted
				}
				f := m.figure(&metricdata.ChainBucket{})
				out[i] = &f
			}
		}
		return out, nil
	}
	h := newest[0].Start
	reachesFirst := false // a shorter window reached the incomplete hour
	for i, w := range windows {
		if w.hours == 0 {
			if partial || (distinct && !distinctServed(role, 0)) {
				continue
			}
			f, err := allTimeFigure(ctx, reader, chain, m, h)
			if err != nil {
				return nil, err
			}
			out[i] = &f
			continue
		}
		first := h - (w.hours-1)*hourSeconds
		if partial && !reachesFirst {
			// The window is complete only if the oldest stored hour
			// bucket, the incomplete one, lies before it.
			older, err := reader.ChainBuckets(ctx, chain, metricdata.Hour, 0, first-1, 1)
			if err != nil {
				return nil, fmt.Errorf("reading the hour buckets of %s before %d: %w", chain, first, err)
			}
			reachesFirst = len(older) == 0
		}
		if reachesFirst {
			continue // and so does every longer one
		}
		var b metricdata.ChainBucket
		if distinct {
			if !distinctServed(role, w.hours) {
				continue
			}
			n, err := reader.ActiveSince(ctx, chain, role, first)
			if err != nil {
				return nil, fmt.Errorf("counting the %s of %s since %d: %w", m.name, chain, first, err)
			}
			setDistinct(&b, role, n)
		} else {
			buckets, err := coverWindow(ctx, reader, chain, first, h+hourSeconds)
			if err != nil {
				return nil, err
			}
			b = mergeChainBuckets(buckets)
		}
		f := m.figure(&b)
		out[i] = &f
	}
	return out, nil
}

// maxActiveWindowHours bounds the windows whose distinct active addresses
// and senders are counted, the ones the SDK documents (lastHour, lastDay,
// lastWeek): the count reads one key per address active in the window, so
// longer windows would cost reads in proportion to a chain's users, not to
// the buckets asked. Deployers are few enough for every window, and
// allTime's active addresses and deployers are the running totals.
const maxActiveWindowHours = 7 * 24

// distinctServed says whether the distinct count of role is served over a
// window of hours (0: allTime).
func distinctServed(role metricdata.Role, hours int64) bool {
	switch {
	case role == metricdata.Deployer:
		return true
	case hours == 0:
		return role == metricdata.Active
	default:
		return hours <= maxActiveWindowHours
	}
}

// allTimeFigure is m over the chain's whole history (its metrics count from
// genesis), newest hour bucket h: the merge of every month bucket; the
// distinct counts of addresses and deployers are the running totals
// (senders over all time are not served: distinctServed).
func allTimeFigure(ctx context.Context, reader Reader, chain netinfo.Chain, m chainMetric, h int64) (metricFigure, error) {
	months, err := readBuckets(ctx, reader, chain, metricdata.Month, 0, h)
	if err != nil {
		return metricFigure{}, err
	}
	b := mergeChainBuckets(months)
	if role, ok := distinctRole(m); ok {
		n := b.CumulativeAddresses
		if role == metricdata.Deployer {
			n = b.CumulativeDeployers
		}
		b = metricdata.ChainBucket{}
		setDistinct(&b, role, n)
	}
	return m.figure(&b), nil
}

// setDistinct sets the distinct count of role in b.
func setDistinct(b *metricdata.ChainBucket, role metricdata.Role, n uint64) {
	switch role {
	case metricdata.Active:
		b.ActiveAddresses = n
	case metricdata.Sender:
		b.ActiveSenders = n
	case metricdata.Deployer:
		b.Deployers = n
	}
}

// coarseToFine are the granularities a window is tiled with, coarsest
// first.
func coarseToFine() []metricdata.Granularity {
	return []metricdata.Granularity{metricdata.Month, metricdata.Week, metricdata.Day, metricdata.Hour}
}

// coverWindow reads the stored buckets that tile [from, to) (hour
// boundaries), coarsest first: the buckets of the coarsest granularity that
// lie wholly inside, and the same for the parts before and after them with
// the next finer one, down to hours. Buckets need not nest (weeks straddle
// months): each level only takes buckets inside the part it is given.
func coverWindow(ctx context.Context, reader Reader, chain netinfo.Chain, from, to int64) ([]metricdata.ChainBucket, error) {
	var out []metricdata.ChainBucket
	var cover func(from, to int64, levels []metricdata.Granularity) error
	cover = func(from, to int64, levels []metricdata.Granularity) error {
		if from >= to {
			return nil
		}
		g := levels[0]
		if g == metricdata.Hour {
			buckets, err := readBuckets(ctx, reader, chain, g, from, to-1)
			out = append(out, buckets...)
			return err
		}
		lo := g.Start(from)
		if lo < from {
			lo = g.Next(lo)
		}
		// Buckets starting before the one holding to end by to.
		hi := g.Start(to)
		if lo >= hi {
			return cover(from, to, levels[1:])
		}
		buckets, err := readBuckets(ctx, reader, chain, g, lo, hi-1)
		if err != nil {
			return err
		}
		out = append(out, buckets...)
		if err := cover(from, lo, levels[1:]); err != nil {
			return err
		}
		return cover(hi, to, levels[1:])
	}
	if err := cover(from, to, coarseToFine()); err != nil {
		return nil, err
	}
	return out, nil
}

// readBuckets reads every stored bucket of granularity g of chain starting
// in [from, to].
func readBuckets(ctx context.Context, reader Reader, chain netinfo.Chain, g metricdata.Granularity, from, to int64) ([]metricdata.ChainBucket, error) {
	limit := bucketsBetween(g, from, to)
	buckets, err := reader.ChainBuckets(ctx, chain, g, from, to, limit)
	if err != nil {
		return nil, fmt.Errorf("reading the %s buckets of %s from %d to %d: %w", g, chain, from, to, err)
	}
	return buckets, nil
}

// bucketsBetween is how many buckets of granularity g can start in [from,
// to]: a bound on what the store returns.
func bucketsBetween(g metricdata.Granularity, from, to int64) int {
	if to < from {
		return 0
	}
	var width int64
	switch g {
	case metricdata.Hour:
		width = hourSeconds
	case metricdata.Day:
		width = 24 * hourSeconds
	case metricdata.Week:
		width = 7 * 24 * hourSeconds
	default:
		width = 28 * 24 * hourSeconds // the shortest month
	}
	n := (to-from)/width + 1
	return int(min(n, math.MaxInt32))
}

// rollingWindowValues is the SDK's ChainRollingWindowMetricsValue: a
// window that cannot be served exactly is omitted.
type rollingWindowValues struct {
	LastHour   json.Number `json:"lastHour,omitempty"`
	LastDay    json.Number `json:"lastDay,omitempty"`
	LastWeek   json.Number `json:"lastWeek,omitempty"`
	LastMonth  json.Number `json:"lastMonth,omitempty"`
	Last90Days json.Number `json:"last90Days,omitempty"`
	LastYear   json.Number `json:"lastYear,omitempty"`
	AllTime    json.Number `json:"allTime,omitempty"`
}

// field is the value of the window named name.
func (v *rollingWindowValues) field(name string) *json.Number {
	return map[string]*json.Number{
		"lastHour": &v.LastHour, "lastDay": &v.LastDay, "lastWeek": &v.LastWeek, "lastMonth": &v.LastMonth,
		"last90Days": &v.Last90Days, "lastYear": &v.LastYear, "allTime": &v.AllTime,
	}[name]
}

// windowValues combines the chains' figures per window: a window is served
// when every chain serves it.
func windowValues(m chainMetric, perChain [][]*metricFigure) rollingWindowValues {
	var out rollingWindowValues
	for i, w := range rollingWindows() {
		figures := make([]metricFigure, 0, len(perChain))
		for _, chain := range perChain {
			if chain[i] == nil {
				figures = nil
				break
			}
			figures = append(figures, *chain[i])
		}
		if figures != nil {
			*out.field(w.name) = m.value(figures...)
		}
	}
	return out
}
