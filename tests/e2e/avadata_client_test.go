package e2e

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

// reply is an HTTP response read whole.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) decode(t *testing.T, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(r.body, v), "body: %s", r.body)
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

func doRequest(t *testing.T, ctx context.Context, method, url string, body []byte, header map[string]string) reply {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := httpClient.Do(req)
	require.NoError(t, err, "%s %s", method, url)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

func get(t *testing.T, ctx context.Context, url string) reply {
	t.Helper()
	return doRequest(t, ctx, http.MethodGet, url, nil, nil)
}

// followerStatus is one chain's entry of GET /v1/status.
type followerStatus struct {
	Chain         string `json:"chain"`
	IndexedHeight uint64 `json:"indexedHeight"`
	NodeHeight    uint64 `json:"nodeHeight"`
	Lag           uint64 `json:"lag"`
	Paused        bool   `json:"paused"`
	Running       bool   `json:"running"`
	LastError     string `json:"lastError"`
	// TracesAvailable is set for EVM chains only.
	TracesAvailable *bool `json:"tracesAvailable"`
}

func avadataStatus(t *testing.T, ctx context.Context, base string) map[string]followerStatus {
	t.Helper()
	r := get(t, ctx, base+"/v1/status")
	require.Equal(t, http.StatusOK, r.status, "status body: %s", r.body)
	var body struct {
		Chains []followerStatus `json:"chains"`
	}
	r.decode(t, &body)
	out := map[string]followerStatus{}
	for _, c := range body.Chains {
		out[c.Chain] = c
	}
	return out
}

// waitIndexed waits until avadata has indexed every chain up to at least
// the given heights.
func waitIndexed(t *testing.T, ctx context.Context, base string, heights map[string]uint64) {
	t.Helper()
	for {
		status := avadataStatus(t, ctx, base)
		done := true
		for chain, h := range heights {
			if status[chain].IndexedHeight < h {
				done = false
			}
		}
		if done {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("avadata did not index %v: status %+v", heights, status)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// callAvadata calls avadata's JSON-RPC service and returns the raw reply.
func callAvadata(t *testing.T, ctx context.Context, base, method string, params any) map[string]any {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	r := doRequest(t, ctx, http.MethodPost, base+"/rpc", body, map[string]string{"Content-Type": "application/json"})
	require.Equal(t, http.StatusOK, r.status, "%s: %s", method, r.body)
	var out map[string]any
	r.decode(t, &out)
	return out
}

// requireErrorBody checks the spec's error body and content type.
func requireErrorBody(t *testing.T, r reply, status int, mentions string) {
	t.Helper()
	require.Equal(t, status, r.status, "body: %s", r.body)
	require.Contains(t, r.header.Get("Content-Type"), "application/json")
	var body map[string]any
	r.decode(t, &body)
	require.Equal(t, float64(status), body["statusCode"], "body: %s", r.body)
	require.Equal(t, http.StatusText(status), body["error"], "body: %s", r.body)
	require.Contains(t, body, "message")
	if mentions != "" {
		require.Contains(t, string(r.body), mentions)
	}
}

func decodeJSON(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
