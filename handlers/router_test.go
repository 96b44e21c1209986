package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/limits"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

func TestStripChainPrefix(t *testing.T) {
	tests := map[string]string{
		"/ext/bc/" + testCChainID.String() + "/v1/status": "/v1/status",
		"/ext/bc/data/v1/status":                          "/v1/status",
		"/ext/bc/data/metrics/v1/avg_tps/43112":           "/metrics/v1/avg_tps/43112",
		"/ext/bc/data":                                    "/",
		"/ext/bc/data/":                                   "/",
		"/v1/status":                                      "/v1/status",
		"/":                                               "/",
		"":                                                "/",
		"/ext/bcx/data/v1/status":                         "/ext/bcx/data/v1/status",
	}
	for in, want := range tests {
		require.Equal(t, want, api.StripChainPrefix(in), in)
	}
}

func TestPathStrippingServesRoutes(t *testing.T) {
	backend := newFakeBackend()
	srv := newTestAPI(t, testConfig(), backend, nil)
	for _, path := range []string{
		"/ext/bc/2ZcCThBa8xNmhVgB1XtEeXpXM4RWuvgDWkYjc9Py2qqX1CqrJ8/v1/status", // cb58 chain ID
		"/ext/bc/data/v1/status", // alias
		"/v1/status",             // tests: no prefix
	} {
		t.Run(path, func(t *testing.T) {
			var body StatusResponse
			requireJSON(t, srv.get(t, path), http.StatusOK, &body)
			require.Equal(t, "local", body.Network.Name)
		})
	}
}

func TestIndex(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	for _, path := range []string{"/ext/bc/data", "/ext/bc/data/", "/"} {
		var body indexResponse
		requireJSON(t, srv.get(t, path), http.StatusOK, &body)
		require.Equal(t, "avadata", body.Name)
		require.Equal(t, "v-test", body.Version)
		require.Equal(t, "local", body.Network)
		paths := make([]string, len(body.Endpoints))
		for i, e := range body.Endpoints {
			paths[i] = e.Method + " " + e.Path
		}
		require.Contains(t, paths, "GET /metrics/v1/avg_tps/{chainId}")
		require.Contains(t, paths, "GET /v1/status")
		require.Contains(t, paths, "POST /rpc")
	}
}

func TestStatusEndpoint(t *testing.T) {
	backend := newFakeBackend()
	applied := time.Unix(1_700_000_123, 0).UTC()
	backend.statuses = []follower.Status{
		{Chain: netinfo.P, ChainName: "P", IndexedHeight: 10, NodeHeight: 12, Lag: 2, LastApplied: applied, Running: true},
		{Chain: netinfo.C, ChainName: "C", LastError: "boom"},
	}
	srv := newTestAPI(t, testConfig(), backend, nil)

	var body map[string]any
	requireJSON(t, srv.get(t, "/v1/status"), http.StatusOK, &body)
	require.Equal(t, "v-test", body["version"])
	require.Equal(t, map[string]any{
		"name": "local", "networkId": 12345.0, "evmChainId": 43112.0,
		"evmChains": []any{
			map[string]any{"name": "C", "blockchainId": testCChainID.String(), "evmChainId": 43112.0},
			map[string]any{"name": "dispatch", "blockchainId": testSubnetChainID.String(), "evmChainId": 779672.0},
		},
	}, body["network"])
	chains := body["chains"].([]any)
	require.Len(t, chains, 2)
	p := chains[0].(map[string]any)
	require.Equal(t, "P", p["chain"])
	require.InDelta(t, 10, p["indexedHeight"], 0)
	require.NotContains(t, p, "lastError", "optional fields are omitted")
	require.Equal(t, "boom", chains[1].(map[string]any)["lastError"])

	backend.statuses = nil
	requireJSON(t, srv.get(t, "/v1/status"), http.StatusOK, &body)
	require.Equal(t, []any{}, body["chains"], "an empty list, never null")
}

