package metrics

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/follower"
)

// fakeHealth is an api.HealthReporter with set answers.
type fakeHealth struct {
	indicators   []api.HealthIndicator
	shuttingDown bool
}

func (f *fakeHealth) Health() []api.HealthIndicator { return f.indicators }
func (f *fakeHealth) ShuttingDown() bool            { return f.shuttingDown }

func newHealthTestAPI(t *testing.T, fakes *handlertest.Fakes, health api.HealthReporter) *handlertest.API {
	t.Helper()
	return handlertest.NewAPI(t, handlertest.Config(), fakes, func(core *api.Core) []api.Route { return HealthRoutes(core, health) })
}

func TestMetricsHealthAndLiveCheck(t *testing.T) {
	fakes := handlertest.NewFakes()
	fakes.FollowerStatuses = []follower.Status{
		{Chain: 1, ChainName: "C", Running: true, IndexedHeight: 10, NodeHeight: 5010, Lag: 5000},
		{Chain: 2, ChainName: "P", Paused: true},
	}
	get := func(srv *handlertest.API, path string, status int) api.HealthCheckResult {
		var res api.HealthCheckResult
		handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/metrics/v2/"+path), status, &res)
		return res
	}

	// Without a reporter both judge the followers by whether they run.
	srv := newHealthTestAPI(t, fakes, nil)
	for _, path := range []string{"health-check", "live-check"} {
		res := get(srv, path, http.StatusOK)
		require.Equal(t, "ok", res.Status)
		require.Equal(t, "up", res.Info["C"].Status)
		require.Equal(t, "up", res.Details["P"].Status)
		require.Empty(t, res.Error)
	}

	// The reporter judges the health check (the lag); live-check still
	// answers by what is served.
	health := &fakeHealth{indicators: []api.HealthIndicator{
		{Name: "C", Problem: "follower C lags 5000 blocks", Details: fakes.FollowerStatuses[0]},
		{Name: "P", Details: fakes.FollowerStatuses[1]},
	}}
	srv = newHealthTestAPI(t, fakes, health)
	res := get(srv, "health-check", http.StatusServiceUnavailable)
	require.Equal(t, "error", res.Status)
	require.Equal(t, "down", res.Error["C"].Status)
	require.Equal(t, "follower C lags 5000 blocks", res.Error["C"].Message)
	require.Equal(t, "up", res.Info["P"].Status)
	require.Equal(t, "ok", get(srv, "live-check", http.StatusOK).Status)

	// A stopped follower is down for both.
	fakes.FollowerStatuses[1] = follower.Status{Chain: 2, ChainName: "P", LastError: "boom"}
	srv = newHealthTestAPI(t, fakes, nil)
	for _, path := range []string{"health-check", "live-check"} {
		res := get(srv, path, http.StatusServiceUnavailable)
		require.Equal(t, "error", res.Status)
		require.Contains(t, res.Error["P"].Message, "boom")
	}

	health.shuttingDown = true
	srv = newHealthTestAPI(t, fakes, health)
	require.Equal(t, "shutting_down", get(srv, "live-check", http.StatusServiceUnavailable).Status)
}
