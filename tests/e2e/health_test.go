package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// nodeHealth is GET /ext/health's body.
type nodeHealth struct {
	Healthy bool `json:"healthy"`
	Checks  map[string]struct {
		Message json.RawMessage `json:"message"`
		Error   string          `json:"error"`
	} `json:"checks"`
}

// avadataHealth returns the node's health status code and the avadata
// check's error text ("" when passing), filtered to the avadata subnet.
func avadataHealth(t *testing.T, ctx context.Context) (int, string) {
	t.Helper()
	r := get(t, ctx, env.uri+"/ext/health?tag="+env.net.SubnetID().String())
	var h nodeHealth
	r.decode(t, &h)
	check, ok := h.Checks[env.net.ChainID().String()]
	require.True(t, ok, "no avadata check in %s", r.body)
	return r.status, check.Error
}

func waitHealth(t *testing.T, ctx context.Context, wantStatus int, wantText string) string {
	t.Helper()
	for {
		status, text := avadataHealth(t, ctx)
		if status == wantStatus && strings.Contains(text, wantText) {
			return text
		}
		select {
		case <-ctx.Done():
			t.Fatalf("health never became %d with %q; last %d %q", wantStatus, wantText, status, text)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestFollowerHealth checks that the plugin's check is in /ext/health with
// per-chain details, goes unhealthy (with the facts in the error text) when
// a follower is stopped, and recovers when it resumes.
func TestFollowerHealth(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	waitHealth(t, ctx, http.StatusOK, "")

	r := get(t, ctx, env.uri+"/ext/health")
	var h nodeHealth
	r.decode(t, &h)
	var message struct {
		Engine struct {
			VM struct {
				Health map[string]followerStatus `json:"health"`
			} `json:"vm"`
		} `json:"engine"`
	}
	require.NoError(t, json.Unmarshal(h.Checks[env.net.ChainID().String()].Message, &message), "%s", r.body)
	for _, chain := range []string{"P", "X", "C"} {
		details, ok := message.Engine.VM.Health[chain]
		require.True(t, ok, "no %s details in %s", chain, r.body)
		require.True(t, details.Running, "%s follower not running: %+v", chain, details)
	}

	reply := callAvadata(t, ctx, env.base, "avadata.pauseFollower", map[string]string{"chain": "P"})
	require.Nil(t, reply["error"], "%v", reply)
	defer callAvadata(t, context.Background(), env.base, "avadata.resumeFollower", map[string]string{"chain": "P"})
	text := waitHealth(t, ctx, http.StatusServiceUnavailable, "follower P is stopped")
	require.Contains(t, text, "indexed ")
	require.Contains(t, text, "lag ")
	// Readiness and liveness do not depend on chain checks.
	require.Equal(t, http.StatusOK, get(t, ctx, env.uri+"/ext/health/liveness").status)
	require.True(t, avadataStatus(t, ctx, env.base)["P"].Paused)

	reply = callAvadata(t, ctx, env.base, "avadata.resumeFollower", map[string]string{"chain": "P"})
	require.Nil(t, reply["error"], "%v", reply)
	waitHealth(t, ctx, http.StatusOK, "")
}
