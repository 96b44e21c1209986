package explorer

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

func TestCallRefusesASegmentThatIsNotOne(t *testing.T) {
	asked := 0
	s := &server{apiRoutes: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		api.WriteJSON(w, http.StatusOK, map[string]any{})
	})}
	for _, seg := range []string{"a/b", "/", "..", ".", ""} {
		_, err := s.get(context.Background(), call(nil, "v1", "chains", seg, "blocks"))
		var apiErr *api.Error
		require.True(t, errors.As(err, &apiErr), "%q: %v", seg, err)
		require.Equal(t, http.StatusBadRequest, apiErr.Status, "%q", seg)
		require.Contains(t, apiErr.Message, "invalid value '"+seg+"'")
	}
	require.Zero(t, asked, "a refused call reaches no route")
	_, err := s.get(context.Background(), call(nil, "v1", "chains", "43112", "blocks"))
	require.NoError(t, err)
	require.Equal(t, 1, asked)
}

func TestRunAllBoundsConcurrencyAndRecoversPanics(t *testing.T) {
	var running, most atomic.Int32
	tasks := make([]func() error, 3*apiParallel)
	for i := range tasks {
		tasks[i] = func() error {
			now := running.Add(1)
			defer running.Add(-1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			time.Sleep(5 * time.Millisecond)
			if i == 5 {
				panic("boom")
			}
			return nil
		}
	}
	errs := runAll(context.Background(), tasks...)
	require.LessOrEqual(t, most.Load(), int32(apiParallel))
	require.Greater(t, most.Load(), int32(1), "the tasks ran concurrently")
	for i, err := range errs {
		if i == 5 {
			require.EqualError(t, err, "panic: boom")
		} else {
			require.NoError(t, err, "task %d", i)
		}
	}
}

func TestGetAllNamesTheCallThatPanicked(t *testing.T) {
	s := &server{apiRoutes: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/bad" {
			panic("boom")
		}
		api.WriteJSON(w, http.StatusOK, map[string]any{"path": r.URL.Path})
	})}
	replies := s.getAll(context.Background(), call(nil, "v1", "good"), call(nil, "v1", "bad"))
	require.NoError(t, replies[0].Err)
	require.Equal(t, "/v1/good", replies[0].Body["path"])
	require.EqualError(t, replies[1].Err, "reading /v1/bad: panic: boom")
}

// barrierAPI holds each of the paths until all of them are being asked at
// once (together is then set), or for a while: reads made one after
// another never have them all in flight.
type barrierAPI struct {
	http.Handler
	wait     map[string]bool
	mu       sync.Mutex
	asked    map[string]int
	inFlight map[string]int
	arrived  chan struct{}
	together atomic.Bool
}

func newBarrierAPI(h http.Handler, paths ...string) *barrierAPI {
	b := &barrierAPI{Handler: h, wait: map[string]bool{}, asked: map[string]int{}, inFlight: map[string]int{},
		arrived: make(chan struct{})}
	for _, p := range paths {
		b.wait[p] = true
	}
	return b
}

func (b *barrierAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	b.mu.Lock()
	b.asked[path]++
	b.inFlight[path]++
	all := true
	for p := range b.wait {
		all = all && b.inFlight[p] > 0
	}
	if all && !b.together.Load() {
		b.together.Store(true)
		close(b.arrived)
	}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.inFlight[path]--
		b.mu.Unlock()
	}()
	if b.wait[path] {
		select {
		case <-b.arrived:
		case <-time.After(2 * time.Second):
		}
	}
	b.Handler.ServeHTTP(w, r)
}
