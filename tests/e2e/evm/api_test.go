package evm

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// evmURL is the URL of an EVM endpoint below /v1/chains/{chainId}.
func (f *evmFixture) evmURL(path string, query url.Values) string {
	u := f.base + "/v1/chains/" + f.chainID() + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// sameAddress reports whether the API's address text is addr, in any case.
func sameAddress(text string, addr common.Address) bool {
	return common.IsHexAddress(text) && common.HexToAddress(text) == addr
}

// requireAddress checks an address field of a response.
func requireAddress(t *testing.T, want common.Address, got, what string) {
	t.Helper()
	require.True(t, sameAddress(got, want), "%s: got %q, want %s", what, got, want)
}

// requireAPIError checks an error reply: status, JSON content type and the
// Data API's error body (message, error, statusCode); the metrics service's message
// is an array of strings. mentions, when set, must appear in the message.
func requireAPIError(t *testing.T, r harness.Reply, status int, metrics bool, mentions string) {
	t.Helper()
	require.Equal(t, status, r.Status, "body: %s", r.Body)
	require.Contains(t, r.Header.Get("Content-Type"), "application/json", "body: %s", r.Body)
	var body struct {
		Message    json.RawMessage `json:"message"`
		Error      string          `json:"error"`
		StatusCode int             `json:"statusCode"`
	}
	r.Decode(t, &body)
	require.Equal(t, status, body.StatusCode, "body: %s", r.Body)
	require.Equal(t, http.StatusText(status), body.Error, "body: %s", r.Body)
	var text string
	if metrics {
		var lines []string
		require.NoError(t, json.Unmarshal(body.Message, &lines), "metrics message must be an array of strings: %s", r.Body)
		require.NotEmpty(t, lines, "body: %s", r.Body)
		text = strings.Join(lines, "\n")
	} else {
		require.NoError(t, json.Unmarshal(body.Message, &text), "message must be a string: %s", r.Body)
	}
	require.NotEmpty(t, text, "body: %s", r.Body)
	if mentions != "" {
		require.Contains(t, text, mentions, "body: %s", r.Body)
	}
}

// mustUint parses a decimal the test wrote itself.
func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err)
	return n
}
