package harness

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Raw JSON-RPC 2.0 over HTTP, so the node API tests see the wire shapes
// instead of what a typed client makes of them.

// rpcCallTimeout bounds one HTTP round trip to the node.
const rpcCallTimeout = 30 * time.Second

// RPCError is the JSON-RPC error object.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// RPCEnvelope is a JSON-RPC 2.0 response.
type RPCEnvelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *RPCError       `json:"error"`
}

// PostRPC sends one JSON-RPC 2.0 request to url and returns the decoded
// envelope and the raw body. params nil leaves "params" out of the request
// (JSON-RPC 2.0 allows it when a method takes none). It checks the
// envelope: HTTP 200, JSON content type, "jsonrpc":"2.0", the request's id
// echoed, and exactly one of result and error.
func PostRPC(t *testing.T, ctx context.Context, url, method string, params any) (RPCEnvelope, []byte) {
	t.Helper()
	id := requestID(t)
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	body, err := json.Marshal(req)
	require.NoError(t, err)

	status, header, raw := HTTPDo(t, ctx, http.MethodPost, url, body)
	require.Equal(t, http.StatusOK, status, "%s %s: HTTP %d: %s", url, method, status, raw)
	require.Contains(t, header.Get("Content-Type"), "application/json", "%s %s", url, method)
	var env RPCEnvelope
	require.NoError(t, json.Unmarshal(raw, &env), "%s %s: not a JSON-RPC response: %s", url, method, raw)
	require.Equal(t, "2.0", env.JSONRPC, "%s %s: %s", url, method, raw)
	require.JSONEq(t, strconv.FormatInt(id, 10), string(env.ID), "%s %s: id not echoed: %s", url, method, raw)
	hasResult := len(env.Result) > 0 && string(env.Result) != "null"
	require.NotEqual(t, hasResult, env.Error != nil, "%s %s: need exactly one of result and error: %s", url, method, raw)
	return env, raw
}

// CallRPC calls method at url and returns its result; a JSON-RPC error
// fails the test.
func CallRPC(t *testing.T, ctx context.Context, url, method string, params any) json.RawMessage {
	t.Helper()
	env, raw := PostRPC(t, ctx, url, method, params)
	require.Nil(t, env.Error, "%s %s(%v): unexpected error: %s", url, method, params, raw)
	return env.Result
}

// CallRPCError calls method at url, expects a JSON-RPC error and returns it.
func CallRPCError(t *testing.T, ctx context.Context, url, method string, params any) *RPCError {
	t.Helper()
	env, raw := PostRPC(t, ctx, url, method, params)
	require.NotNil(t, env.Error, "%s %s(%v): expected an error, got %s", url, method, params, raw)
	require.NotEmpty(t, env.Error.Message, "%s %s: error without message: %s", url, method, raw)
	return env.Error
}

// HTTPDo sends one request and returns the status, headers and body.
func HTTPDo(t *testing.T, ctx context.Context, method, url string, body []byte) (int, http.Header, []byte) {
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
