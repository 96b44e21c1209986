//go:build e2e

package harness

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBrowserCatchesProblems checks the checker: a clean page passes, and a
// page that logs a console error or asks another origin is caught.
func TestBrowserCatchesProblems(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/clean", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>t</title><link rel="icon" href="data:,"><p id="x">hello <b>you</b></p><a id="next" href="/other">next</a><form action="/other"><input name="q"></form>`))
	})
	mux.HandleFunc("/other", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`<!doctype html><title>o</title><link rel="icon" href="data:,"><p>other</p>`))
	})
	mux.HandleFunc("/dirty", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>d</title><img src="http://192.0.2.1/x.png"><script>console.error("boom")</script>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := NewBrowser(t, srv.URL)
	require.EqualValues(t, http.StatusOK, b.Open(t, srv.URL+"/clean"))
	require.Equal(t, "hello you", b.Text(t, "#x"))
	require.EqualValues(t, http.StatusNotFound, b.Click(t, "#next"), "Click returns the status of the page it leads to")
	require.Equal(t, srv.URL+"/other", b.Location(t))
	require.EqualValues(t, http.StatusNotFound, b.Status())
	require.EqualValues(t, http.StatusOK, b.Back(t), "Back returns the status of the page it goes back to")
	require.Equal(t, srv.URL+"/clean", b.Location(t))
	require.EqualValues(t, http.StatusOK, b.Status())
	require.EqualValues(t, http.StatusNotFound, b.Submit(t, "form input", "x"), "Submit returns the status of the page it leads to")
	require.Equal(t, srv.URL+"/other?q=x", b.Location(t))
	require.EqualValues(t, http.StatusOK, b.Back(t))
	b.RequireClean(t)

	b.Open(t, srv.URL+"/dirty")
	b.mu.Lock()
	problems, others := b.problems, b.otherOrigins
	b.problems, b.otherOrigins = nil, nil
	b.mu.Unlock()
	require.NotEmpty(t, problems)
	require.Contains(t, others, "http://192.0.2.1/x.png")
}
