package metrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

func TestAverageTPS(t *testing.T) {
	start := 100 * handlertest.Day
	tests := []struct {
		name   string
		bucket store.TPSBucket
		newest bool
		want   float64
	}{
		{name: "complete day", bucket: store.TPSBucket{Start: start, TxCount: 86400 * 3, LastBlockTs: start + 10}, want: 3},
		{name: "complete day ignores last block", bucket: store.TPSBucket{Start: start, TxCount: 43200, LastBlockTs: start + 5}, want: 0.5},
		{name: "empty day", bucket: store.TPSBucket{Start: start}, want: 0},
		{name: "newest, elapsed part", bucket: store.TPSBucket{Start: start, TxCount: 100, LastBlockTs: start + 99}, newest: true, want: 1},
		{name: "newest, block at midnight", bucket: store.TPSBucket{Start: start, TxCount: 7, LastBlockTs: start}, newest: true, want: 7},
		{name: "newest, last second of day", bucket: store.TPSBucket{Start: start, TxCount: 86400, LastBlockTs: start + handlertest.Day - 1}, newest: true, want: 1},
		{name: "newest, inconsistent last block", bucket: store.TPSBucket{Start: start, TxCount: 5, LastBlockTs: start - 50}, newest: true, want: 5},
		{name: "newest, last block past the day", bucket: store.TPSBucket{Start: start, TxCount: 86400, LastBlockTs: start + 2*handlertest.Day}, newest: true, want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, averageTPS(tt.bucket, tt.newest), 1e-12)
		})
	}
}

type avgTPSBody struct {
	Results []struct {
		Timestamp int64   `json:"timestamp"`
		Value     float64 `json:"value"`
	} `json:"results"`
	Status        int     `json:"status"`
	LastRun       int64   `json:"lastRun"`
	NextPageToken *string `json:"nextPageToken"`
}

func getAvgTPS(t *testing.T, srv *handlertest.API, chainID string, query url.Values) avgTPSBody {
	t.Helper()
	path := "/ext/bc/data/metrics/v1/avg_tps/" + chainID
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	rec := srv.Get(t, path)
	var body avgTPSBody
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	var raw map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &raw)
	if body.NextPageToken == nil {
		require.NotContains(t, raw, "nextPageToken", "omitted, never null")
	}
	return body
}

func TestAvgTPSPaging(t *testing.T) {
	backend := handlertest.NewFakes()
	newest := 19_700 * handlertest.Day
	const elapsed = 3599
	backend.Buckets[netinfo.P] = handlertest.DailyBuckets(25, newest, elapsed)
	applied := time.Unix(newest+elapsed+3, 0)
	backend.FollowerStatuses = []follower.Status{
		{Chain: netinfo.X, LastApplied: time.Unix(1, 0)},
		{Chain: netinfo.P, LastApplied: applied},
	}
	srv := newTestAPI(t, handlertest.Config(), backend)

	var pages []avgTPSBody
	query := url.Values{}
	for {
		page := getAvgTPS(t, srv, "p-chain", query)
		require.Equal(t, http.StatusOK, page.Status)
		require.Equal(t, applied.Unix(), page.LastRun)
		pages = append(pages, page)
		if page.NextPageToken == nil {
			break
		}
		require.Less(t, len(pages), 10, "paging must end")
		query = url.Values{"pageToken": {*page.NextPageToken}}
	}

	require.Len(t, pages, 3)
	require.Len(t, pages[0].Results, 10, "default pageSize")
	require.Len(t, pages[1].Results, 10)
	require.Len(t, pages[2].Results, 5)

	var i int
	for _, page := range pages {
		for _, r := range page.Results {
			bucket := backend.Buckets[netinfo.P][i]
			require.Equal(t, bucket.Start, r.Timestamp, "newest first, no gaps or repeats")
			want := float64(bucket.TxCount) / float64(handlertest.Day)
			if i == 0 {
				want = float64(bucket.TxCount) / float64(elapsed+1)
			}
			require.InDelta(t, want, r.Value, 1e-12, "bucket %d", i)
			i++
		}
	}
	require.Equal(t, 25, i)

	// Each page asks for one more bucket than it returns, starting before
	// the last bucket of the previous page.
	require.Equal(t, []handlertest.TPSCall{
		{Chain: netinfo.P, Before: 0, Limit: 11},
		{Chain: netinfo.P, Before: newest - 9*handlertest.Day, Limit: 11},
		{Chain: netinfo.P, Before: newest - 19*handlertest.Day, Limit: 11},
	}, backend.TPSCalls)
}

