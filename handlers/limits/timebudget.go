package limits

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
)

// TimeBudget gives every request a time budget (Config.RequestTimeout) and
// keeps it even when a handler does not: the handler runs under a context
// that ends with the budget, so store reads and node calls stop, and also in
// a goroutine of its own, writing into a buffer, so that at the end of the
// budget the client gets a 503 in the spec's error body whatever the handler
// is still doing. The reply cannot go out earlier anyway: on plain HTTP/1.1
// the node's bridge sends it only once ServeHTTP has returned.
//
// A handler that outlives its budget may still be reading the store, so
// the budget counts the handlers still running, and Idle tells the VM when
// the last one has returned; it closes the store only then.
type TimeBudget struct {
	budget  time.Duration
	log     logging.Logger
	running sync.WaitGroup
}

func NewTimeBudget(budget time.Duration, log logging.Logger) *TimeBudget {
	return &TimeBudget{budget: budget, log: log}
}

// Middleware serves next within the budget.
func (b *TimeBudget) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), b.budget)
		defer cancel()
		r = r.WithContext(ctx)
		reply := newBufferedReply(w.Header())
		b.running.Add(1)
		go b.serve(next, reply, r)

		select {
		case <-reply.done:
		case <-ctx.Done():
			if reply.abandon() {
				apiErr, _ := api.ToError(ctx.Err(), b.budget)
				api.WriteError(w, r, apiErr.Status, apiErr.Message)
				return
			}
			<-reply.done // finished just in time
		}
		if reply.panicked != nil {
			panic(reply.panicked) // for recoverPanics, as if it happened here
		}
		reply.copyTo(w)
	})
}

// serve runs the handler and reports its end; a panic goes back to the
// request's goroutine, or into the log if that one has given up.
func (b *TimeBudget) serve(next http.Handler, reply *bufferedReply, r *http.Request) {
	growStack()
	defer b.running.Done()
	defer func() {
		recovered := recover()
		if reply.finish(recovered) && recovered != nil {
			b.log.Error("panic while serving API request after its time budget",
				zap.String("method", r.Method),
				zap.String("path", r.URL.Path),
				zap.String("panic", fmt.Sprint(recovered)),
				zap.Stack("stack"),
			)
		}
	}()
	next.ServeHTTP(reply, r)
}

// handlerStack is about the stack a handler reaches (the request path's
// layers, Badger's reads, JSON encoding).
const handlerStack = 16 << 10

// growStack grows the new goroutine's stack to what a handler reaches while
// the stack is still empty. A goroutine starts with a few kilobytes and
// doubles its stack each time a call would overflow it, copying the whole
// stack and adjusting every frame: deep in a handler, at every request,
// that took ~10% of a transaction lookup's CPU. Growing it here costs one
// copy of two frames.
//
//go:noinline
func growStack() {
	var frame [handlerStack]byte
	keep(frame[:])
}

// keep uses b so that growStack's frame is not optimized away.
//
//go:noinline
func keep(b []byte) { b[0] = 1 }

// Idle returns a channel that closes once no handler is running, counting
// those that outlived their budget. Call it once no new requests come in.
func (b *TimeBudget) Idle() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		b.running.Wait()
		close(done)
	}()
	return done
}

// bufferedReply is the handler's ResponseWriter: it keeps the reply until
// the request's goroutine copies it out, and drops what a handler writes
// after its budget.
type bufferedReply struct {
	header http.Header
	done   chan struct{} // closed by finish

	mu        sync.Mutex
	status    int
	body      bytes.Buffer
	abandoned bool
	finished  bool
	panicked  any // read only after done
}

func newBufferedReply(defaults http.Header) *bufferedReply {
	return &bufferedReply{header: defaults.Clone(), done: make(chan struct{})}
}

func (b *bufferedReply) Header() http.Header { return b.header }

func (b *bufferedReply) WriteHeader(status int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.status == 0 && !b.abandoned {
		b.status = status
	}
}

func (b *bufferedReply) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.abandoned {
		return 0, http.ErrHandlerTimeout
	}
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// abandon gives up on the handler unless it has finished; it reports
// whether it did.
func (b *bufferedReply) abandon() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return false
	}
	b.abandoned = true
	return true
}

// finish records the handler's end (and panic, if any); it reports whether
// the reply had been abandoned, so nobody else will look at the panic.
func (b *bufferedReply) finish(panicked any) (abandoned bool) {
	b.mu.Lock()
	b.finished, b.panicked = true, panicked
	abandoned = b.abandoned
	b.mu.Unlock()
	close(b.done)
	return abandoned
}

// copyTo sends the finished reply to w.
func (b *bufferedReply) copyTo(w http.ResponseWriter) {
	dst := w.Header()
	clear(dst)
	for k, v := range b.header {
		dst[k] = v
	}
	status := b.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(b.body.Bytes())
}
