package delivery

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/webhookdata"
)

func TestDeliveryRetriesTheHeadEventWithBackoff(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	rc.setAnswer(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) })
	h := createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 3, 1)
	cfg := testConfig()
	cfg.MinBackoff, cfg.MaxBackoff = 20*time.Millisecond, 160*time.Millisecond
	runRunner(t, st, cfg)
	failed := rc.waitFor(t, "retries", atLeast(8))
	rc.setAnswer(nil)
	got := rc.waitFor(t, "the events once the receiver takes them", func(d []delivery) bool { return len(d) >= len(failed)+3 })

	for _, d := range failed {
		require.Equal(0, d.n, "the head event blocks the queue while it fails")
	}
	// Waits are drawn below a doubling bound, so over a run of failures
	// they total no more than the bounds do.
	bound, total := cfg.MinBackoff, time.Duration(0)
	for range len(failed) - 1 {
		total += bound
		bound = min(2*bound, cfg.MaxBackoff)
	}
	require.LessOrEqual(failed[len(failed)-1].at.Sub(failed[0].at), total+time.Second)
	require.Equal(append(numbers(failed), 0, 1, 2), numbers(got))
	eventually(t, "every event acknowledged", func() bool { return outboxLen(t, st, h) == 0 })
}

func TestBackoffDoublesUpToItsCapWithFullJitter(t *testing.T) {
	b := backoff{min: time.Second, max: 8 * time.Second}
	for _, bound := range []time.Duration{1, 2, 4, 8, 8, 8} {
		d := b.next()
		require.Positive(t, d)
		require.LessOrEqual(t, d, bound*time.Second)
	}
	b.reset()
	require.LessOrEqual(t, b.next(), time.Second)
	// Full jitter: the waits spread over the whole range.
	var short, long int
	for range 1000 {
		b := backoff{min: time.Second, max: time.Second}
		if d := b.next(); d < 250*time.Millisecond {
			short++
		} else if d > 750*time.Millisecond {
			long++
		}
	}
	require.Greater(t, short, 100)
	require.Greater(t, long, 100)
}

func TestDeliveryMakesAWebhookFailingPastTheMaxAgeInactive(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	rc.setAnswer(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	h := createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 2, 1)
	cfg := testConfig()
	cfg.MaxAge = 300 * time.Millisecond
	start := time.Now()
	runRunner(t, st, cfg)
	w := waitInactive(t, st, h)
	require.GreaterOrEqual(time.Since(start), cfg.MaxAge)
	require.Contains(w.StatusReason, "HTTP 503")
	require.Contains(w.StatusReason, "failed continuously since")
	require.Equal(2, outboxLen(t, st, h), "the undelivered events stay")
	stopped := len(rc.deliveries())
	time.Sleep(200 * time.Millisecond)
	require.Len(rc.deliveries(), stopped, "an inactive webhook is not tried again")

	// Made active again, it delivers what waited, first.
	rc.setAnswer(nil)
	_, err := st.UpdateWebhook(ctx, h.ID, h.Chain, 0, func(w webhookdata.Webhook) (webhookdata.Webhook, error) {
		w.Status, w.StatusReason = webhookdata.Active, ""
		return w, nil
	})
	require.NoError(err)
	got := rc.waitFor(t, "the waiting events", atLeast(stopped+2))
	require.Equal([]int{0, 1}, numbers(got[stopped:]))
}

func TestDeliveryTimesOutAHangingReceiverWithoutDelayingOthers(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	hanging, healthy := newReceiver(t), newReceiver(t)
	release := make(chan struct{})
	defer close(release)
	var open atomic.Int32
	hanging.setAnswer(func(w http.ResponseWriter, r *http.Request) {
		open.Add(1)
		defer open.Add(-1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	slow, fast := createHook(t, st, hanging.URL), createHook(t, st, healthy.URL)
	cfg := testConfig()
	cfg.ResponseTimeout = 1500 * time.Millisecond
	runRunner(t, st, cfg)
	writeEvents(t, st, slow, 0, 2, 1)
	hanging.waitFor(t, "the hanging delivery", atLeast(1))
	// While the first delivery hangs, the other webhook's events go out
	// as they are written.
	for n := range 20 {
		writeEvents(t, st, fast, n, n+1, 1)
		healthy.waitFor(t, "the healthy webhook's event", atLeast(n+1))
	}
	require.Len(hanging.deliveries(), 1, "still the first attempt")
	require.Equal(int32(1), open.Load(), "and it still hangs")

	// The hang ends at the response timeout; the event is tried again.
	got := hanging.waitFor(t, "a retry after the timeout", atLeast(2))
	require.Equal([]int{0, 0}, numbers(got[:2]))
	// (The timeout counts from before the request reached the receiver.)
	require.GreaterOrEqual(got[1].at.Sub(got[0].at), cfg.ResponseTimeout-100*time.Millisecond)
	require.Equal(2, outboxLen(t, st, slow))
}

func TestDeliveryTreatsARedirectAsAFailure(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	target := newReceiver(t)
	rc := newReceiver(t)
	rc.setAnswer(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	})
	h := createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 1, 1)
	cfg := testConfig()
	cfg.MaxAge = 200 * time.Millisecond
	runRunner(t, st, cfg)
	w := waitInactive(t, st, h)
	require.Contains(w.StatusReason, "HTTP 307")
	require.Empty(target.deliveries(), "a redirect is never followed")
	require.NotEmpty(rc.deliveries())
	require.Equal(1, outboxLen(t, st, h))
}

func TestDeliveryReadsALongAnswerOnlyUpToTheLimit(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	var written atomic.Int64
	wrote := make(chan error, 10)
	rc := newReceiver(t)
	rc.setAnswer(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat("x", 32<<10))
		for range 64 << 10 { // up to 2 GiB: only a reader that stops early ends it
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				wrote <- err
				return
			}
			w.(http.Flusher).Flush()
		}
		wrote <- nil
	})
	h := createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 2, 1)
	runRunner(t, st, testConfig())
	rc.waitFor(t, "both events", atLeast(2))
	eventually(t, "both acknowledged", func() bool { return outboxLen(t, st, h) == 0 })
	require.Error(<-wrote, "the sender dropped the connection")
	require.Less(written.Load(), int64(64<<20), "the answer was not read to its end")
}

// TestDeliveryIsAtLeastOnceAcrossARestart stops a runner while a delivery
// is in flight (the node shut down or killed mid-delivery): the event is
// still in the outbox, and the next runner sends it, then the rest, in
// order.
func TestDeliveryIsAtLeastOnceAcrossARestart(t *testing.T) {
	require := require.New(t)
	dir := t.TempDir()
	st := openStore(t, dir)
	rc := newReceiver(t)
	h := createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 10, 2)
	var calls atomic.Int32
	taken := make(chan struct{})
	rc.setAnswer(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 4 { // the 4th event arrives, its answer never leaves
			close(taken)
			<-r.Context().Done()
		}
	})
	stop := runRunner(t, st, testConfig())
	<-taken
	stop()
	require.NoError(st.Close())

	st = openStore(t, dir)
	defer st.Close()
	require.Equal(7, outboxLen(t, st, h), "the event in flight was not acknowledged")
	runRunner(t, st, testConfig())
	got := rc.waitFor(t, "the rest", atLeast(11))
	require.Equal([]int{0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9}, numbers(got),
		"the event in flight is sent again, then the rest in order")
	require.Len(got, 11)
	// A repeat carries the same messageId: the receiver can drop it.
	require.Equal(got[3].body, got[4].body)
}
