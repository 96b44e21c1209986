package handlertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/handlers/serve"
)

// API is a handler under test with the fakes it reads, its clock and the
// registry its request metrics go to.
type API struct {
	Handler  http.Handler
	Fakes    *Fakes
	Clock    *Clock
	Registry *prometheus.Registry
}

// Config has limits high enough that ordinary tests never hit them.
func Config() serve.Config {
	return serve.Config{
		APIKeys: []string{"known-key"},
		Rates:   limits.Rates{AnonymousRPS: 1000, AnonymousBurst: 100_000, KeyRPS: 1000, KeyBurst: 100_000},
		Version: "v-test",
	}
}

// Routes builds a domain's routes over the shared core.
type Routes func(core *api.Core) []api.Route

// NewAPI serves the routes that routes builds through the whole request
// path (route names, metrics, panics, limits, time budgets), over fakes
// as the node, with a clock the test moves.
func NewAPI(t *testing.T, cfg serve.Config, fakes *Fakes, routes Routes) *API {
	t.Helper()
	clock := NewClock()
	if cfg.Clock == nil {
		cfg.Clock = clock.Now
	}
	reg := prometheus.NewRegistry()
	h, err := serve.New(cfg, routes(serve.NewCore(cfg, fakes, nil)), nil, reg)
	require.NoError(t, err)
	return &API{Handler: h, Fakes: fakes, Clock: clock, Registry: reg}
}

// Request performs one request; headers are name/value pairs.
func (a *API) Request(t *testing.T, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, "http://node"+path, reader)
	// A plain HTTP/1.1 request through the node carries neither the
	// client's address nor its Host (see limits/clientaddr.go).
	req.RemoteAddr = ""
	req.Host = ""
	require.Zero(t, len(headers)%2, "headers must be name/value pairs")
	for i := 0; i < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return a.Serve(req)
}

// Serve serves an already built request.
func (a *API) Serve(req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	a.Handler.ServeHTTP(rec, req)
	return rec
}

// Get performs a GET; headers are name/value pairs.
func (a *API) Get(t *testing.T, path string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	return a.Request(t, http.MethodGet, path, "", headers...)
}

// GetBody fetches path and decodes a 200 JSON body without nulls.
func (a *API) GetBody(t *testing.T, path string) map[string]any {
	t.Helper()
	var body map[string]any
	RequireJSON(t, a.Get(t, path), http.StatusOK, &body)
	RequireNoNulls(t, body)
	return body
}

// NewCore is the core of an API over fakes, for tests that call a domain's
// parse functions directly.
func NewCore(fakes *Fakes) *api.Core {
	cfg := Config()
	cfg.Clock = NewClock().Now
	return serve.NewCore(cfg, fakes, nil)
}
