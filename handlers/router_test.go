package handlers

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

func TestStripChainPrefix(t *testing.T) {
	tests := map[string]string{
		"/ext/bc/" + fakenet.CChainID.String() + "/v1/status": "/v1/status",
		"/ext/bc/data/v1/status":                              "/v1/status",
		"/ext/bc/data/metrics/v1/avg_tps/43112":               "/metrics/v1/avg_tps/43112",
		"/ext/bc/data":                                        "/",
		"/ext/bc/data/":                                       "/",
		"/v1/status":                                          "/v1/status",
		"/":                                                   "/",
		"":                                                    "/",
		"/ext/bcx/data/v1/status":                             "/ext/bcx/data/v1/status",
	}
	for in, want := range tests {
		require.Equal(t, want, api.StripChainPrefix(in), in)
	}
}

func TestPathStrippingServesRoutes(t *testing.T) {
	backend := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), backend, nil)
	for _, path := range []string{
		"/ext/bc/2ZcCThBa8xNmhVgB1XtEeXpXM4RWuvgDWkYjc9Py2qqX1CqrJ8/v1/status", // cb58 chain ID
		"/ext/bc/data/v1/status", // alias
		"/v1/status",             // tests: no prefix
	} {
		t.Run(path, func(t *testing.T) {
			var body StatusResponse
			handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &body)
			require.Equal(t, "local", body.Network.Name)
		})
	}
}

func TestIndex(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	for _, path := range []string{"/ext/bc/data", "/ext/bc/data/", "/"} {
		var body indexResponse
		handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &body)
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
	backend := handlertest.NewFakes()
	applied := time.Unix(1_700_000_123, 0).UTC()
	backend.FollowerStatuses = []follower.Status{
		{Chain: netinfo.P, ChainName: "P", IndexedHeight: 10, NodeHeight: 12, Lag: 2, LastApplied: applied, Running: true},
		{Chain: netinfo.C, ChainName: "C", LastError: "boom"},
	}
	srv := newTestAPI(t, handlertest.Config(), backend, nil)

	var body map[string]any
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, &body)
	require.Equal(t, "v-test", body["version"])
	require.Equal(t, map[string]any{
		"name": "local", "networkId": 12345.0, "evmChainId": 43112.0,
		"evmChains": []any{
			map[string]any{"name": "C", "blockchainId": fakenet.CChainID.String(), "evmChainId": 43112.0},
			map[string]any{"name": "dispatch", "blockchainId": fakenet.SubnetChainID.String(), "evmChainId": 779672.0},
		},
	}, body["network"])
	chains := body["chains"].([]any)
	require.Len(t, chains, 2)
	p := chains[0].(map[string]any)
	require.Equal(t, "P", p["chain"])
	require.InDelta(t, 10, p["indexedHeight"], 0)
	require.NotContains(t, p, "lastError", "optional fields are omitted")
	require.Equal(t, "boom", chains[1].(map[string]any)["lastError"])

	backend.FollowerStatuses = nil
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, &body)
	require.Equal(t, []any{}, body["chains"], "an empty list, never null")
}

func TestUnknownRoutes(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
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
			rec := srv.Request(t, tt.method, tt.path, "")
			if tt.metrics {
				handlertest.RequireMetricsError(t, rec, tt.status, tt.method)
			} else {
				handlertest.RequireDataError(t, rec, tt.status, tt.method)
			}
		})
	}
}

func TestOpenAPIDocument(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
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
	handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/openapi.json"), http.StatusOK, &doc)
	require.Equal(t, "3.1.0", doc.OpenAPI)
	require.Equal(t, "v-test", doc.Info.Version)
	require.Contains(t, doc.Components.Schemas, "ErrorResponse")
	require.Contains(t, doc.Components.Schemas, "MetricsErrorResponse")

	// The document describes exactly the routing table.
	fakes := handlertest.NewFakes()
	s := &server{Core: handlertest.NewCore(fakes), backend: readers(fakes)}
	routes, err := s.routes(nil)
	require.NoError(t, err)
	var fromRoutes, fromDoc []string
	for _, rt := range routes {
		if rt.Page {
			continue // the explorer's pages are for people, not API operations
		}
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
	backend := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), backend, nil)
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
		rec := srv.Request(t, tt.method, tt.path, tt.body)
		require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json"),
			"%s %s: %q", tt.method, tt.path, rec.Header().Get("Content-Type"))
	}
}

func TestPanicBecomes500(t *testing.T) {
	backend := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), backend, nil)

	backend.PanicMsg = "statuses exploded"
	handlertest.RequireDataError(t, srv.Get(t, "/v1/status"), http.StatusInternalServerError, "internal error")
	handlertest.RequireMetricsError(t, srv.Get(t, "/metrics/v1/avg_tps/p-chain"), http.StatusInternalServerError, "internal error")

	// The server keeps serving.
	backend.PanicMsg = ""
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, nil)

	count := requestCount(t, srv, "status", "500")
	require.InDelta(t, 1, count, 0, "recovered panics are counted as 500s")
}

func TestRequestMetrics(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	srv.Get(t, "/v1/status")
	srv.Get(t, "/v1/status")
	srv.Get(t, "/nope")
	srv.Get(t, "/metrics/v1/avg_tps/bad")
	srv.Request(t, http.MethodPut, "/v1/status", "")

	require.InDelta(t, 2, requestCount(t, srv, "status", "200"), 0)
	require.InDelta(t, 1, requestCount(t, srv, api.RouteNotFound, "404"), 0)
	require.InDelta(t, 1, requestCount(t, srv, "avgTps", "400"), 0)
	require.InDelta(t, 1, requestCount(t, srv, api.RouteMethodNotAllowed, "405"), 0)

	families, err := srv.Registry.Gather()
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
		backend := readers(handlertest.NewFakes())
		strip(&backend)
		_, err = New(Config{}, backend, nil, nil, nil)
		require.ErrorContains(t, err, name)
	}
	noState := readers(handlertest.NewFakes())
	noState.EVMState = nil
	_, err = New(Config{}, noState, nil, nil, nil)
	require.NoError(t, err, "EVMState is optional")

	reg := prometheus.NewRegistry()
	_, err = New(Config{}, readers(handlertest.NewFakes()), nil, nil, reg)
	require.NoError(t, err, "nil logger is allowed")
	_, err = New(Config{}, readers(handlertest.NewFakes()), nil, nil, reg)
	require.ErrorContains(t, err, "registering API metrics", "metrics cannot be registered twice")

	_, err = New(Config{}, readers(handlertest.NewFakes()), nil, nil, nil)
	require.NoError(t, err, "nil registerer is allowed")
}

// requestCount reads the request counter of route and code (0 if absent).
func requestCount(t *testing.T, srv *handlertest.API, route, code string) float64 {
	t.Helper()
	families, err := srv.Registry.Gather()
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

func TestAPIIdle(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, nil)
	<-srv.Handler.(*serve.Handler).Idle()
}
