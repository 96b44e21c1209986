package vm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/follower"
)

// The node's health check and the API's data-health-check judge alike.
func TestHealthServesTheNodeCheckAndTheAPI(t *testing.T) {
	require := require.New(t)
	vm, _ := newTestVM(t, `{"chains":["P","C"]}`)
	vm.startedAt = time.Now().Add(-2 * healthGrace)

	indicators := vm.Health()
	require.Len(indicators, 3, "two followers and the signature aggregator")
	for _, ind := range indicators[:2] {
		require.IsType(follower.Status{}, ind.Details)
		require.Contains(ind.Problem, "follower "+ind.Name+" is not running")
	}
	require.Equal("signatureAggregator", indicators[2].Name)
	_, err := vm.HealthCheck(context.Background())
	require.ErrorContains(err, indicators[0].Problem)

	handlers, err := vm.CreateHandlers(context.Background())
	require.NoError(err)
	for _, path := range []string{"/ext/bc/data/v1/health-check", "/ext/bc/data/v1/live-check"} {
		rec := httptest.NewRecorder()
		handlers[catchAllKey].ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		require.Equal(http.StatusServiceUnavailable, rec.Code, path)
		require.Contains(rec.Body.String(), `"status":"error"`, path)
		require.Contains(rec.Body.String(), "follower P is not running", path)
	}

	require.False(vm.ShuttingDown())
	require.NoError(vm.Shutdown(context.Background()))
	require.True(vm.ShuttingDown())
}