func TestAvgTPSPageSizeAndEdges(t *testing.T) {
	backend := handlertest.NewFakes()
	newest := 19_000 * handlertest.Day
	backend.Buckets[netinfo.C] = handlertest.DailyBuckets(4, newest, 0)
	srv := newTestAPI(t, handlertest.Config(), backend)

	page := getAvgTPS(t, srv, "43112", url.Values{"pageSize": {"4"}})
	require.Len(t, page.Results, 4)
	require.Nil(t, page.NextPageToken, "exactly pageSize buckets: no further page")
	require.InDelta(t, float64(1000), page.Results[0].Value, 1e-12, "newest day with one second elapsed")
	require.Zero(t, page.LastRun, "follower never wrote")

	page = getAvgTPS(t, srv, "c-chain", url.Values{"pageSize": {"3"}})
	require.Len(t, page.Results, 3)
	require.NotNil(t, page.NextPageToken)

	// The token is tied to the chain, not to the spelling of its ID.
	next := getAvgTPS(t, srv, fakenet.CChainID.String(), url.Values{"pageToken": {*page.NextPageToken}, "pageSize": {"3"}})
	require.Len(t, next.Results, 1)
	require.Equal(t, newest-3*handlertest.Day, next.Results[0].Timestamp)
	require.InDelta(t, float64(1000+37*3)/float64(handlertest.Day), next.Results[0].Value, 1e-12, "later pages hold complete days")

	empty := getAvgTPS(t, srv, "x-chain", nil)
	require.NotNil(t, empty.Results)
	require.Empty(t, empty.Results)
	require.Nil(t, empty.NextPageToken)
}

func TestAvgTPSChainForms(t *testing.T) {
	backend := handlertest.NewFakes()
	for _, c := range []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C, fakenet.SubnetChain} {
		backend.Buckets[c] = []store.TPSBucket{{Start: int64(c+1) * handlertest.Day, TxCount: 1, LastBlockTs: int64(c+1) * handlertest.Day}}
	}
	srv := newTestAPI(t, handlertest.Config(), backend)
	tests := map[string]netinfo.Chain{
		"p-chain":                      netinfo.P,
		handlertest.PChainID:           netinfo.P,
		"x-chain":                      netinfo.X,
		fakenet.XChainID.String():      netinfo.X,
		"c-chain":                      netinfo.C,
		fakenet.CChainID.String():      netinfo.C,
		"43112":                        netinfo.C,
		"779672":                       fakenet.SubnetChain,
		fakenet.SubnetChainID.String(): fakenet.SubnetChain,
	}
	for segment, chain := range tests {
		page := getAvgTPS(t, srv, segment, nil)
		require.Len(t, page.Results, 1, segment)
		require.Equal(t, int64(chain+1)*handlertest.Day, page.Results[0].Timestamp, segment)
	}
}

