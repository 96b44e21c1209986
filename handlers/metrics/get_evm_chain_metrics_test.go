package metrics

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

type seriesBody struct {
	NextPageToken *string `json:"nextPageToken"`
	Results       []struct {
		Value     json.Number `json:"value"`
		Timestamp int64       `json:"timestamp"`
	} `json:"results"`
}

func seriesPath(chainID, metric string, q url.Values) string {
	path := "/ext/bc/data/metrics/v2/chains/" + chainID + "/metrics/" + metric
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return path
}

// getSeries fetches one page (200 expected).
func getSeries(t *testing.T, srv *handlertest.API, chainID, metric string, q url.Values) (seriesBody, *httptest.ResponseRecorder) {
	t.Helper()
	rec := srv.Get(t, seriesPath(chainID, metric, q))
	var body seriesBody
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	var raw map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &raw)
	handlertest.RequireNoNulls(t, raw)
	require.NotNil(t, body.Results, "results is an array, never absent: %s", rec.Body.String())
	if body.NextPageToken != nil {
		require.NotEmpty(t, body.Results, "a page with a next page is not empty")
	}
	return body, rec
}

// allPages walks every page of a query, checking no page repeats or skips.
func allPages(t *testing.T, srv *handlertest.API, chainID, metric string, q url.Values) seriesBody {
	t.Helper()
	var all seriesBody
	query := url.Values{}
	for k, v := range q {
		query[k] = v
	}
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5000, "paging ends")
		page, _ := getSeries(t, srv, chainID, metric, query)
		all.Results = append(all.Results, page.Results...)
		if page.NextPageToken == nil {
			return all
		}
		query.Set("pageToken", *page.NextPageToken)
	}
}

// requireSeries compares a series with the oracle's: the same buckets,
// integers in all their digits, ratios the float nearest the exact value.
func requireSeries(t *testing.T, want []oPoint, got seriesBody, integer bool, what string) {
	t.Helper()
	require.Len(t, got.Results, len(want), what)
	for i, w := range want {
		g := got.Results[i]
		require.Equal(t, w.ts, g.Timestamp, "%s: point %d", what, i)
		if integer {
			require.True(t, w.value.IsInt(), "%s: the oracle's integer", what)
			require.Equal(t, w.value.Num().String(), g.Value.String(), "%s at %d", what, w.ts)
			continue
		}
		f, _ := w.value.Float64()
		v, err := strconv.ParseFloat(g.Value.String(), 64)
		require.NoError(t, err)
		require.Equal(t, f, v, "%s at %d: %s", what, w.ts, g.Value)
	}
}

// oracleAPI serves the chains: C, and dispatch when given.
func oracleAPI(t *testing.T, c, dispatch *oChain) (*handlertest.API, *handlertest.Fakes) {
	t.Helper()
	fakes := handlertest.NewFakes()
	if c != nil {
		fakes.SetChainBuckets(netinfo.C, oracleBuckets(*c))
	}
	if dispatch != nil {
		fakes.SetChainBuckets(fakenet.SubnetChain, oracleBuckets(*dispatch))
	}
	return newTestAPI(t, handlertest.Config(), fakes), fakes
}

var subnetChainID = strconv.Itoa(fakenet.SubnetEVMChainID)

// Every metric at every granularity, of each chain and of their aggregate,
// is the oracle's series: dense, newest first, gaps 0 (running totals
// carried), aggregated by the documented rules.
func TestChainMetricsEveryMetricAndGranularity(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	d := newOracleChain(2, 5, 40) // starts later and ends earlier than C
	srv, _ := oracleAPI(t, &c, &d)
	require.Len(t, chainMetrics(), 17)
	for _, m := range chainMetrics() {
		for _, g := range metricdata.Granularities() {
			q := url.Values{"timeInterval": {g.String()}, "pageSize": {"2160"}}
			for _, tc := range []struct {
				chainID string
				chains  []oChain
			}{
				{"43112", []oChain{c}},
				{subnetChainID, []oChain{d}},
				{"total", []oChain{c, d}},
				{"testnet", []oChain{c, d}},
			} {
				what := fmt.Sprintf("%s %s of %s", g, m.name, tc.chainID)
				got, _ := getSeries(t, srv, tc.chainID, m.name, q)
				require.Nil(t, got.NextPageToken, what)
				want := oracleSeries(tc.chains, m.name, g, nil, nil)
				require.NotEmpty(t, want)
				requireSeries(t, want, got, m.integer, what)
			}
		}
	}
	// timeInterval absent is day; pageSize absent is 100.
	got, _ := getSeries(t, srv, "c-chain", "txCount", nil)
	requireSeries(t, oracleSeries([]oChain{c}, "txCount", metricdata.Day, nil, nil), got, true, "default day")
	got, _ = getSeries(t, srv, "c-chain", "txCount", url.Values{"timeInterval": {"hour"}})
	requireSeries(t, oracleSeries([]oChain{c}, "txCount", metricdata.Hour, nil, nil)[:100], got, true, "default pageSize")
	require.NotNil(t, got.NextPageToken)
}

