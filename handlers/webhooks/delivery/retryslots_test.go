package delivery

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDeliveryKeepsHealthyWebhooksFreeOfHangingOnes has more hanging
// receivers than the delivery concurrency: once each has timed out, their
// retries go through the retry slots, so they hold at most that many
// deliveries at once and a healthy webhook's events go out as they are
// written, never waiting for a hang to end.
func TestDeliveryKeepsHealthyWebhooksFreeOfHangingOnes(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	cfg := testConfig()
	cfg.Concurrency = 4 // a retry slot
	cfg.ResponseTimeout = 3 * time.Second
	const hangingHooks = 6

	// The hanging receivers: each answers nothing until the delivery's
	// timeout cuts it off. open counts their requests in flight; once
	// measuring, most is the largest number seen at once.
	var (
		mu        sync.Mutex
		open      int
		most      int
		measuring bool
		timedOut  = make([]int, hangingHooks)
	)
	release := make(chan struct{})
	defer close(release)
	for i := range hangingHooks {
		rc := newReceiver(t)
		rc.setAnswer(func(_ http.ResponseWriter, r *http.Request) {
			mu.Lock()
			open++
			if measuring {
				most = max(most, open)
			}
			mu.Unlock()
			select {
			case <-r.Context().Done():
			case <-release:
			}
			mu.Lock()
			open--
			timedOut[i]++
			mu.Unlock()
		})
		writeEvents(t, st, createHook(t, st, rc.URL), 0, 1, 1)
	}
	healthy := newReceiver(t)
	fast := createHook(t, st, healthy.URL)
	runRunner(t, st, cfg)

	// Their first attempts take the shared slots; once each timed out,
	// every hanging webhook is in a run of failures.
	eventually(t, "every hanging receiver's first timeout", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, n := range timedOut {
			if n == 0 {
				return false
			}
		}
		measuring, most = true, open
		return true
	})

	var latencies []time.Duration
	for n := range 20 {
		written := time.Now()
		writeEvents(t, st, fast, n, n+1, 1)
		got := healthy.waitFor(t, "the healthy webhook's event", atLeast(n+1))
		latency := got[n].at.Sub(written)
		latencies = append(latencies, latency)
		// Generous (it takes well under a millisecond here): a delivery
		// that waited for a slot a hanging one held would wait for most of
		// that delivery's timeout.
		require.Less(latency, cfg.ResponseTimeout/2, "event %d did not wait for a hang to end", n)
	}
	require.Equal(seq(0, 20), numbers(healthy.deliveries()))
	mu.Lock()
	defer mu.Unlock()
	// A hang's handler notices its cut-off a moment after the runner gave
	// up on it and may have begun the next retry: one more at once is that
	// moment, not a second slot (without the retry slots there would be
	// the concurrency, 4).
	require.LessOrEqual(most, cfg.retryConcurrency()+1, "the hanging webhooks' deliveries at once")
	t.Logf("healthy webhook latencies with %d hanging receivers, concurrency %d (retry slots %d): %v",
		hangingHooks, cfg.Concurrency, cfg.retryConcurrency(), latencies)
}
