package handlers

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/handlers/serve"
)

func TestAPIKeys(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	tests := []struct {
		name    string
		path    string
		headers []string
		status  int
	}{
		{name: "no key", path: "/v1/status", status: http.StatusOK},
		{name: "known key, spec header", path: "/v1/status", headers: []string{"x-data-api-key", "known-key"}, status: http.StatusOK},
		{name: "known key, SDK header", path: "/v1/status", headers: []string{"x-glacier-api-key", "known-key"}, status: http.StatusOK},
		{name: "unknown key, spec header", path: "/v1/status", headers: []string{"x-data-api-key", "nope"}, status: http.StatusUnauthorized},
		{name: "unknown key, SDK header", path: "/v1/status", headers: []string{"X-Glacier-Api-Key", "nope"}, status: http.StatusUnauthorized},
		{name: "unknown key on unknown route", path: "/nope", headers: []string{"x-data-api-key", "nope"}, status: http.StatusUnauthorized},
		{name: "empty key is no key", path: "/v1/status", headers: []string{"x-data-api-key", ""}, status: http.StatusOK},
		{name: "metrics needs no key", path: "/metrics/v1/avg_tps/p-chain", status: http.StatusOK},
		{name: "metrics accepts a known key", path: "/metrics/v1/avg_tps/p-chain", headers: []string{"x-glacier-api-key", "known-key"}, status: http.StatusOK},
		{name: "metrics ignores an unknown key", path: "/metrics/v1/avg_tps/p-chain", headers: []string{"x-data-api-key", "nope"}, status: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := srv.Get(t, tt.path, tt.headers...)
			if tt.status == http.StatusUnauthorized {
				handlertest.RequireDataError(t, rec, http.StatusUnauthorized, "invalid API key")
				return
			}
			handlertest.RequireJSON(t, rec, tt.status, nil)
		})
	}
}

func TestRateLimitAnonymous(t *testing.T) {
	cfg := serve.Config{APIKeys: []string{"known-key"}, Rates: limits.Rates{AnonymousRPS: 0.5, AnonymousBurst: 2, KeyRPS: 1, KeyBurst: 1}}
	srv := newTestAPI(t, cfg, handlertest.NewFakes(), nil)

	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, nil)
	handlertest.RequireJSON(t, srv.Get(t, "/metrics/v1/avg_tps/p-chain"), http.StatusOK, nil)

	rec := srv.Get(t, "/v1/status")
	handlertest.RequireDataError(t, rec, http.StatusTooManyRequests, "rate limit exceeded")
	require.Equal(t, "2", rec.Header().Get("Retry-After"), "one token at 0.5/s takes 2s")

	// The metrics service shares the anonymous bucket and uses its own body.
	rec = srv.Get(t, "/metrics/v1/avg_tps/p-chain")
	handlertest.RequireMetricsError(t, rec, http.StatusTooManyRequests, "rate limit exceeded")
	require.Equal(t, "2", rec.Header().Get("Retry-After"))

	// Rejections do not consume tokens: after the advertised wait one more
	// request goes through.
	srv.Clock.Advance(2 * time.Second)
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, nil)
	handlertest.RequireDataError(t, srv.Get(t, "/v1/status"), http.StatusTooManyRequests)
}

func TestRateLimitPerKey(t *testing.T) {
	cfg := serve.Config{APIKeys: []string{"key-a", "key-b"}, Rates: limits.Rates{AnonymousRPS: 1, AnonymousBurst: 1, KeyRPS: 0.25, KeyBurst: 3}}
	srv := newTestAPI(t, cfg, handlertest.NewFakes(), nil)

	for range 3 {
		handlertest.RequireJSON(t, srv.Get(t, "/v1/status", "x-data-api-key", "key-a"), http.StatusOK, nil)
	}
	rec := srv.Get(t, "/v1/status", "x-glacier-api-key", "key-a")
	handlertest.RequireDataError(t, rec, http.StatusTooManyRequests)
	require.Equal(t, "4", rec.Header().Get("Retry-After"))

	// Other clients have their own buckets.
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status", "x-data-api-key", "key-b"), http.StatusOK, nil)
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, nil)
	handlertest.RequireDataError(t, srv.Get(t, "/v1/status"), http.StatusTooManyRequests)
}

// getFrom sends GET path as the node would pass on a request from peer
// (empty: a plain HTTP/1.1 request, whose peer the node does not name).
func getFrom(t *testing.T, srv *handlertest.API, path, peer string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://node"+path, nil)
	req.RemoteAddr, req.Host = peer, ""
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	return srv.Serve(req)
}

