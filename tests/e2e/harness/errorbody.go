package harness

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// RequireErrorBody checks an error reply: status, JSON content type and
// the Data API's error body (statusCode, error, message); mentions, when
// set, must appear in the body.
func RequireErrorBody(t *testing.T, r Reply, status int, mentions string) {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	require.Contains(t, r.Header.Get("Content-Type"), "application/json")
	var body map[string]any
	r.Decode(t, &body)
	require.Equal(t, float64(status), body["statusCode"], "body: %s", r.Body)
	require.Equal(t, http.StatusText(status), body["error"], "body: %s", r.Body)
	require.Contains(t, body, "message")
	if mentions != "" {
		require.Contains(t, string(r.Body), mentions)
	}
}
