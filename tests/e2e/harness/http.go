package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Reply is an HTTP response read whole.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode decodes the body into v.
func (r Reply) Decode(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.Body, v), "body: %s", r.Body)
}

// HTTPClient is the client the tests ask avadata with.
var HTTPClient = &http.Client{Timeout: 30 * time.Second}

// Do sends one request and reads the reply whole.
func Do(t *testing.T, ctx context.Context, method, url string, body []byte, header map[string]string) Reply {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := HTTPClient.Do(req)
	require.NoError(t, err, "%s %s", method, url)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return Reply{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Get is Do of a GET.
func Get(t *testing.T, ctx context.Context, url string) Reply {
	t.Helper()
	return Do(t, ctx, http.MethodGet, url, nil, nil)
}

// decodeJSON decodes one JSON value of r into v.
func decodeJSON(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
