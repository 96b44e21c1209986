package explorer

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/serve"
)

// fakeAPI answers the API paths a page asks with canned JSON: a unit test
// of the pages alone (the e2e tests read the real API on real nodes).
type fakeAPI map[string]any

func (f fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.URL.Path
	if r.URL.RawQuery != "" {
		if _, ok := f[key+"?"+r.URL.RawQuery]; ok {
			key += "?" + r.URL.RawQuery
		}
	}
	reply, ok := f[key]
	if !ok {
		api.WriteError(w, r, http.StatusNotFound, "no such thing: "+key)
		return
	}
	if e, ok := reply.(*api.Error); ok {
		api.WriteError(w, r, e.Status, e.Message)
		return
	}
	api.WriteJSON(w, http.StatusOK, reply)
}

// newTestExplorer serves the explorer's routes over apiRoutes, as the node
// would under /ext/bc/data.
func newTestExplorer(t *testing.T, cfg Config, apiRoutes http.Handler, tokens TokenSearcher) http.Handler {
	t.Helper()
	return newTestExplorerWith(t, cfg, apiRoutes, Readers{Tokens: tokens})
}

// newTestExplorerWith is newTestExplorer with every reader given.
func newTestExplorerWith(t *testing.T, cfg Config, apiRoutes http.Handler, readers Readers) http.Handler {
	t.Helper()
	return newTestExplorerOn(t, handlertest.NewFakes(), cfg, apiRoutes, readers)
}

// newTestExplorerOn is newTestExplorerWith on the given node fakes (its
// followers' heights).
func newTestExplorerOn(t *testing.T, node *handlertest.Fakes, cfg Config, apiRoutes http.Handler, readers Readers) http.Handler {
	t.Helper()
	routes, err := Routes(handlertest.NewCore(node), cfg, apiRoutes, readers)
	require.NoError(t, err)
	// The API's own router, in the order it takes routes in, so the page
	// routes meet the catch-all as they do on the node.
	router := serve.NewRouter(routes)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := api.StripChainPrefix(r.URL.Path)
		info := &api.RequestInfo{Base: strings.TrimSuffix(r.URL.Path, path)}
		r = r.WithContext(api.WithRequestInfo(r.Context(), info))
		r.URL.Path = path
		router.ServeHTTP(w, r)
	})
}

// getPage GETs an explorer page and returns the reply.
func getPage(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://node/ext/bc/data/explorer"+path, nil))
	return rec
}

// jsonOf decodes a JSON literal, for canned replies.
func jsonOf(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}

func TestHomeShowsTheChainsAndEscapesText(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/status": jsonOf(t, `{"chains":[{"chain":"<script>alert(1)</script>","indexedHeight":7,"nodeHeight":9,"lag":2}]}`),
	}, nil)
	rec := getPage(t, h, "/")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"))
	require.Contains(t, rec.Header().Get("Content-Security-Policy"), "default-src 'none'")
	body := rec.Body.String()
	require.NotContains(t, body, "<script>")
	require.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt;")
	require.Contains(t, body, `href="/ext/bc/data/explorer/static/style.css"`)
}

func TestAPIErrorsBecomeErrorPages(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/status": &api.Error{Status: http.StatusServiceUnavailable, Message: "not yet <b>"},
	}, nil)
	rec := getPage(t, h, "/")
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Contains(t, rec.Body.String(), "not yet &lt;b&gt;")
}
