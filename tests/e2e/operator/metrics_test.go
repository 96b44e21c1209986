package operator

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestOperatorPrometheusMetricsThroughNode checks that avadata's follower and
// HTTP metrics reach the node's own Prometheus endpoint.
func TestOperatorPrometheusMetricsThroughNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	harness.Get(t, ctx, env.Base(t)+"/v1/status") // at least one request counted
	r := harness.Get(t, ctx, env.URI(t)+"/ext/metrics")
	require.Equal(t, http.StatusOK, r.Status)
	for _, name := range []string{
		"avadata_follower_indexed_height", "avadata_follower_node_height", "avadata_follower_lag_blocks",
		"avadata_follower_blocks_per_second", "avadata_follower_blocks_total",
	} {
		require.Contains(t, string(r.Body), name)
	}
	require.Regexp(t, `avadata_follower_indexed_height\{[^}]*indexed_chain="C"[^}]*\}`, string(r.Body))
}
