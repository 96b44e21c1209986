package metrics

import (
	"context"
	"fmt"
	"math"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The dense series of a ChainMetric, one page at a time. The store keeps a
// bucket only where a chain has blocks; a series has one point per bucket
// of its granularity, newest first, from the later of the bucket holding
// startTimestamp and the chain's first complete bucket to the earlier of
// the bucket holding endTimestamp and the chain's newest bucket. A bucket
// without blocks is 0, a running total carries the value before it.
//
// A page costs, per chain, one read of the stored buckets in the page's
// range and one of the (at most two) stored buckets just before it: the
// value a running total carries into the page's oldest empty buckets, and
// whether the chain's first bucket lies in the page. The first page reads
// the newest bucket of each chain once more, to find where the series
// starts. No read depends on the chain's length.

// seriesFloor is the lowest bucket start the store is asked about: no
// block of a chain is older than 1970.
const seriesFloor = 0

// seriesChain is one chain of a series.
type seriesChain struct {
	chain netinfo.Chain
	// partial: the chain's metrics count from a block above genesis, so
	// its oldest stored bucket is incomplete and left out, with every
	// bucket before it.
	partial bool
}

// seriesPage is one page of a series: its points, newest first, and the
// start of the newest bucket of the next page (more: there is one).
type seriesPage struct {
	points []metricsValue
	next   int64
	more   bool
}

// newestBucket is the start of the newest bucket of granularity g of any of
// the chains; ok is false when none has a block.
func newestBucket(ctx context.Context, reader Reader, chains []seriesChain, g metricdata.Granularity) (start int64, ok bool, err error) {
	for _, c := range chains {
		newest, err := reader.ChainBuckets(ctx, c.chain, g, seriesFloor, math.MaxInt64, 1)
		if err != nil {
			return 0, false, fmt.Errorf("reading the newest %s bucket of %s: %w", g, c.chain, err)
		}
		if len(newest) > 0 && (!ok || newest[0].Start > start) {
			start, ok = newest[0].Start, true
		}
	}
	return start, ok, nil
}

// chainWindow is what one chain's reads say about one page.
type chainWindow struct {
	stored []metricdata.ChainBucket // in the page's range, newest first
	before []metricdata.ChainBucket // the newest ones before it
	// firstComplete is the start of the chain's first bucket the series
	// shows: its first bucket, or the one after its incomplete first one.
	// belowPage: it lies before the page's oldest bucket (exact value
	// unknown, and not needed). math.MaxInt64: the chain has no bucket up
	// to the page's newest.
	firstComplete int64
	belowPage     bool
}

// readChainWindow reads chain's stored buckets of the page's range [bottom,
// top] (at most n) and the ones before it.
func readChainWindow(ctx context.Context, reader Reader, c seriesChain, g metricdata.Granularity, bottom, top int64, n int) (chainWindow, error) {
	var w chainWindow
	var err error
	if w.stored, err = reader.ChainBuckets(ctx, c.chain, g, max(bottom, seriesFloor), top, n); err != nil {
		return chainWindow{}, fmt.Errorf("reading the %s buckets of %s from %d to %d: %w", g, c.chain, bottom, top, err)
	}
	// A partial chain needs to know whether the bucket before the page is
	// its incomplete first one: two tell.
	limit := 1
	if c.partial {
		limit = 2
	}
	if bottom-1 >= seriesFloor {
		if w.before, err = reader.ChainBuckets(ctx, c.chain, g, seriesFloor, bottom-1, limit); err != nil {
			return chainWindow{}, fmt.Errorf("reading the %s buckets of %s before %d: %w", g, c.chain, bottom, err)
		}
	}
	switch {
	case len(w.before) == 0 && len(w.stored) == 0:
		w.firstComplete = math.MaxInt64
	case len(w.before) == 0:
		w.firstComplete = w.stored[len(w.stored)-1].Start
		if c.partial {
			w.firstComplete = g.Next(w.firstComplete)
		}
	case c.partial && len(w.before) == 1:
		w.firstComplete = g.Next(w.before[0].Start)
	default:
		w.belowPage = true
	}
	return w, nil
}

// seriesPositions are the bucket starts of a page: from top down, at most
// size, none before lo.
func seriesPositions(g metricdata.Granularity, top, lo int64, size int) []int64 {
	var positions []int64
	for p := top; p >= lo && len(positions) < size; p = g.Previous(p) {
		positions = append(positions, p)
	}
	return positions
}

// buildSeriesPage builds the page of metric's series over chains whose
// newest bucket starts at top, no bucket before lo, at most size points.
// Over several chains a point combines the chains' figures (chainMetric
// combine); it is shown only from where every partial chain is complete,
// and a whole chain contributes 0 (a running total: its value) where it
// has no block.
func buildSeriesPage(ctx context.Context, reader Reader, chains []seriesChain, m chainMetric, g metricdata.Granularity,
	top, lo int64, size int) (seriesPage, error) {
	positions := seriesPositions(g, top, lo, size)
	if len(positions) == 0 {
		return seriesPage{}, nil
	}
	bottom := positions[len(positions)-1]
	windows := make([]chainWindow, len(chains))
	var err error
	for i, c := range chains {
		if windows[i], err = readChainWindow(ctx, reader, c, g, bottom, top, len(positions)); err != nil {
			return seriesPage{}, err
		}
	}

	// Where the series starts: the first bucket of any chain, but not
	// before every partial chain is complete.
	start, partialStart := int64(math.MaxInt64), int64(math.MinInt64)
	for i, w := range windows {
		first := w.firstComplete
		if w.belowPage {
			first = math.MinInt64
		}
		start = min(start, first)
		if chains[i].partial {
			partialStart = max(partialStart, first)
		}
	}
	start = max(start, partialStart, lo)

	var page seriesPage
	cursors := make([]int, len(chains))
	figures := make([]metricFigure, len(chains))
	for _, p := range positions {
		if p < start {
			break
		}
		for i, w := range windows {
			figures[i] = w.figureAt(m, p, &cursors[i])
		}
		page.points = append(page.points, metricsValue{Value: m.value(figures...), Timestamp: p})
	}
	if len(positions) == size && start < bottom {
		page.next, page.more = g.Previous(bottom), g.Previous(bottom) >= lo
	}
	return page, nil
}

// figureAt is the chain's figure of the bucket starting at p; the
// positions are asked newest first, cursor keeps the place in w.stored.
func (w chainWindow) figureAt(m chainMetric, p int64, cursor *int) metricFigure {
	for *cursor < len(w.stored) && w.stored[*cursor].Start > p {
		*cursor++
	}
	if *cursor < len(w.stored) && w.stored[*cursor].Start == p {
		return m.figure(&w.stored[*cursor])
	}
	if !m.cumulative {
		return m.emptyFigure()
	}
	// A running total carries the value of the newest bucket before p.
	if *cursor < len(w.stored) {
		return m.figure(&w.stored[*cursor])
	}
	if len(w.before) > 0 {
		return m.figure(&w.before[0])
	}
	return m.emptyFigure()
}
