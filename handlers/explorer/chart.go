package explorer

import (
	"fmt"
	"html"
	"html/template"
	"math/big"
	"strings"
	"time"
)

// The activity charts are SVG drawn here, on the server: they need no
// script, read the same with JavaScript off, and obey the page's CSP (no
// style attribute: classes and presentation attributes only). This is the
// one place of the explorer that writes markup itself: it is made of
// numbers (geometry this file computes), and the only text in it, the
// labels and tooltips, is escaped here.

// chartPoint is one bucket of a series: its start (unix seconds) and its
// value, an exact decimal as the API wrote it.
type chartPoint struct {
	Timestamp int64
	Value     string
}

// The drawing's size in SVG units (the sheet scales it to its box; text
// is sized in these units, so a box about as wide as the drawing shows it
// at about its size).
const (
	chartWidth  = 300
	chartHeight = 120
	chartTop    = 14 // room for the highest value's label
	chartBottom = 16 // room for the time labels
)

// barChart draws the last slots buckets up to the newest of points (any
// order) as bars, oldest on the left, each with a tooltip of its bucket and
// value; a bucket points lack is 0. label names the series for screen
// readers; hourly says whether buckets are hours (else days).
func barChart(metric, label string, points []chartPoint, hourly bool, slots int) template.HTML {
	bucket := int64(86400)
	if hourly {
		bucket = 3600
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-metric="%s" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		html.EscapeString(metric), chartWidth, chartHeight, html.EscapeString(label))
	base := chartHeight - chartBottom
	fmt.Fprintf(&b, `<line class="axis" x1="0" y1="%d" x2="%d" y2="%d"/>`, base, chartWidth, base)
	if len(points) == 0 || slots <= 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">no data yet</text></svg>`, chartWidth/2, chartHeight/2)
		return template.HTML(b.String()) //nolint:gosec // numbers and escaped text only
	}
	newest := points[0].Timestamp
	for _, p := range points {
		newest = max(newest, p.Timestamp)
	}
	oldest := newest - int64(slots-1)*bucket
	values := make([]string, slots)
	for i := range values {
		values[i] = "0"
	}
	for _, p := range points {
		if p.Timestamp >= oldest && (p.Timestamp-oldest)%bucket == 0 {
			values[(p.Timestamp-oldest)/bucket] = p.Value
		}
	}
	heights := make([]*big.Float, slots)
	peak := new(big.Float)
	for i, v := range values {
		f, ok := new(big.Float).SetString(v)
		if !ok || f.Sign() < 0 {
			f = new(big.Float)
		}
		heights[i] = f
		if f.Cmp(peak) > 0 {
			peak = f
		}
	}
	plot := float64(chartHeight - chartTop - chartBottom)
	slot := float64(chartWidth) / float64(slots)
	gap := slot * 0.2
	peakF, _ := peak.Float64()
	for i, v := range values {
		f, _ := heights[i].Float64()
		h := 0.0
		if peakF > 0 {
			h = f / peakF * plot
		}
		if h < 1 && f > 0 {
			h = 1 // a bucket with activity shows
		}
		ts := oldest + int64(i)*bucket
		fmt.Fprintf(&b, `<rect class="bar" x="%.2f" y="%.2f" width="%.2f" height="%.2f" data-timestamp="%d" data-value="%s"><title>%s: %s</title></rect>`,
			float64(i)*slot+gap/2, float64(base)-h, slot-gap, h, ts, html.EscapeString(v),
			html.EscapeString(bucketLabel(ts, hourly)), html.EscapeString(v))
	}
	fmt.Fprintf(&b, `<text x="1" y="10">max %s</text>`, html.EscapeString(peak.Text('f', -1)))
	fmt.Fprintf(&b, `<text x="1" y="%d">%s</text>`, chartHeight-3, html.EscapeString(bucketLabel(oldest, hourly)))
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, chartWidth-1, chartHeight-3,
		html.EscapeString(bucketLabel(newest, hourly)))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) //nolint:gosec // numbers and escaped text only
}

// bucketLabel names the bucket that starts at ts.
func bucketLabel(ts int64, hourly bool) string {
	t := time.Unix(ts, 0).UTC()
	if hourly {
		return t.Format("2006-01-02 15:04 UTC")
	}
	return t.Format("2006-01-02")
}

// chartPoints reads a metrics series reply (results: [{value, timestamp}]).
func chartPoints(reply object) []chartPoint {
	results, _ := reply["results"].([]any)
	out := make([]chartPoint, 0, len(results))
	for _, r := range results {
		o, ok := r.(object)
		if !ok {
			continue
		}
		var ts int64
		if _, err := fmt.Sscan(str(o["timestamp"]), &ts); err != nil {
			continue
		}
		out = append(out, chartPoint{Timestamp: ts, Value: str(o["value"])})
	}
	return out
}