func TestRateLimitPerClientAddress(t *testing.T) {
	cfg := serve.Config{Rates: limits.Rates{AnonymousRPS: 0.5, AnonymousBurst: 1}}
	srv := newTestAPI(t, cfg, handlertest.NewFakes(), nil)

	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "192.0.2.1:4000"), http.StatusOK, nil)
	rec := getFrom(t, srv, "/v1/status", "192.0.2.1:4001") // same host, other port
	handlertest.RequireDataError(t, rec, http.StatusTooManyRequests, "rate limit exceeded for client 192.0.2.1;", "retry after 2s")
	require.Equal(t, "2", rec.Header().Get("Retry-After"))

	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "192.0.2.2:4000"), http.StatusOK, nil)
	// IPv6 hosts are told apart by /64.
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "[2001:db8:1:2::1]:4000"), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", "[2001:db8:1:2::ffff]:1"), http.StatusTooManyRequests,
		"client 2001:db8:1:2::/64")
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "[2001:db8:1:3::1]:4000"), http.StatusOK, nil)
	// Requests without an address share one bucket, apart from the others.
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", ""), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", ""), http.StatusTooManyRequests,
		"clients whose address the node does not pass on")
}

func TestRateLimitForwardedFor(t *testing.T) {
	cfg := serve.Config{Rates: limits.Rates{AnonymousRPS: 0.5, AnonymousBurst: 1, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	srv := newTestAPI(t, cfg, handlertest.NewFakes(), nil)
	const proxy = "10.1.1.1:5000"

	// Behind a trusted proxy, each forwarded client has its own bucket.
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", proxy, "X-Forwarded-For", "198.51.100.1"), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", proxy, "X-Forwarded-For", "198.51.100.1"),
		http.StatusTooManyRequests, "client 198.51.100.1;")
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", proxy, "X-Forwarded-For", "198.51.100.2"), http.StatusOK, nil)
	// A client cannot pick its bucket by sending its own X-Forwarded-For:
	// the trusted proxy appends the real address, which is what counts.
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", proxy, "X-Forwarded-For", "203.0.113.9, 198.51.100.1"),
		http.StatusTooManyRequests, "client 198.51.100.1;")
	// Chains of trusted proxies are followed, also across header lines.
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", proxy,
		"X-Forwarded-For", "198.51.100.2", "X-Forwarded-For", "10.9.9.9"), http.StatusTooManyRequests, "client 198.51.100.2;")

	// From an untrusted peer the header is ignored: the peer is the client.
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "192.0.2.7:1", "X-Forwarded-For", "198.51.100.3"), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", "192.0.2.7:1", "X-Forwarded-For", "198.51.100.4"),
		http.StatusTooManyRequests, "client 192.0.2.7;")
	// So it is from an unknown peer, by default.
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "", "X-Forwarded-For", "198.51.100.5"), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", "", "X-Forwarded-For", "198.51.100.6"),
		http.StatusTooManyRequests, "does not pass on")
}

func TestRateLimitTrustUnknownPeer(t *testing.T) {
	cfg := serve.Config{Rates: limits.Rates{AnonymousRPS: 0.5, AnonymousBurst: 1, TrustUnknownPeer: true}}
	srv := newTestAPI(t, cfg, handlertest.NewFakes(), nil)
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "", "X-Forwarded-For", "198.51.100.1"), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", "", "X-Forwarded-For", "198.51.100.1"),
		http.StatusTooManyRequests, "client 198.51.100.1;")
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", "", "X-Forwarded-For", "198.51.100.2"), http.StatusOK, nil)
	// Without the header, such requests still share the unknown bucket.
	handlertest.RequireJSON(t, getFrom(t, srv, "/v1/status", ""), http.StatusOK, nil)
	handlertest.RequireDataError(t, getFrom(t, srv, "/v1/status", ""), http.StatusTooManyRequests, "does not pass on")
}

func TestRateLimitMetricsByClientSource(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	getFrom(t, srv, "/v1/status", "")
	getFrom(t, srv, "/v1/status", "192.0.2.1:1")
	getFrom(t, srv, "/v1/status", "127.0.0.1:1", "X-Forwarded-For", "192.0.2.1")
	getFrom(t, srv, "/v1/status", "", "x-data-api-key", "known-key")
	getFrom(t, srv, "/v1/status", "", "x-data-api-key", "unknown-key") // 401: not counted
	families, err := srv.Registry.Gather()
	require.NoError(t, err)
	counts := map[string]float64{}
	var buckets float64
	for _, f := range families {
		switch f.GetName() {
		case "api_requests_by_client_source_total":
			for _, m := range f.GetMetric() {
				counts[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
			}
		case "api_rate_limit_client_buckets":
			buckets = f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	require.Equal(t, map[string]float64{"unknown_peer": 1, "peer": 1, "forwarded": 1, "api_key": 1}, counts)
	require.InDelta(t, 2, buckets, 0, "the unknown bucket and 192.0.2.1's")
}
