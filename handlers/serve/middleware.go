package serve

import (
	"fmt"
	"net/http"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
)

// statusRecorder remembers the status a handler wrote, for logs and metrics,
// and whether anything was written yet, so panic recovery knows if it can
// still send an error body.
type statusRecorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
}

func (rec *statusRecorder) WriteHeader(status int) {
	if rec.wroteHeader {
		return
	}
	rec.status = status
	rec.wroteHeader = true
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *statusRecorder) Write(b []byte) (int, error) {
	if !rec.wroteHeader {
		rec.WriteHeader(http.StatusOK)
	}
	return rec.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the node's writer.
func (rec *statusRecorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// observeRequests logs every request at debug level and feeds the request
// metrics. It must wrap recoverPanics so that recovered panics are counted
// as the 500s they become.
func observeRequests(log logging.Logger, metrics *apiMetrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		elapsed := time.Since(start)

		info := api.RequestInfoFrom(r.Context())
		route := info.Route
		metrics.observe(route, rec.status, elapsed, info.Client)
		log.Debug("served API request",
			zap.String("method", r.Method),
			zap.String("path", r.URL.Path),
			zap.String("route", route),
			zap.Int("status", rec.status),
			zap.Duration("duration", elapsed),
		)
	})
}

// recoverPanics turns a panicking handler into a 500 error body instead of a
// dropped connection, and logs the panic with its stack. It expects to run
// inside observeRequests, which provides the statusRecorder.
func recoverPanics(log logging.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			recovered := recover()
			if recovered == nil {
				return
			}
			if recovered == http.ErrAbortHandler { //nolint:errorlint // sentinel compared as net/http does
				panic(recovered) // net/http's way to abort a response on purpose
			}
			log.Error("panic while serving API request",
				zap.String("method", r.Method),
				zap.String("path", r.URL.Path),
				zap.String("panic", fmt.Sprint(recovered)),
				zap.Stack("stack"),
			)
			if rec, ok := w.(*statusRecorder); ok && rec.wroteHeader {
				return // too late for an error body; the client sees a short reply
			}
			api.WriteError(w, r, http.StatusInternalServerError, "internal error; see the node's log")
		}()
		next.ServeHTTP(w, r)
	})
}