// The fixture has what the test claims: gaps, weeks, months, hours, and
// amounts beyond 2^64.
func TestChainMetricsOracleFixture(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	days := oracleSeries([]oChain{c}, "txCount", metricdata.Day, nil, nil)
	months := oracleSeries([]oChain{c}, "txCount", metricdata.Month, nil, nil)
	fees := oracleSeries([]oChain{c}, "feesPaid", metricdata.Week, nil, nil)
	var empty int
	for _, p := range days {
		if p.value.Sign() == 0 {
			empty++
		}
	}
	require.Greater(t, empty, 8, "days without transactions")
	require.Len(t, months, 3, "January to March")
	var huge bool
	for _, p := range fees {
		huge = huge || p.value.Num().Cmp(new(big.Int).Lsh(big.NewInt(1), 64)) > 0
	}
	require.True(t, huge, "fees above 2^64 wei")
}

// startTimestamp and endTimestamp cut the series to the buckets holding
// them, within the chain's own span; paging never repeats or skips a
// bucket, whatever the page size, and a running total carries its value
// into the empty buckets at the bottom of a page.
func TestChainMetricsRangesAndPaging(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	d := newOracleChain(2, 5, 40)
	srv, _ := oracleAPI(t, &c, &d)
	ts := func(day, hour int64) *int64 { v := oracleBase + day*86400 + hour*3600 + 17; return &v }
	ranges := []struct{ start, end *int64 }{
		{nil, nil},
		{ts(10, 5), ts(30, 20)},
		{ts(13, 0), ts(17, 0)}, // inside the week without blocks
		{ts(-100, 0), ts(500, 0)},
		{ts(20, 3), ts(20, 3)},
		{nil, ts(25, 12)},
		{ts(40, 1), nil},
	}
	for _, m := range []string{"txCount", "cumulativeTxCount", "cumulativeAddresses", "avgTps", "maxGps", "avgGasPrice", "feesPaid"} {
		metric, _ := lookupChainMetric(m)
		for _, g := range metricdata.Granularities() {
			for _, r := range ranges {
				for _, size := range []int{1, 3, 7, 50, 2160} {
					if g == metricdata.Hour && size < 50 {
						continue // hundreds of pages
					}
					q := url.Values{"timeInterval": {g.String()}, "pageSize": {strconv.Itoa(size)}}
					if r.start != nil {
						q.Set("startTimestamp", strconv.FormatInt(*r.start, 10))
					}
					if r.end != nil {
						q.Set("endTimestamp", strconv.FormatInt(*r.end, 10))
					}
					for _, tc := range []struct {
						chainID string
						chains  []oChain
					}{{"43112", []oChain{c}}, {"total", []oChain{c, d}}} {
						what := fmt.Sprintf("%s %s of %s, %s, pageSize %d", g, m, tc.chainID, q.Encode(), size)
						got := allPages(t, srv, tc.chainID, m, q)
						requireSeries(t, oracleSeries(tc.chains, m, g, r.start, r.end), got, metric.integer, what)
					}
				}
			}
		}
	}
}

