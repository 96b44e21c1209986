package delivery

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/safehttp/safehttptest"
	"github.com/avadata/avadata/indexer/webhookdata"
)

func TestDeliveryPostsSignedEventsInChainOrder(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	h := createHook(t, st, rc.URL+"/hook")
	// A backlog longer than a batch, several events to a block, then
	// events written while the runner runs.
	writeEvents(t, st, h, 0, 40, 3)
	stop := runRunner(t, st, testConfig())
	rc.waitFor(t, "the backlog", atLeast(40))
	writeEvents(t, st, h, 40, 60, 2)
	got := rc.waitFor(t, "the new events", atLeast(60))
	eventually(t, "every event acknowledged", func() bool { return outboxLen(t, st, h) == 0 })
	stop()

	require.Equal(seq(0, 60), numbers(got), "each event once, in the chain's order")
	secret, err := st.WebhookSecret(ctx)
	require.NoError(err)
	for _, d := range got {
		require.Equal(webhookdata.Sign(secret, d.body), d.header.Get(webhookdata.SignatureHeader))
		require.Equal("application/json", d.header.Get("Content-Type"))
		require.Equal("avadata/test (webhooks)", d.header.Get("User-Agent"))
	}
	require.Contains(string(got[0].body), `"webhookId":"`+h.ID.String()+`"`)
	require.Contains(string(got[0].body), webhookdata.MessageID(h.ID, h.ChainID, h.FromHeight, 0))
}

func TestDeliverySignsWithTheSecretOfTheMoment(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	h := createHook(t, st, rc.URL)
	old, err := st.WebhookSecret(ctx)
	require.NoError(err)
	runRunner(t, st, testConfig())
	writeEvents(t, st, h, 0, 1, 1)
	rc.waitFor(t, "the first event", atLeast(1))
	rotated, err := st.RotateWebhookSecret(ctx)
	require.NoError(err)
	writeEvents(t, st, h, 1, 2, 1)
	got := rc.waitFor(t, "the event after the rotation", atLeast(2))
	require.Equal(webhookdata.Sign(old, got[0].body), got[0].header.Get(webhookdata.SignatureHeader))
	require.Equal(webhookdata.Sign(rotated, got[1].body), got[1].header.Get(webhookdata.SignatureHeader),
		"the delivery after a rotation is signed with the new secret")
}

func TestDeliveryFollowsTheWebhooksStatusAndURL(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	st := openStore(t, t.TempDir())
	defer st.Close()
	first, second := newReceiver(t), newReceiver(t)
	runRunner(t, st, testConfig())
	// A webhook created while the runner runs gets a worker.
	h := createHook(t, st, first.URL)
	writeEvents(t, st, h, 0, 2, 1)
	first.waitFor(t, "the events", atLeast(2))

	setStatus := func(s webhookdata.Status) {
		_, err := st.UpdateWebhook(ctx, h.ID, h.Chain, 0, func(w webhookdata.Webhook) (webhookdata.Webhook, error) {
			w.Status = s
			return w, nil
		})
		require.NoError(err)
	}
	// Inactive: its events wait in the outbox.
	setStatus(webhookdata.Inactive)
	writeEvents(t, st, h, 2, 4, 1)
	time.Sleep(300 * time.Millisecond) // several rescans
	require.Len(first.deliveries(), 2, "an inactive webhook gets nothing")
	require.Equal(2, outboxLen(t, st, h))

	// Active again with another URL: the waiting events go first, there.
	_, err := st.UpdateWebhook(ctx, h.ID, h.Chain, 0, func(w webhookdata.Webhook) (webhookdata.Webhook, error) {
		w.Status, w.URL = webhookdata.Active, second.URL
		return w, nil
	})
	require.NoError(err)
	got := second.waitFor(t, "the waiting events", atLeast(2))
	require.Equal([]int{2, 3}, numbers(got))
	require.Len(first.deliveries(), 2)
}

func TestDeliveryRefusesPrivateTargetsUnlessAllowed(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	h := createHook(t, st, rc.URL)
	writeEvents(t, st, h, 0, 1, 1)
	cfg := testConfig()
	cfg.AllowPrivateTargets = false
	cfg.MaxAge = 200 * time.Millisecond
	runRunner(t, st, cfg)
	w := waitInactive(t, st, h)
	require.Contains(w.StatusReason, "not public")
	require.Empty(rc.deliveries(), "a loopback receiver is never reached")
	require.Equal(1, outboxLen(t, st, h))
}

func TestDeliveryBoundsTheRequestsInFlight(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	release := make(chan struct{})
	inFlight, most := 0, 0
	rc.setAnswer(func(w http.ResponseWriter, r *http.Request) {
		rc.mu.Lock()
		inFlight++
		most = max(most, inFlight)
		rc.mu.Unlock()
		<-release
		rc.mu.Lock()
		inFlight--
		rc.mu.Unlock()
	})
	hooks := make([]webhookdata.Webhook, 5)
	for i := range hooks {
		hooks[i] = createHook(t, st, rc.URL)
		writeEvents(t, st, hooks[i], 0, 3, 1)
	}
	cfg := testConfig()
	cfg.Concurrency = 2
	runRunner(t, st, cfg)
	rc.waitFor(t, "two deliveries in flight", atLeast(2))
	time.Sleep(200 * time.Millisecond)
	require.Len(rc.deliveries(), 2, "no more than the concurrency at once")
	close(release)
	rc.waitFor(t, "every event", atLeast(15))
	require.Equal(2, most)
}

func TestDeliveryClosesItsConnectionsWhenTheRunnerStops(t *testing.T) {
	require := require.New(t)
	st := openStore(t, t.TempDir())
	defer st.Close()
	srv := safehttptest.NewServer(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	h := createHook(t, st, srv.URL)
	writeEvents(t, st, h, 0, 3, 1)
	stop := runRunner(t, st, testConfig())
	eventually(t, "every event delivered", func() bool { return outboxLen(t, st, h) == 0 })
	time.Sleep(100 * time.Millisecond)
	require.Equal(1, srv.Opened(), "one connection, kept for the next delivery")
	require.Zero(srv.Closed(), "and still open while the runner runs")
	stop()
	eventually(t, "the connection closed once the runner stopped", func() bool { return srv.Closed() == 1 })
}
