package handlers

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// fakeHealth is a HealthReporter with set answers.
type fakeHealth struct {
	indicators   []HealthIndicator
	shuttingDown bool
}

func (f *fakeHealth) Health() []HealthIndicator { return f.indicators }
func (f *fakeHealth) ShuttingDown() bool        { return f.shuttingDown }

func newHealthAPI(t *testing.T, fakes *handlertest.Fakes, health HealthReporter) *handlertest.API {
	t.Helper()
	backend := readers(fakes)
	backend.Health = health
	h, err := New(Config{Config: handlertest.Config()}, backend, nil, logging.NoLog{}, prometheus.NewRegistry())
	require.NoError(t, err)
	return &handlertest.API{Handler: h, Fakes: fakes}
}

func TestDataHealthCheckReportsTheVMsJudgement(t *testing.T) {
	c := follower.Status{ChainName: "C", IndexedHeight: 90, NodeHeight: 100, Lag: 10, Running: true}
	health := &fakeHealth{indicators: []HealthIndicator{
		{Name: "C", Details: c},
		{Name: "signatureAggregator", Details: map[string]any{"connected": 3}},
	}}
	srv := newHealthAPI(t, handlertest.NewFakes(), health)
	rec := srv.Get(t, "/ext/bc/data/v1/health-check")
	require.Equal(t, http.StatusOK, rec.Code)
	require.JSONEq(t, `{"status": "ok",
		"info": {"C": {"status": "up", "indexedHeight": 90, "nodeHeight": 100, "lag": 10}, "signatureAggregator": {"status": "up"}},
		"error": {},
		"details": {"C": {"status": "up", "indexedHeight": 90, "nodeHeight": 100, "lag": 10}, "signatureAggregator": {"status": "up"}}
	}`, rec.Body.String())
	require.Empty(t, rec.Header().Get("X-Indexed-Height"), "health reads no index stream")

	health.indicators[0].Problem = "follower C is stuck: no progress for 3m0s"
	rec = srv.Get(t, "/ext/bc/data/v1/health-check")
	require.Equal(t, http.StatusServiceUnavailable, rec.Code, "a load balancer sees the failure")
	require.JSONEq(t, `{"status": "error",
		"info": {"signatureAggregator": {"status": "up"}},
		"error": {"C": {"status": "down", "message": "follower C is stuck: no progress for 3m0s", "indexedHeight": 90, "nodeHeight": 100, "lag": 10}},
		"details": {"C": {"status": "down", "message": "follower C is stuck: no progress for 3m0s", "indexedHeight": 90, "nodeHeight": 100, "lag": 10},
		            "signatureAggregator": {"status": "up"}}
	}`, rec.Body.String())

	health.shuttingDown = true
	rec = srv.Get(t, "/ext/bc/data/v1/health-check")
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Contains(t, rec.Body.String(), `"status":"shutting_down"`)
}

func TestHealthChecksWithoutReporterJudgeWhetherFollowersRun(t *testing.T) {
	fakes := handlertest.NewFakes()
	fakes.SetIndexedHeight(netinfo.C, 10)
	fakes.FollowerStatuses = append(fakes.FollowerStatuses,
		follower.Status{ChainName: "P", Paused: true},
		follower.Status{ChainName: "X", LastError: "the node's index API is off"})
	srv := newTestAPI(t, handlertest.Config(), fakes, nil)
	for _, path := range []string{"/ext/bc/data/v1/health-check", "/ext/bc/data/v1/live-check"} {
		rec := srv.Get(t, path)
		require.Equal(t, http.StatusServiceUnavailable, rec.Code, path)
		require.JSONEq(t, `{"status": "error",
			"info": {"C": {"status": "up", "indexedHeight": 10, "nodeHeight": 0, "lag": 0}, "P": {"status": "up", "indexedHeight": 0, "nodeHeight": 0, "lag": 0}},
			"error": {"X": {"status": "down", "message": "follower X is not running: the node's index API is off", "indexedHeight": 0, "nodeHeight": 0, "lag": 0}},
			"details": {"C": {"status": "up", "indexedHeight": 10, "nodeHeight": 0, "lag": 0}, "P": {"status": "up", "indexedHeight": 0, "nodeHeight": 0, "lag": 0},
			            "X": {"status": "down", "message": "follower X is not running: the node's index API is off", "indexedHeight": 0, "nodeHeight": 0, "lag": 0}}
		}`, rec.Body.String(), path)
	}
	fakes.FollowerStatuses = fakes.FollowerStatuses[:2]
	rec := srv.Get(t, "/ext/bc/data/v1/live-check")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), `"status":"ok"`)
}

func TestLiveCheckIgnoresLagButNotShutdown(t *testing.T) {
	fakes := handlertest.NewFakes()
	fakes.FollowerStatuses = []follower.Status{{ChainName: "C", IndexedHeight: 1, NodeHeight: 5000, Lag: 4999, Running: true}}
	health := &fakeHealth{indicators: []HealthIndicator{{Name: "C", Problem: "follower C lags 4999 blocks", Details: fakes.FollowerStatuses[0]}}}
	srv := newHealthAPI(t, fakes, health)
	require.Equal(t, http.StatusServiceUnavailable, srv.Get(t, "/ext/bc/data/v1/health-check").Code)
	require.Equal(t, http.StatusOK, srv.Get(t, "/ext/bc/data/v1/live-check").Code, "a lagging follower still serves what it indexed")
	health.shuttingDown = true
	rec := srv.Get(t, "/ext/bc/data/v1/live-check")
	require.Equal(t, http.StatusServiceUnavailable, rec.Code)
	require.Contains(t, rec.Body.String(), `"status":"shutting_down"`)
}
