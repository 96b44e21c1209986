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

// The drawing's size in SVG units (the sheet scales it to the box).
const (
	chartWidth  = 600
	chartHeight = 170
	chartTop    = 16 // room for the highest value's label
	chartBottom = 20 // room for the time labels
)

// barChart draws points (any order) as bars, oldest on the left, each with
// a tooltip of its bucket and value. label names the series for screen
// readers; hourly says whether buckets are hours (else days).
func barChart(metric, label string, points []chartPoint, hourly bool) template.HTML {
	pts := append([]chartPoint(nil), points...)
	for i := 1; i < len(pts); i++ { // few points: insertion sort, oldest first
		for j := i; j > 0 && pts[j].Timestamp < pts[j-1].Timestamp; j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
	values := make([]*big.Float, len(pts))
	peak := new(big.Float)
	for i, p := range pts {
		v, ok := new(big.Float).SetString(p.Value)
		if !ok || v.Sign() < 0 {
			v = new(big.Float)
		}
		values[i] = v
		if v.Cmp(peak) > 0 {
			peak = v
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-metric="%s" viewBox="0 0 %d %d" role="img" aria-label="%s">`,
		html.EscapeString(metric), chartWidth, chartHeight, html.EscapeString(label))
	plot := float64(chartHeight - chartTop - chartBottom)
	base := chartHeight - chartBottom
	fmt.Fprintf(&b, `<line class="axis" x1="0" y1="%d" x2="%d" y2="%d"/>`, base, chartWidth, base)
	if len(pts) == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">no data yet</text></svg>`, chartWidth/2, chartHeight/2)
		return template.HTML(b.String()) //nolint:gosec // numbers and escaped text only
	}
	slot := float64(chartWidth) / float64(len(pts))
	gap := slot * 0.15
	peakF, _ := peak.Float64()
	for i, p := range pts {
		v, _ := values[i].Float64()
		h := 0.0
		if peakF > 0 {
			h = v / peakF * plot
		}
		if h < 1 && v > 0 {
			h = 1 // a bucket with activity shows
		}
		fmt.Fprintf(&b, `<rect class="bar" x="%.2f" y="%.2f" width="%.2f" height="%.2f" data-timestamp="%d" data-value="%s"><title>%s: %s</title></rect>`,
			float64(i)*slot+gap/2, float64(base)-h, slot-gap, h, p.Timestamp, html.EscapeString(p.Value),
			html.EscapeString(bucketLabel(p.Timestamp, hourly)), html.EscapeString(p.Value))
	}
	fmt.Fprintf(&b, `<text x="2" y="11">max %s</text>`, html.EscapeString(peak.Text('f', -1)))
	fmt.Fprintf(&b, `<text x="2" y="%d">%s</text>`, chartHeight-5, html.EscapeString(bucketLabel(pts[0].Timestamp, hourly)))
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, chartWidth-2, chartHeight-5,
		html.EscapeString(bucketLabel(pts[len(pts)-1].Timestamp, hourly)))
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
