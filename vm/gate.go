package vm

import (
	"net/http"
	"sync"
)

// requestGate counts the requests in flight so that Shutdown can wait for
// them before it closes the store, and turns away requests that arrive once
// shutdown has begun.
type requestGate struct {
	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
}

func (g *requestGate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.inflight.Add(1)
	return true
}

// wrap serves h through the gate.
func (g *requestGate) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.enter() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message":"avadata is shutting down","error":"Service Unavailable","statusCode":503}`))
			return
		}
		defer g.inflight.Done()
		h.ServeHTTP(w, r)
	})
}

// close turns away new requests; the returned channel closes once the
// requests in flight have finished.
func (g *requestGate) close() <-chan struct{} {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	done := make(chan struct{})
	go func() {
		g.inflight.Wait()
		close(done)
	}()
	return done
}
