package metrics

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// What the tests read from the Metrics API, and how they compare it with
// the recomputation (package truth).

// apiPoint is one point of a MetricsApiResponse, its value as written.
type apiPoint struct {
	Value     json.Number `json:"value"`
	Timestamp int64       `json:"timestamp"`
}

// decodeNumbers decodes a JSON body keeping numbers as written.
func decodeNumbers(t *testing.T, body []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	require.NoError(t, d.Decode(v), "body: %s", body)
}

// seriesURL is the URL of a chain metric's series.
func seriesURL(metricsBase, chainID, metric string, q url.Values) string {
	u := metricsBase + "/v2/chains/" + url.PathEscape(chainID) + "/metrics/" + metric
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// getSeries reads a whole series, following nextPageToken with the same
// query; it returns the points and how many pages they came in.
func getSeries(t *testing.T, ctx context.Context, u string) ([]apiPoint, int) {
	t.Helper()
	var all []apiPoint
	next := u
	for pages := 1; ; pages++ {
		r := harness.GetWithRetryAfter(t, ctx, next)
		require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", next, r.Body)
		require.Contains(t, r.Header.Get("Content-Type"), "application/json", "GET %s", next)
		harness.RequireNoNulls(t, r.Body, next)
		var body struct {
			NextPageToken *string    `json:"nextPageToken"`
			Results       []apiPoint `json:"results"`
		}
		decodeNumbers(t, r.Body, &body)
		require.NotNil(t, body.Results, "GET %s: no results array: %s", next, r.Body)
		all = append(all, body.Results...)
		if body.NextPageToken == nil {
			return all, pages
		}
		require.NotEmpty(t, *body.NextPageToken, "GET %s: an empty nextPageToken", next)
		require.NotEmpty(t, body.Results, "GET %s: a page with a next token and no results", next)
		require.Less(t, pages, 10000, "GET %s: paging does not end", u)
		next = harness.WithQuery(u, "pageToken", *body.NextPageToken)
	}
}

// requireSeries checks a series read from the API against the truth.
func requireSeries(t *testing.T, what string, want []truth.MetricsPoint, got []apiPoint) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: points: want %s, got %v", what, describeWant(want), got)
	for i, w := range want {
		g := got[i]
		require.Equal(t, w.Timestamp, g.Timestamp, "%s: point %d: want %s, got %v", what, i, describeWant(want), got)
		require.True(t, w.Value.Matches(g.Value.String()), "%s: point %d (bucket %d): value %s, want %s (whole series: want %s, got %v)",
			what, i, w.Timestamp, g.Value, w.Value, describeWant(want), got)
	}
}

func describeWant(ps []truth.MetricsPoint) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "{%s %d}", p.Value, p.Timestamp)
	}
	b.WriteByte(']')
	return b.String()
}

// rollingURL is the URL of a chain's rolling window metric.
func rollingURL(metricsBase, chainID, metric string) string {
	return metricsBase + "/v2/chains/" + url.PathEscape(chainID) + "/rollingWindowMetrics/" + metric
}

// getRolling reads a rolling window reply: its windows by key.
func getRolling(t *testing.T, ctx context.Context, u string) map[string]json.Number {
	t.Helper()
	r := harness.GetWithRetryAfter(t, ctx, u)
	require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
	require.Contains(t, r.Header.Get("Content-Type"), "application/json", "GET %s", u)
	harness.RequireNoNulls(t, r.Body, u)
	var body struct {
		Result map[string]json.Number `json:"result"`
	}
	decodeNumbers(t, r.Body, &body)
	require.NotNil(t, body.Result, "GET %s: no result object: %s", u, r.Body)
	return body.Result
}

// requireRolling checks a rolling window reply against the truth: every
// window it serves has the right value, and it serves every one the truth
// has (all are exact over a chain indexed from genesis).
func requireRolling(t *testing.T, what string, want map[string]truth.MetricsValue, got map[string]json.Number) {
	t.Helper()
	for k := range got {
		_, ok := want[k]
		require.True(t, ok, "%s: a window %q the SDK does not have: %v", what, k, got)
	}
	for _, w := range truth.RollingWindows() {
		g, ok := got[w.Key]
		if _, served := want[w.Key]; !served {
			require.False(t, ok, "%s: %s is not a window of this metric: %v", what, w.Key, got)
			continue
		}
		require.True(t, ok, "%s: no %s (every window is exact on a chain indexed from genesis): %v", what, w.Key, got)
		require.True(t, want[w.Key].Matches(g.String()), "%s: %s is %s, want %s", what, w.Key, g, want[w.Key])
	}
}

func i64(v int64) *int64 { return &v }

// rangeQuery is the query of a series request.
func rangeQuery(g truth.MetricsGranularity, start, end *int64, pageSize int) url.Values {
	q := url.Values{}
	if g != "" {
		q.Set("timeInterval", string(g))
	}
	if start != nil {
		q.Set("startTimestamp", strconv.FormatInt(*start, 10))
	}
	if end != nil {
		q.Set("endTimestamp", strconv.FormatInt(*end, 10))
	}
	if pageSize > 0 {
		q.Set("pageSize", strconv.Itoa(pageSize))
	}
	return q
}
