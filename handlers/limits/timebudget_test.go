package limits_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/limits"
)

// budgetRequest is a request as the time budget gets it: with its info.
func budgetRequest(metricsService bool) *http.Request {
	req := httptest.NewRequest(http.MethodGet, "http://node/v1/status", nil)
	return req.WithContext(api.WithRequestInfo(req.Context(), &api.RequestInfo{MetricsService: metricsService}))
}

func TestTimeBudgetPassesRepliesThrough(t *testing.T) {
	budget := limits.NewTimeBudget(time.Second, logging.NoLog{})
	h := budget.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, hasDeadline := r.Context().Deadline()
		require.True(t, hasDeadline, "the handler runs under the budget's deadline")
		w.Header().Set("X-Test", "yes")
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", api.ContentTypeJSON) // as prepareRequests sets it
	h.ServeHTTP(rec, budgetRequest(false))
	require.Equal(t, http.StatusTeapot, rec.Code)
	require.Equal(t, "yes", rec.Header().Get("X-Test"))
	require.Equal(t, api.ContentTypeJSON, rec.Header().Get("Content-Type"))
	require.JSONEq(t, `{"ok":true}`, rec.Body.String())
	<-budget.Idle()
}

func TestTimeBudgetEndsRequestsThatIgnoreIt(t *testing.T) {
	budget := limits.NewTimeBudget(50*time.Millisecond, logging.NoLog{})
	release := make(chan struct{})
	lateWrite := make(chan error, 2) // one per request below
	h := budget.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		<-release // ignores its context
		_, err := w.Write([]byte("too late"))
		lateWrite <- err
	}))
	for _, metricsService := range []bool{false, true} {
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, budgetRequest(metricsService))
		require.Less(t, time.Since(start), 5*time.Second)
		if metricsService {
			handlertest.RequireMetricsError(t, rec, http.StatusServiceUnavailable, "did not finish within 50ms")
		} else {
			handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable, "did not finish within 50ms")
		}
	}
	idle := budget.Idle()
	select {
	case <-idle:
		t.Fatal("idle while handlers still run")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-idle
	require.ErrorIs(t, <-lateWrite, http.ErrHandlerTimeout)
	require.ErrorIs(t, <-lateWrite, http.ErrHandlerTimeout)
}

func TestTimeBudgetPanics(t *testing.T) {
	budget := limits.NewTimeBudget(50*time.Millisecond, logging.NoLog{})
	boom := errors.New("boom")
	h := budget.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(boom) }))
	require.PanicsWithValue(t, boom, func() { h.ServeHTTP(httptest.NewRecorder(), budgetRequest(false)) },
		"a panic in time reaches the request's goroutine (and recoverPanics)")

	release := make(chan struct{})
	h = budget.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		<-release
		panic(boom) // after the budget: logged, never crashes the plugin
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, budgetRequest(false))
	handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable)
	close(release)
	<-budget.Idle()
}

func TestTimeBudgetClientGone(t *testing.T) {
	budget := limits.NewTimeBudget(time.Minute, logging.NoLog{})
	h := budget.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	ctx, cancel := context.WithCancel(context.Background())
	req := budgetRequest(false).WithContext(api.WithRequestInfo(ctx, &api.RequestInfo{}))
	cancel()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable, "cancelled")
	<-budget.Idle()
}
