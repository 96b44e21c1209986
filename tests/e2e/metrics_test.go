package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPrometheusMetricsThroughNode checks that avadata's follower and HTTP
// metrics reach the node's own Prometheus endpoint.
func TestPrometheusMetricsThroughNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	get(t, ctx, env.base+"/v1/status") // at least one request counted
	r := get(t, ctx, env.uri+"/ext/metrics")
	require.Equal(t, http.StatusOK, r.status)
	for _, name := range []string{
		"avadata_follower_indexed_height", "avadata_follower_node_height", "avadata_follower_lag_blocks",
		"avadata_follower_blocks_per_second", "avadata_follower_blocks_total",
	} {
		require.Contains(t, string(r.body), name)
	}
	require.Regexp(t, `avadata_follower_indexed_height\{[^}]*indexed_chain="C"[^}]*\}`, string(r.body))
}
