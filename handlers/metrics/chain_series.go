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
// A page costs one read per chain: the newest pageSize stored buckets up to
// the page's newest bucket, plus one or two more. Stored buckets are
// sparse, so those of the page are among them, and the one or two older
// ones are the value a running total carries into the page's oldest empty
// buckets and tell whether the chain's first (or incomplete) bucket lies
// in the page. Only a first page with an endTimestamp may read once more
// per chain: whether a chain has blocks after it. No read depends on the
// chain's length.

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

// chainWindow is what one chain's read says about one page.
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

// lookBehind is how many stored buckets before a page tell what the page
// needs: the newest (a running total's carried value, and whether any is
// before), and for a partial chain the one before that (whether the newest
// is the incomplete first bucket).
func (c seriesChain) lookBehind() int {
	if c.partial {
		return 2
	}
	return 1
}

// readChainBuckets reads the newest size+lookBehind stored buckets of the
// chain starting at or before hi: every stored bucket of a page of at most
// size buckets whose newest is at or before hi, and those just before it.
func readChainBuckets(ctx context.Context, reader Reader, c seriesChain, g metricdata.Granularity, hi int64, size int) ([]metricdata.ChainBucket, error) {
	buckets, err := reader.ChainBuckets(ctx, c.chain, g, seriesFloor, hi, size+c.lookBehind())
	if err != nil {
		return nil, fmt.Errorf("reading the %s buckets of %s up to %d: %w", g, c.chain, hi, err)
	}
	return buckets, nil
}

// hasBucketAfter reports whether any of the chains has a stored bucket
// starting after t.
func hasBucketAfter(ctx context.Context, reader Reader, chains []seriesChain, g metricdata.Granularity, t int64) (bool, error) {
	for _, c := range chains {
		after, err := reader.ChainBuckets(ctx, c.chain, g, t+1, math.MaxInt64, 1)
		if err != nil {
			return false, fmt.Errorf("reading the %s buckets of %s after %d: %w", g, c.chain, t, err)
		}
		if len(after) > 0 {
			return true, nil
		}
	}
	return false, nil
}

// newChainWindow splits the chain's buckets read by readChainBuckets into
// the page [bottom, top] and the ones before it.
func newChainWindow(c seriesChain, g metricdata.Granularity, buckets []metricdata.ChainBucket, bottom int64) chainWindow {
	var w chainWindow
	for i, b := range buckets {
		if b.Start < bottom {
			w.stored = buckets[:i]
			w.before = buckets[i:min(len(buckets), i+c.lookBehind())]
			break
		}
		w.stored = buckets[:i+1]
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
	return w
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

// seriesQuery is what a page of a series asks.
type seriesQuery struct {
	metric chainMetric
	g      metricdata.Granularity
	// lo is the start of the oldest bucket asked (math.MinInt64: none).
	lo int64
	// end is the start of the newest bucket asked (math.MaxInt64: none).
	end int64
	// resume is the start of the page's newest bucket on a later page
	// (the token's position); the first page has none.
	resume *int64
	size   int
}

// buildSeriesPage builds a page of the metric's series over chains: at
// most size points. Over several chains a point combines the chains'
// figures (chainMetric combine); it is shown only from where every partial
// chain is complete, and a whole chain contributes 0 (a running total: its
// value) where it has no block.
func buildSeriesPage(ctx context.Context, reader Reader, chains []seriesChain, q seriesQuery) (seriesPage, error) {
	hi := q.end
	if q.resume != nil {
		hi = *q.resume
	}
	reads := make([][]metricdata.ChainBucket, len(chains))
	var err error
	for i, c := range chains {
		if reads[i], err = readChainBuckets(ctx, reader, c, q.g, hi, q.size); err != nil {
			return seriesPage{}, err
		}
	}
	top := hi
	if q.resume == nil {
		// The first page starts at the newest bucket of any chain, or at
		// endTimestamp's when a chain has blocks after it.
		newest, found := int64(math.MinInt64), false
		for _, r := range reads {
			if len(r) > 0 {
				newest, found = max(newest, r[0].Start), true
			}
		}
		if !found {
			return seriesPage{}, nil
		}
		if top = newest; newest < hi && hi != math.MaxInt64 {
			after, err := hasBucketAfter(ctx, reader, chains, q.g, hi)
			if err != nil {
				return seriesPage{}, err
			}
			if after {
				top = hi
			}
		}
	}
	positions := seriesPositions(q.g, top, q.lo, q.size)
	if len(positions) == 0 {
		return seriesPage{}, nil
	}
	bottom := positions[len(positions)-1]
	windows := make([]chainWindow, len(chains))
	for i, c := range chains {
		windows[i] = newChainWindow(c, q.g, reads[i], bottom)
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
	start = max(start, partialStart, q.lo)

	var page seriesPage
	cursors := make([]int, len(chains))
	figures := make([]metricFigure, len(chains))
	for _, p := range positions {
		if p < start {
			break
		}
		for i, w := range windows {
			figures[i] = w.figureAt(q.metric, p, &cursors[i])
		}
		page.points = append(page.points, metricsValue{Value: q.metric.value(figures...), Timestamp: p})
	}
	if len(positions) == q.size && start < bottom {
		page.next, page.more = q.g.Previous(bottom), q.g.Previous(bottom) >= q.lo
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