func TestUnknownRoutes(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	tests := []struct {
		method, path string
		status       int
		metrics      bool
	}{
		{method: http.MethodGet, path: "/ext/bc/data/v1/nope", status: http.StatusNotFound},
		{method: http.MethodGet, path: "/v1/status/", status: http.StatusNotFound},
		{method: http.MethodGet, path: "//v1/status", status: http.StatusNotFound},
		{method: http.MethodGet, path: "/ext/bc/data/metrics/v1/nope", status: http.StatusNotFound, metrics: true},
		{method: http.MethodGet, path: "/metrics", status: http.StatusNotFound, metrics: true},
		{method: http.MethodGet, path: "/metrics/v1/avg_tps", status: http.StatusNotFound, metrics: true},
		{method: http.MethodPost, path: "/v1/status", status: http.StatusMethodNotAllowed},
		{method: http.MethodGet, path: "/rpc", status: http.StatusMethodNotAllowed},
		{method: http.MethodDelete, path: "/metrics/v1/avg_tps/43112", status: http.StatusMethodNotAllowed, metrics: true},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rec := srv.request(t, tt.method, tt.path, "")
			if tt.metrics {
				requireMetricsError(t, rec, tt.status, tt.method)
			} else {
				requireDataError(t, rec, tt.status, tt.method)
			}
		})
	}
}

func TestOpenAPIDocument(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	requireJSON(t, srv.get(t, "/ext/bc/data/openapi.json"), http.StatusOK, &doc)
	require.Equal(t, "3.1.0", doc.OpenAPI)
	require.Equal(t, "v-test", doc.Info.Version)
	require.Contains(t, doc.Components.Schemas, "ErrorResponse")
	require.Contains(t, doc.Components.Schemas, "MetricsErrorResponse")

	// The document describes exactly the routing table.
	s := newTestServer(newFakeBackend().readers(), time.Now)
	routes, err := s.routes(nil)
	require.NoError(t, err)
	var fromRoutes, fromDoc []string
	for _, rt := range routes {
		fromRoutes = append(fromRoutes, strings.ToLower(rt.Method)+" "+rt.Path)
	}
	for path, ops := range doc.Paths {
		for method := range ops {
			fromDoc = append(fromDoc, method+" "+path)
		}
	}
	slices.Sort(fromRoutes)
	slices.Sort(fromDoc)
	require.Equal(t, fromRoutes, fromDoc)
}

func TestContentTypeOnEveryReply(t *testing.T) {
	backend := newFakeBackend()
	srv := newTestAPI(t, testConfig(), backend, nil)
	for _, tt := range []struct{ method, path, body string }{
		{http.MethodGet, "/", ""},
		{http.MethodGet, "/openapi.json", ""},
		{http.MethodGet, "/v1/status", ""},
		{http.MethodGet, "/metrics/v1/avg_tps/p-chain", ""},
		{http.MethodGet, "/metrics/v1/avg_tps/bad", ""},
		{http.MethodGet, "/nope", ""},
		{http.MethodPost, "/rpc", `{"jsonrpc":"2.0","method":"avadata.status","id":1}`},
		{http.MethodPost, "/rpc", `{`},
		{http.MethodPost, "/rpc", `{"jsonrpc":"2.0","method":"avadata.status"}`}, // notification: empty reply
	} {
		rec := srv.request(t, tt.method, tt.path, tt.body)
		require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json"),
			"%s %s: %q", tt.method, tt.path, rec.Header().Get("Content-Type"))
	}
}

func TestPanicBecomes500(t *testing.T) {
	backend := newFakeBackend()
	srv := newTestAPI(t, testConfig(), backend, nil)

	backend.panicMsg = "statuses exploded"
	requireDataError(t, srv.get(t, "/v1/status"), http.StatusInternalServerError, "internal error")
	requireMetricsError(t, srv.get(t, "/metrics/v1/avg_tps/p-chain"), http.StatusInternalServerError, "internal error")

	// The server keeps serving.
	backend.panicMsg = ""
	requireJSON(t, srv.get(t, "/v1/status"), http.StatusOK, nil)

	count := requestCount(t, srv, "status", "500")
	require.InDelta(t, 1, count, 0, "recovered panics are counted as 500s")
}

