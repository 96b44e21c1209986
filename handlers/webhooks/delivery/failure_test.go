package delivery

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/store"
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
	reg := prometheus.NewRegistry()
	cfg.Metrics = reg
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
	// Every attempt before the receiver took the head event failed (a few
	// may have come after the snapshot above).
	attemptsOfHead := 0
	for _, d := range got {
		if d.n == 0 {
			attemptsOfHead++
		}
	}
	want := append(slices.Repeat([]int{0}, attemptsOfHead), 1, 2)
	require.Equal(want, numbers(got))
	eventually(t, "every event acknowledged", func() bool { return outboxLen(t, st, h) == 0 })
	families, err := reg.Gather()
	require.NoError(err)
	byResult, attempts := map[string]float64{}, uint64(0)
	for _, f := range families {
		for _, m := range f.GetMetric() {
			switch f.GetName() {
			case "webhook_deliveries_total":
				byResult[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
			case "webhook_delivery_seconds":
				attempts = m.GetHistogram().GetSampleCount()
			}
		}
	}
	require.Equal(float64(attemptsOfHead-1), byResult["failed"], "the metrics count every attempt")
	require.Equal(float64(3), byResult["delivered"])
	require.Equal(uint64(attemptsOfHead+2), attempts)
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
	_, failing, err := st.WebhookFailingSince(ctx, h.ID)
	require.NoError(err)
	require.False(failing, "made inactive, its run of failures ended")
	stopped := len(rc.deliveries())
	time.Sleep(200 * time.Millisecond)
	require.Len(rc.deliveries(), stopped, "an inactive webhook is not tried again")

	// Made active again, it delivers what waited, first.
	rc.setAnswer(nil)
	_, err = st.UpdateWebhook(ctx, h.ID, h.Chain, 0, func(w webhookdata.Webhook) (webhookdata.Webhook, error) {
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
	cfg.ResponseTimeout = 3 * time.Second
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

// TestDeliveryCountsARunOfFailuresAcrossARestart restarts the node (runner
// and store) in the middle of a run of failures: the run goes on from
// where it began, so the webhook is made inactive at its start plus the
// maximum age, not a maximum age after the restart.
func TestDeliveryCountsARunOfFailuresAcrossARestart(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	cfg := testConfig()
	cfg.MaxAge = 3 * time.Second
	st, rc, h, stop, since := startRunOfFailures(t, dir, cfg, http.StatusServiceUnavailable)
	// Restart more than a second into the run: a count begun afresh would
	// name another second than the run's start.
	time.Sleep(time.Until(since.Add(1500 * time.Millisecond)))
	stop()
	require.NoError(st.Close())

	st = openStore(t, dir)
	defer st.Close()
	kept, found, err := st.WebhookFailingSince(ctx, h.ID)
	require.NoError(err)
	require.True(found)
	require.True(since.Equal(kept), "the run's start survives the restart")
	before := len(rc.deliveries())
	restarted := time.Now()
	runRunner(t, st, cfg)
	w := waitInactive(t, st, h)
	inactiveAt := time.Now()
	require.Greater(len(rc.deliveries()), before, "the restarted runner tried again")
	require.Contains(w.StatusReason, "failed continuously since "+since.UTC().Format(time.RFC3339),
		"the reason names the run's start, before the restart")
	require.False(inactiveAt.Before(since.Add(cfg.MaxAge)), "not before the maximum age")
	t.Logf("inactive %s after the run began (restarted %s into it; a fresh count would need %s)",
		inactiveAt.Sub(since), restarted.Sub(since), restarted.Sub(since)+cfg.MaxAge)
	_, found, err = st.WebhookFailingSince(ctx, h.ID)
	require.NoError(err)
	require.False(found, "made inactive, the run ended: made active again, it starts a fresh clock")
}

// TestDeliveryMakesAWebhookInactiveAtOnceWhenItsRunOutlastedTheDowntime
// keeps the node down for longer than the maximum age in the middle of a
// run of failures: after the restart, the first attempt that fails makes
// the webhook inactive.
func TestDeliveryMakesAWebhookInactiveAtOnceWhenItsRunOutlastedTheDowntime(t *testing.T) {
	require := require.New(t)
	dir := t.TempDir()
	cfg := testConfig()
	cfg.MaxAge = time.Second
	st, rc, h, stop, since := startRunOfFailures(t, dir, cfg, http.StatusBadGateway)
	stop()
	require.NoError(st.Close())
	time.Sleep(time.Until(since.Add(cfg.MaxAge)))

	st = openStore(t, dir)
	defer st.Close()
	before := len(rc.deliveries())
	runRunner(t, st, cfg)
	w := waitInactive(t, st, h)
	require.Contains(w.StatusReason, "HTTP 502")
	time.Sleep(200 * time.Millisecond) // several rescans
	require.Len(rc.deliveries(), before+1, "one more failed attempt, no new run of failures")
}

// startRunOfFailures runs a runner with cfg over a store in dir that holds
// a webhook with an event for a receiver answering status, until the run
// of failures is recorded; since is its start.
func startRunOfFailures(t *testing.T, dir string, cfg Config, status int) (
	st *store.Store, rc *receiver, h webhookdata.Webhook, stop func(), since time.Time,
) {
	t.Helper()
	st = openStore(t, dir)
	rc = newReceiver(t)
	rc.setAnswer(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) })
	h = createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 1, 1)
	stop = runRunner(t, st, cfg)
	eventually(t, "the run of failures recorded", func() bool {
		s, found, err := st.WebhookFailingSince(context.Background(), h.ID)
		since = s
		return err == nil && found
	})
	return st, rc, h, stop, since
}