// A page costs one read per chain, bounded by the page size (the first
// page with an endTimestamp one more: whether the chain goes on after it).
func TestChainMetricsReadCost(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	d := newOracleChain(2, 5, 40)
	srv, fakes := oracleAPI(t, &c, &d)
	for _, tc := range []struct {
		chainID    string
		chains     int
		end        bool
		metric     string
		lookBehind int
	}{
		{"43112", 1, false, "cumulativeTxCount", 1},
		{"total", 2, false, "activeAddresses", 1},
		{"43112", 1, true, "txCount", 1},
		{"total", 2, true, "avgTps", 1},
	} {
		q := url.Values{"timeInterval": {"hour"}, "pageSize": {"24"}, "startTimestamp": {strconv.FormatInt(oracleBase, 10)}}
		if tc.end {
			q.Set("endTimestamp", strconv.FormatInt(oracleBase+30*86400+5, 10))
		}
		fakes.ChainBucketCalls()
		for page := 0; page < 5; page++ {
			body, _ := getSeries(t, srv, tc.chainID, tc.metric, q)
			calls := fakes.ChainBucketCalls()
			want := tc.chains
			if page == 0 && tc.end {
				want = 2 * tc.chains
			}
			require.LessOrEqual(t, len(calls), want, "page %d of %+v", page, tc)
			require.GreaterOrEqual(t, len(calls), tc.chains)
			for _, call := range calls {
				require.LessOrEqual(t, call.Limit, 24+tc.lookBehind)
				require.Equal(t, metricdata.Hour, call.Granularity)
			}
			require.NotNil(t, body.NextPageToken)
			q.Set("pageToken", *body.NextPageToken)
		}
	}
	// A partial chain reads one bucket more.
	fakes.EVM.SetHistoryFrom(netinfo.C, 40)
	fakes.ChainBucketCalls()
	getSeries(t, srv, "43112", "txCount", url.Values{"pageSize": {"7"}})
	require.Equal(t, []handlertest.ChainBucketsCall{{Chain: netinfo.C, Granularity: metricdata.Day, From: 0, To: math.MaxInt64, Limit: 9}},
		fakes.ChainBucketCalls())
}

// A page token resumes only its own query, for 24 hours.
func TestChainMetricsPageTokenBoundToQuery(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	srv, _ := oracleAPI(t, &c, nil)
	q := url.Values{"timeInterval": {"day"}, "pageSize": {"5"}, "startTimestamp": {strconv.FormatInt(oracleBase, 10)}}
	first, _ := getSeries(t, srv, "43112", "txCount", q)
	require.NotNil(t, first.NextPageToken)
	token := *first.NextPageToken

	with := func(key, value string) url.Values {
		other := url.Values{"pageToken": {token}}
		for k, v := range q {
			other[k] = v
		}
		other.Set(key, value)
		return other
	}
	// The same query, by another name of the chain, resumes.
	resumed := with("pageToken", token)
	page, _ := getSeries(t, srv, "c-chain", "txCount", resumed)
	require.Len(t, page.Results, 5)
	require.Less(t, page.Results[0].Timestamp, first.Results[4].Timestamp)

	for name, tc := range map[string]struct {
		chainID, metric string
		q               url.Values
	}{
		"another metric":         {"43112", "gasUsed", resumed},
		"another timeInterval":   {"43112", "txCount", with("timeInterval", "hour")},
		"another startTimestamp": {"43112", "txCount", with("startTimestamp", strconv.FormatInt(oracleBase+86400, 10))},
		"an endTimestamp":        {"43112", "txCount", with("endTimestamp", strconv.FormatInt(oracleBase+86400*30, 10))},
		"another chain":          {subnetChainID, "txCount", resumed},
		"the aggregate":          {"total", "txCount", resumed},
		"a malformed token":      {"43112", "txCount", with("pageToken", "nonsense")},
	} {
		rec := srv.Get(t, seriesPath(tc.chainID, tc.metric, tc.q))
		handlertest.RequireMetricsError(t, rec, http.StatusBadRequest, "pageToken")
		_ = name
	}

	srv.Clock.Advance(24*time.Hour + time.Second)
	rec := srv.Get(t, seriesPath("43112", "txCount", resumed))
	handlertest.RequireMetricsError(t, rec, http.StatusBadRequest, "pageToken")
}