func TestPanicAfterWriteKeepsResponse(t *testing.T) {
	rec := &statusRecorder{ResponseWriter: httptest.NewRecorder(), status: http.StatusOK}
	h := recoverPanics(logging.NoLog{}, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		api.WriteJSON(w, http.StatusOK, map[string]int{"a": 1})
		panic("late")
	}))
	require.NotPanics(t, func() { h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil)) })
	require.Equal(t, http.StatusOK, rec.status)
}

func TestAbortHandlerPanicPropagates(t *testing.T) {
	h := recoverPanics(logging.NoLog{}, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic(http.ErrAbortHandler)
	}))
	require.PanicsWithValue(t, http.ErrAbortHandler, func() { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil)) })
}

func TestRequestMetrics(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	srv.get(t, "/v1/status")
	srv.get(t, "/v1/status")
	srv.get(t, "/nope")
	srv.get(t, "/metrics/v1/avg_tps/bad")
	srv.request(t, http.MethodPut, "/v1/status", "")

	require.InDelta(t, 2, requestCount(t, srv, "status", "200"), 0)
	require.InDelta(t, 1, requestCount(t, srv, api.RouteNotFound, "404"), 0)
	require.InDelta(t, 1, requestCount(t, srv, routeAvgTPS, "400"), 0)
	require.InDelta(t, 1, requestCount(t, srv, api.RouteMethodNotAllowed, "405"), 0)

	families, err := srv.reg.Gather()
	require.NoError(t, err)
	var names []string
	for _, f := range families {
		names = append(names, f.GetName())
	}
	require.Contains(t, names, "api_request_duration_seconds")
}

func TestNewErrors(t *testing.T) {
	_, err := New(Config{}, Backend{}, nil, nil, nil)
	require.ErrorContains(t, err, "no Node view")
	for name, strip := range map[string]func(*Backend){
		"no Metrics reader": func(b *Backend) { b.Metrics = nil },
		"no EVM reader":     func(b *Backend) { b.EVM = nil },
	} {
		backend := newFakeBackend().readers()
		strip(&backend)
		_, err = New(Config{}, backend, nil, nil, nil)
		require.ErrorContains(t, err, name)
	}
	noState := newFakeBackend().readers()
	noState.EVMState = nil
	_, err = New(Config{}, noState, nil, nil, nil)
	require.NoError(t, err, "EVMState is optional")

	reg := prometheus.NewRegistry()
	_, err = New(Config{}, newFakeBackend().readers(), nil, nil, reg)
	require.NoError(t, err, "nil logger is allowed")
	_, err = New(Config{}, newFakeBackend().readers(), nil, nil, reg)
	require.ErrorContains(t, err, "registering API metrics", "metrics cannot be registered twice")

	_, err = New(Config{}, newFakeBackend().readers(), nil, nil, nil)
	require.NoError(t, err, "nil registerer is allowed")
}

func TestConfigDefaults(t *testing.T) {
	got := Config{Rates: limits.Rates{AnonymousRPS: -1}}.withDefaults()
	require.Equal(t, Config{
		Rates: limits.Rates{
			AnonymousRPS:   limits.DefaultAnonymousRPS,
			AnonymousBurst: limits.DefaultAnonymousBurst,
			KeyRPS:         limits.DefaultKeyRPS,
			KeyBurst:       limits.DefaultKeyBurst,
			TrustedProxies: limits.DefaultTrustedProxies(),
			MaxClients:     limits.DefaultMaxClients,
		},
		MaxBodyBytes:   DefaultMaxBodyBytes,
		Version:        DefaultVersion,
		RequestTimeout: DefaultRequestTimeout,
	}, got)
	custom := Config{APIKeys: []string{"k"}, Version: "v", MaxBodyBytes: 6, RequestTimeout: time.Second,
		Rates: limits.Rates{AnonymousRPS: 1, AnonymousBurst: 2, KeyRPS: 3, KeyBurst: 4, TrustedProxies: []netip.Prefix{}, MaxClients: 5}}
	require.Equal(t, custom, custom.withDefaults())
}

// requestCount reads the request counter of route and code (0 if absent).
func requestCount(t *testing.T, srv *testAPI, route, code string) float64 {
	t.Helper()
	families, err := srv.reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != "api_requests_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["route"] == route && labels["code"] == code {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}
