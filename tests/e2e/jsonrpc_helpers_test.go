package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Raw JSON-RPC 2.0 over HTTP, so the node API tests see the wire shapes
// node-api.md describes instead of what a typed client makes of them.

// rpcCallTimeout bounds one HTTP round trip to the node.
const rpcCallTimeout = 30 * time.Second

// rpcErrorObject is the JSON-RPC error object.
type rpcErrorObject struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// rpcEnvelope is a JSON-RPC 2.0 response.
type rpcEnvelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcErrorObject `json:"error"`
}

// postRPC sends one JSON-RPC 2.0 request to url and returns the decoded
// envelope and the raw body. params nil leaves "params" out of the request
// (node-api.md: it may be omitted when a method takes none). It checks the
// envelope: HTTP 200, JSON content type, "jsonrpc":"2.0", the request's id
// echoed, and exactly one of result and error.
func postRPC(t *testing.T, ctx context.Context, url, method string, params any) (rpcEnvelope, []byte) {
	t.Helper()
	id := requestID(t)
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	body, err := json.Marshal(req)
	require.NoError(t, err)

	status, header, raw := httpDo(t, ctx, http.MethodPost, url, body)
	require.Equal(t, http.StatusOK, status, "%s %s: HTTP %d: %s", url, method, status, raw)
	require.Contains(t, header.Get("Content-Type"), "application/json", "%s %s", url, method)
	var env rpcEnvelope
	require.NoError(t, json.Unmarshal(raw, &env), "%s %s: not a JSON-RPC response: %s", url, method, raw)
	require.Equal(t, "2.0", env.JSONRPC, "%s %s: %s", url, method, raw)
	require.JSONEq(t, strconv.FormatInt(id, 10), string(env.ID), "%s %s: id not echoed: %s", url, method, raw)
	hasResult := len(env.Result) > 0 && string(env.Result) != "null"
	require.NotEqual(t, hasResult, env.Error != nil, "%s %s: need exactly one of result and error: %s", url, method, raw)
	return env, raw
}

// callRPC calls method at url and returns its result; a JSON-RPC error
// fails the test.
func callRPC(t *testing.T, ctx context.Context, url, method string, params any) json.RawMessage {
	t.Helper()
	env, raw := postRPC(t, ctx, url, method, params)
	require.Nil(t, env.Error, "%s %s(%v): unexpected error: %s", url, method, params, raw)
	return env.Result
}

// callRPCError calls method at url, expects a JSON-RPC error and returns it.
func callRPCError(t *testing.T, ctx context.Context, url, method string, params any) *rpcErrorObject {
	t.Helper()
	env, raw := postRPC(t, ctx, url, method, params)
	require.NotNil(t, env.Error, "%s %s(%v): expected an error, got %s", url, method, params, raw)
	require.NotEmpty(t, env.Error.Message, "%s %s: error without message: %s", url, method, raw)
	return env.Error
}

// httpDo sends one request and returns the status, headers and body.
func httpDo(t *testing.T, ctx context.Context, method, url string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, rpcCallTimeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "%s %s", method, url)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "%s %s: reading body", method, url)
	return resp.StatusCode, resp.Header, raw
}

// requestID is a fresh JSON-RPC request id.
func requestID(t *testing.T) int64 {
	t.Helper()
	n, err := rand.Int(rand.Reader, big.NewInt(1<<40))
	require.NoError(t, err)
	return n.Int64() + 1
}

// uniqueSuffix is a short random lowercase string for names (aliases) that
// must not clash with those of an earlier run on the same node.
func uniqueSuffix() string { return strings.ToLower(rand.Text()[:10]) }

// extURL is the node URL of an API path below /ext/, e.g. "info", "bc/X".
func extURL(path string) string { return env.uri + "/ext/" + path }

// nodeAPIContext is a context for one test, cancelled when it ends.
func nodeAPIContext(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// --- shape assertions on raw JSON ---------------------------------------

var decimalDigits = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// jsonKind names the JSON type of raw: object, array, string, number,
// bool or null.
func jsonKind(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "missing"
	}
	switch s[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// jsonObject requires raw to be a JSON object and returns its members.
func jsonObject(t *testing.T, raw json.RawMessage, what string) map[string]json.RawMessage {
	t.Helper()
	require.Equal(t, "object", jsonKind(raw), "%s: want an object: %s", what, raw)
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &obj), "%s: %s", what, raw)
	return obj
}

