package operator

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
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
	r := harness.Get(t, ctx, env.URI(t)+"/ext/health?tag="+env.Net(t).SubnetID().String())
	var h nodeHealth
	r.Decode(t, &h)
	check, ok := h.Checks[env.Net(t).ChainID().String()]
	require.True(t, ok, "no avadata check in %s", r.Body)
	return r.Status, check.Error
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

// TestOperatorFollowerHealth checks that the plugin's check is in /ext/health
// with per-chain details, goes unhealthy (with the facts in the error text)
// when a follower is stopped, and recovers when it resumes.
func TestOperatorFollowerHealth(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	waitHealth(t, ctx, http.StatusOK, "")

	r := harness.Get(t, ctx, env.URI(t)+"/ext/health")
	var h nodeHealth
	r.Decode(t, &h)
	var message struct {
		Engine struct {
			VM struct {
				Health map[string]harness.FollowerStatus `json:"health"`
			} `json:"vm"`
		} `json:"engine"`
	}
	require.NoError(t, json.Unmarshal(h.Checks[env.Net(t).ChainID().String()].Message, &message), "%s", r.Body)
	for _, chain := range []string{"P", "X", "C"} {
		details, ok := message.Engine.VM.Health[chain]
		require.True(t, ok, "no %s details in %s", chain, r.Body)
		require.True(t, details.Running, "%s follower not running: %+v", chain, details)
	}

	reply := harness.CallAvadata(t, ctx, env.Base(t), "avadata.pauseFollower", map[string]string{"chain": "P"})
	require.Nil(t, reply["error"], "%v", reply)
	defer harness.CallAvadata(t, context.Background(), env.Base(t), "avadata.resumeFollower", map[string]string{"chain": "P"})
	text := waitHealth(t, ctx, http.StatusServiceUnavailable, "follower P is stopped")
	require.Contains(t, text, "indexed ")
	require.Contains(t, text, "lag ")
	// Readiness and liveness do not depend on chain checks.
	require.Equal(t, http.StatusOK, harness.Get(t, ctx, env.URI(t)+"/ext/health/liveness").Status)
	require.True(t, harness.AvadataStatus(t, ctx, env.Base(t))["P"].Paused)

	reply = harness.CallAvadata(t, ctx, env.Base(t), "avadata.resumeFollower", map[string]string{"chain": "P"})
	require.Nil(t, reply["error"], "%v", reply)
	waitHealth(t, ctx, http.StatusOK, "")
}
