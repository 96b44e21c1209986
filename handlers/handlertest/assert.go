package handlertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

// RequireJSON checks status and content type and decodes the body into v.
func RequireJSON(t *testing.T, rec *httptest.ResponseRecorder, status int, v any) {
	t.Helper()
	require.Equal(t, status, rec.Code, "body: %s", rec.Body.String())
	require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json"),
		"content type %q", rec.Header().Get("Content-Type"))
	if v != nil {
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), v), "body: %s", rec.Body.String())
	}
}

// RequireDataError checks a data-service error body (message is a string)
// and that the message contains every fragment.
func RequireDataError(t *testing.T, rec *httptest.ResponseRecorder, status int, fragments ...string) string {
	t.Helper()
	var body map[string]any
	RequireJSON(t, rec, status, &body)
	require.Len(t, body, 3, "body: %s", rec.Body.String())
	require.Equal(t, http.StatusText(status), body["error"])
	require.InDelta(t, float64(status), body["statusCode"], 0)
	message, ok := body["message"].(string)
	require.True(t, ok, "message should be a string: %s", rec.Body.String())
	for _, f := range fragments {
		require.Contains(t, message, f)
	}
	return message
}

// RequireMetricsError checks a metrics-service error body (message is an
// array of strings).
func RequireMetricsError(t *testing.T, rec *httptest.ResponseRecorder, status int, fragments ...string) string {
	t.Helper()
	var body struct {
		Message    []string `json:"message"`
		Error      string   `json:"error"`
		StatusCode int      `json:"statusCode"`
	}
	RequireJSON(t, rec, status, &body)
	require.Len(t, body.Message, 1, "body: %s", rec.Body.String())
	require.Equal(t, http.StatusText(status), body.Error)
	require.Equal(t, status, body.StatusCode)
	for _, f := range fragments {
		require.Contains(t, body.Message[0], f)
	}
	return body.Message[0]
}

// RequireNoNulls walks a decoded JSON value and fails on any null: optional
// fields are omitted, never null.
func RequireNoNulls(t *testing.T, v any) {
	t.Helper()
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case nil:
			t.Fatalf("null at %s", path)
		case map[string]any:
			for k, child := range v {
				walk(path+"."+k, child)
			}
		case []any:
			for i, child := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), child)
			}
		}
	}
	walk("$", v)
}

// DecodeJSON decodes a JSON document for comparison with a decoded body.
func DecodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v), s)
	return v
}

func Query(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	require.NoError(t, err)
	return q
}

// RequireBadRequest checks that err is a 400 api.Error mentioning every
// fragment.
func RequireBadRequest(t *testing.T, err error, fragments ...string) {
	t.Helper()
	var apiErr *api.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.Status)
	for _, f := range fragments {
		require.Contains(t, apiErr.Message, f)
	}
}

// WithToken adds a pageToken to a query.
func WithToken(path string, body map[string]any) string {
	sep := "?"
	if u, _ := url.Parse(path); u.RawQuery != "" {
		sep = "&"
	}
	return path + sep + "pageToken=" + url.QueryEscape(body["nextPageToken"].(string))
}