// jsonArray requires raw to be a JSON array and returns its elements.
func jsonArray(t *testing.T, raw json.RawMessage, what string) []json.RawMessage {
	t.Helper()
	require.Equal(t, "array", jsonKind(raw), "%s: want an array: %s", what, raw)
	var arr []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &arr), "%s: %s", what, raw)
	return arr
}

// member requires obj to have key and returns its value.
func member(t *testing.T, obj map[string]json.RawMessage, key, what string) json.RawMessage {
	t.Helper()
	v, ok := obj[key]
	require.True(t, ok, "%s: no %q in %s", what, key, mustJSON(obj))
	return v
}

// requireKeys requires obj to have every key.
func requireKeys(t *testing.T, obj map[string]json.RawMessage, what string, keys ...string) {
	t.Helper()
	for _, k := range keys {
		member(t, obj, k, what)
	}
}

// requireExactKeys requires obj's keys to be exactly keys.
func requireExactKeys(t *testing.T, obj map[string]json.RawMessage, what string, keys ...string) {
	t.Helper()
	got := make([]string, 0, len(obj))
	for k := range obj {
		got = append(got, k)
	}
	require.ElementsMatch(t, keys, got, "%s: keys of %s", what, mustJSON(obj))
}

// requireEmptyObject requires raw to be exactly {}.
func requireEmptyObject(t *testing.T, raw json.RawMessage, what string) {
	t.Helper()
	require.Empty(t, jsonObject(t, raw, what), "%s: want {}, got %s", what, raw)
}

// jsonString requires raw to be a JSON string and returns it.
func jsonString(t *testing.T, raw json.RawMessage, what string) string {
	t.Helper()
	require.Equal(t, "string", jsonKind(raw), "%s: want a string: %s", what, raw)
	var s string
	require.NoError(t, json.Unmarshal(raw, &s), "%s: %s", what, raw)
	return s
}

// jsonStrings requires raw to be an array of strings and returns them.
func jsonStrings(t *testing.T, raw json.RawMessage, what string) []string {
	t.Helper()
	arr := jsonArray(t, raw, what)
	out := make([]string, len(arr))
	for i, el := range arr {
		out[i] = jsonString(t, el, what+"["+strconv.Itoa(i)+"]")
	}
	return out
}

// jsonDecimalString requires raw to be a 64-bit integer written as a
// decimal string (node-api.md: "64-bit integer fields appear as decimal
// strings") and returns its value.
func jsonDecimalString(t *testing.T, raw json.RawMessage, what string) uint64 {
	t.Helper()
	s := jsonString(t, raw, what)
	require.Regexp(t, decimalDigits, s, "%s: want a decimal string: %s", what, raw)
	v, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, "%s: %s", what, raw)
	return v
}

// jsonInteger requires raw to be a JSON number holding an integer.
func jsonInteger(t *testing.T, raw json.RawMessage, what string) uint64 {
	t.Helper()
	require.Equal(t, "number", jsonKind(raw), "%s: want a JSON number: %s", what, raw)
	v, err := strconv.ParseUint(string(bytes.TrimSpace(raw)), 10, 64)
	require.NoError(t, err, "%s: want a non-negative integer: %s", what, raw)
	return v
}

// jsonBool requires raw to be a JSON boolean and returns it.
func jsonBool(t *testing.T, raw json.RawMessage, what string) bool {
	t.Helper()
	require.Equal(t, "bool", jsonKind(raw), "%s: want a boolean: %s", what, raw)
	return string(bytes.TrimSpace(raw)) == "true"
}

// jsonTime requires raw to be an RFC 3339 timestamp string.
func jsonTime(t *testing.T, raw json.RawMessage, what string) time.Time {
	t.Helper()
	s := jsonString(t, raw, what)
	ts, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err, "%s: want an RFC 3339 time: %s", what, raw)
	return ts
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