// A chain indexed from above genesis: its bucket holding the first counted
// block and every earlier one are left out, on whichever page they would
// fall; running totals are a 400 naming the block; the reply says where
// the history starts. In an aggregate, the series starts where the
// partial chain is complete.
func TestChainMetricsPartialHistory(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	c.from = 40 // the metrics count from block 40
	d := newOracleChain(2, 5, 40)
	srv, fakes := oracleAPI(t, &c, &d)
	fakes.EVM.SetHistoryFrom(netinfo.C, 40)

	for _, g := range metricdata.Granularities() {
		for _, m := range []string{"txCount", "avgTps", "maxTps", "activeAddresses"} {
			metric, _ := lookupChainMetric(m)
			want := oracleSeries([]oChain{c}, m, g, nil, nil)
			wantTotal := oracleSeries([]oChain{c, d}, m, g, nil, nil)
			for _, size := range []int{1, 2, 3, 4, 5, 9, 2160} {
				if g == metricdata.Hour && size < 9 {
					continue
				}
				q := url.Values{"timeInterval": {g.String()}, "pageSize": {strconv.Itoa(size)}}
				requireSeries(t, want, allPages(t, srv, "43112", m, q), metric.integer, fmt.Sprintf("%s %s size %d", g, m, size))
				requireSeries(t, wantTotal, allPages(t, srv, "total", m, q), metric.integer, fmt.Sprintf("total %s %s size %d", g, m, size))
			}
		}
	}
	// The first counted block's bucket is really left out.
	blocks, _ := c.counted()
	days := oracleSeries([]oChain{c}, "txCount", metricdata.Day, nil, nil)
	require.Equal(t, metricdata.Day.Next(metricdata.Day.Start(blocks[0].ts)), days[len(days)-1].ts)

	_, rec := getSeries(t, srv, "43112", "txCount", nil)
	require.Equal(t, "40", rec.Header().Get(api.HeaderHistoryFrom))
	_, rec = getSeries(t, srv, "total", "txCount", nil)
	require.Equal(t, "40", rec.Header().Get(api.HeaderHistoryFrom))
	_, rec = getSeries(t, srv, subnetChainID, "txCount", nil)
	require.Empty(t, rec.Header().Get(api.HeaderHistoryFrom))

	for _, m := range []string{"cumulativeTxCount", "cumulativeAddresses", "cumulativeContracts", "cumulativeDeployers"} {
		for _, chainID := range []string{"43112", "c-chain", "total"} {
			rec := srv.Get(t, seriesPath(chainID, m, url.Values{"timeInterval": {"hour"}}))
			handlertest.RequireMetricsError(t, rec, http.StatusBadRequest, "block 40", m, "running total")
		}
		getSeries(t, srv, subnetChainID, m, nil) // the whole chain still answers
	}

	// While a back-fill fills the blocks below, the metrics count from
	// where the index started: the same answers, saying so.
	fakes.EVM.SetHistoryFrom(netinfo.C, 10)
	fakes.EVM.SetRunningState(netinfo.C, 40, true)
	requireSeries(t, oracleSeries([]oChain{c}, "gasUsed", metricdata.Week, nil, nil),
		allPages(t, srv, "43112", "gasUsed", url.Values{"timeInterval": {"week"}, "pageSize": {"2"}}), true, "during a back-fill")
	rec = srv.Get(t, seriesPath("43112", "cumulativeTxCount", nil))
	handlertest.RequireMetricsError(t, rec, http.StatusBadRequest, "back-fill", "block 40")
	require.Equal(t, "40", rec.Header().Get(api.HeaderHistoryFrom), "the first block the figures count")
}

// While a back-fill re-derives a chain's metrics, every metric of it, and
// of the aggregates, is a 503 saying so.
func TestChainMetricsRederiving(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	d := newOracleChain(2, 5, 40)
	srv, fakes := oracleAPI(t, &c, &d)
	fakes.EVM.SetHistoryFrom(netinfo.C, 10)
	fakes.EVM.SetRunningState(netinfo.C, 10, false)
	for _, m := range chainMetricNames() {
		for _, chainID := range []string{"43112", "total", "testnet"} {
			rec := srv.Get(t, seriesPath(chainID, m, nil))
			handlertest.RequireMetricsError(t, rec, http.StatusServiceUnavailable, "re-deriving", m)
		}
	}
	getSeries(t, srv, subnetChainID, "txCount", nil)
}

