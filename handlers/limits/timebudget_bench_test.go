package limits_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/handlers/limits"
)

// BenchmarkTimeBudgetDeepHandler serves, within a time budget, a handler
// whose calls go as deep as a store read's (about 12 kB of stack), as every
// request's handler runs: in a goroutine of its own.
func BenchmarkTimeBudgetDeepHandler(b *testing.B) {
	budget := limits.NewTimeBudget(time.Minute, logging.NoLog{})
	h := budget.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte{deep(48)})
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	b.ReportAllocs()
	for range b.N {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}

// deep recurses n frames of about 256 bytes each.
//
//go:noinline
func deep(n int) byte {
	var frame [240]byte
	frame[n%len(frame)] = byte(n)
	if n == 0 {
		return frame[0]
	}
	return deep(n-1) + frame[n%len(frame)]
}
