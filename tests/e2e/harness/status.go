package harness

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// FollowerStatus is one chain's entry of GET /v1/status.
type FollowerStatus struct {
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

// AvadataStatus is GET {base}/v1/status, by chain.
func AvadataStatus(t *testing.T, ctx context.Context, base string) map[string]FollowerStatus {
	t.Helper()
	r := Get(t, ctx, base+"/v1/status")
	require.Equal(t, http.StatusOK, r.Status, "status body: %s", r.Body)
	var body struct {
		Chains []FollowerStatus `json:"chains"`
	}
	r.Decode(t, &body)
	out := map[string]FollowerStatus{}
	for _, c := range body.Chains {
		out[c.Chain] = c
	}
	return out
}

// WaitIndexed waits until avadata has indexed every chain up to at least
// the given heights.
func WaitIndexed(t *testing.T, ctx context.Context, base string, heights map[string]uint64) {
	t.Helper()
	for {
		status := AvadataStatus(t, ctx, base)
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

// CallAvadata calls avadata's JSON-RPC service and returns the raw reply.
func CallAvadata(t *testing.T, ctx context.Context, base, method string, params any) map[string]any {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	r := Do(t, ctx, http.MethodPost, base+"/rpc", body, map[string]string{"Content-Type": "application/json"})
	require.Equal(t, http.StatusOK, r.Status, "%s: %s", method, r.Body)
	var out map[string]any
	r.Decode(t, &out)
	return out
}

// PollStatus polls {base}/v1/status until chain's entry satisfies ok, for
// at most five minutes, and returns that entry.
func PollStatus(t testing.TB, ctx context.Context, base, chain string, ok func(FollowerStatus) bool) FollowerStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	for {
		var body struct {
			Chains []FollowerStatus `json:"chains"`
		}
		status, raw, err := HTTPGet(ctx, base+"/v1/status")
		if err == nil && status == http.StatusOK && json.Unmarshal(raw, &body) == nil {
			for _, c := range body.Chains {
				if c.Chain == chain && ok(c) {
					return c
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: no satisfying /v1/status; last %d %v %.300s", chain, status, err, raw)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