// A chain without any bucket yet: an empty series.
func TestChainMetricsNoBlocks(t *testing.T) {
	srv, _ := oracleAPI(t, nil, nil)
	for _, chainID := range []string{"43112", subnetChainID, "total"} {
		got, _ := getSeries(t, srv, chainID, "cumulativeTxCount", url.Values{"timeInterval": {"month"}})
		require.Empty(t, got.Results)
		require.Nil(t, got.NextPageToken)
	}
}

// Every bad input is a 400 in the metrics error body, saying what is
// wrong and what is allowed.
func TestChainMetricsBadInput(t *testing.T) {
	c := newOracleChain(1, 0, 56)
	srv, _ := oracleAPI(t, &c, nil)
	ok := url.Values{}
	for _, tc := range []struct {
		name, chainID, metric string
		q                     url.Values
		status                int
		fragments             []string
	}{
		{"unknown metric", "43112", "txcount", ok, 400, []string{"invalid metric 'txcount'", "'activeAddresses'", "'feesPaid'", "'cumulativeDeployers'"}},
		{"rolling window metric name", "43112", "lastDay", ok, 400, []string{"invalid metric"}},
		{"unknown EVM chain id", "999999", "txCount", ok, 400, []string{"unsupported chainId '999999'", "43112", "'total'", "'testnet'"}},
		{"unknown name", "dispatch-chain", "txCount", ok, 400, []string{"chainId", "'total'"}},
		{"another network's C-chain", "43114", "txCount", ok, 400, []string{"C-chain of mainnet"}},
		{"the P-chain", "p-chain", "txCount", ok, 400, []string{"chainId"}},
		{"mainnet on a local node", "mainnet", "txCount", ok, 400, []string{"this node serves network 'local'", "'testnet'", "'total'"}},
		{"unknown timeInterval", "43112", "txCount", url.Values{"timeInterval": {"minute"}}, 400,
			[]string{"invalid timeInterval 'minute'", "'hour', 'day', 'week', 'month'"}},
		{"capitalized timeInterval", "43112", "avgTps", url.Values{"timeInterval": {"Day"}}, 400, []string{"timeInterval"}},
		{"inverted range", "43112", "txCount", url.Values{"startTimestamp": {"1706200000"}, "endTimestamp": {"1706100000"}}, 400,
			[]string{"startTimestamp", "must not be after", "endTimestamp"}},
		{"milliseconds", "43112", "txCount", url.Values{"startTimestamp": {"1706140800000"}}, 400, []string{"startTimestamp", "milliseconds"}},
		{"end beyond year 9999", "43112", "txCount", url.Values{"endTimestamp": {"253402300800"}}, 400, []string{"endTimestamp"}},
		{"negative", "43112", "txCount", url.Values{"startTimestamp": {"-1"}}, 400, []string{"startTimestamp"}},
		{"not a number", "43112", "txCount", url.Values{"endTimestamp": {"yesterday"}}, 400, []string{"endTimestamp"}},
		{"pageSize 0", "43112", "txCount", url.Values{"pageSize": {"0"}}, 400, []string{"pageSize", "2160"}},
		{"pageSize 2161", "total", "txCount", url.Values{"pageSize": {"2161"}}, 400, []string{"pageSize", "between 1 and 2160"}},
		{"pageSize abc", "43112", "txCount", url.Values{"pageSize": {"abc"}}, 400, []string{"pageSize"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := srv.Get(t, seriesPath(tc.chainID, tc.metric, tc.q))
			handlertest.RequireMetricsError(t, rec, tc.status, tc.fragments...)
		})
	}
}

// The aggregates name the node's network: testnet on a local node (and
// Fuji), mainnet on mainnet; total anywhere.
func TestChainMetricsAggregateNames(t *testing.T) {
	c := newOracleChain(1, 0, 20)
	srv, fakes := oracleAPI(t, &c, nil)
	want := oracleSeries([]oChain{c}, "txCount", metricdata.Week, nil, nil)
	for _, chainID := range []string{"total", "Total", "testnet"} {
		got, _ := getSeries(t, srv, chainID, "txCount", url.Values{"timeInterval": {"week"}})
		requireSeries(t, want, got, true, chainID)
	}
	_ = fakes
}