func TestAvgTPSBadRequests(t *testing.T) {
	backend := handlertest.NewFakes()
	backend.Buckets[netinfo.P] = handlertest.DailyBuckets(30, 19_000*handlertest.Day, 10)
	srv := newTestAPI(t, handlertest.Config(), backend)

	first := getAvgTPS(t, srv, "p-chain", nil)
	require.NotNil(t, first.NextPageToken)
	pToken := *first.NextPageToken

	otherRoute, err := api.EncodePageToken(backend.Key, api.PageToken{
		Route: "otherRoute", Filters: api.NewFilterHash(routeAvgTPS, "P"), Position: 5, IssuedAt: srv.Clock.Now(),
	})
	require.NoError(t, err)
	forged, err := api.EncodePageToken([]byte("attacker key"), api.PageToken{
		Route: routeAvgTPS, Filters: api.NewFilterHash(routeAvgTPS, "P"), Position: 5, IssuedAt: srv.Clock.Now(),
	})
	require.NoError(t, err)

	tests := []struct {
		name      string
		chain     string
		query     string
		fragments []string
	}{
		{name: "pageSize 0", chain: "p-chain", query: "pageSize=0", fragments: []string{"pageSize", "between 1 and 100"}},
		{name: "pageSize 101", chain: "p-chain", query: "pageSize=101", fragments: []string{"pageSize", "between 1 and 100"}},
		{name: "pageSize text", chain: "p-chain", query: "pageSize=all", fragments: []string{"pageSize"}},
		{name: "unsupported chain", chain: "12", fragments: []string{"chainId", "'12'"}},
		{name: "mainnet C-chain", chain: "43114", fragments: []string{"chainId", "mainnet"}},
		{name: "fuji X-chain id", chain: handlertest.FujiXChain, fragments: []string{"chainId", "x-chain of fuji"}},
		{name: "garbage token", chain: "p-chain", query: "pageToken=abc", fragments: []string{"invalid pageToken"}},
		{name: "truncated token", chain: "p-chain", query: "pageToken=" + pToken[:len(pToken)-3], fragments: []string{"invalid pageToken"}},
		{name: "forged token", chain: "p-chain", query: "pageToken=" + forged, fragments: []string{"invalid pageToken", "signature"}},
		{name: "token of another chain", chain: "x-chain", query: "pageToken=" + pToken, fragments: []string{"invalid pageToken", "other parameters"}},
		{name: "token of another route", chain: "p-chain", query: "pageToken=" + otherRoute, fragments: []string{"invalid pageToken", "another endpoint"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/ext/bc/data/metrics/v1/avg_tps/" + tt.chain
			if tt.query != "" {
				path += "?" + tt.query
			}
			handlertest.RequireMetricsError(t, srv.Get(t, path), http.StatusBadRequest, tt.fragments...)
		})
	}

	t.Run("expired token", func(t *testing.T) {
		path := "/metrics/v1/avg_tps/p-chain?pageToken=" + url.QueryEscape(pToken)
		srv.Clock.Advance(api.MetricsPageTokenLifetime - time.Second)
		handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, nil)
		srv.Clock.Advance(2 * time.Second)
		handlertest.RequireMetricsError(t, srv.Get(t, path), http.StatusBadRequest, "invalid pageToken", "expired", "24h")
	})
}

func TestAvgTPSBackendFailures(t *testing.T) {
	tests := []struct {
		err    error
		status int
	}{
		{err: errors.New("disk on fire"), status: http.StatusInternalServerError},
		{err: fmt.Errorf("reading: %w", context.DeadlineExceeded), status: http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			backend := handlertest.NewFakes()
			backend.TPSErr = tt.err
			srv := newTestAPI(t, handlertest.Config(), backend)
			msg := handlertest.RequireMetricsError(t, srv.Get(t, "/metrics/v1/avg_tps/p-chain"), tt.status)
			require.NotContains(t, msg, "disk on fire", "internal details stay in the log")
		})
	}
}

func TestAvgTPSPassesRequestContext(t *testing.T) {
	backend := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), backend)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://node/metrics/v1/avg_tps/p-chain", nil)
	require.NoError(t, err)
	rec := srv.Serve(req)
	handlertest.RequireMetricsError(t, rec, http.StatusServiceUnavailable)
}

func TestAvgTPSWithoutSigningKeyIsInternal(t *testing.T) {
	backend := handlertest.NewFakes()
	backend.Buckets[netinfo.P] = handlertest.DailyBuckets(3, 19_000*handlertest.Day, 10)
	srv := newTestAPI(t, handlertest.Config(), backend)
	token := *getAvgTPS(t, srv, "p-chain", url.Values{"pageSize": {"1"}}).NextPageToken

	backend.Key = nil
	handlertest.RequireMetricsError(t, srv.Get(t, "/metrics/v1/avg_tps/p-chain?pageSize=1"), http.StatusInternalServerError)
	handlertest.RequireMetricsError(t, srv.Get(t, "/metrics/v1/avg_tps/p-chain?pageToken="+token), http.StatusInternalServerError)
}
