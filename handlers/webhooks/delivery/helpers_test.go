package delivery

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// testConfig reaches the tests' loopback receivers and retries quickly.
func testConfig() Config {
	return Config{AllowPrivateTargets: true, MinBackoff: 10 * time.Millisecond, MaxBackoff: 80 * time.Millisecond,
		RescanInterval: 50 * time.Millisecond, UserAgent: "avadata/test (webhooks)"}
}

func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(dir, logging.NoLog{})
	require.NoError(t, err)
	require.NoError(t, st.LoadWebhooks(context.Background()))
	return st
}

// createHook stores an active C-chain webhook that posts to url.
func createHook(t *testing.T, st *store.Store, url string) webhookdata.Webhook {
	t.Helper()
	id, err := webhookdata.NewID()
	require.NoError(t, err)
	h, err := st.CreateWebhook(context.Background(), webhookdata.Webhook{ID: id, EventType: webhookdata.AddressActivity,
		URL: url, Chain: netinfo.C, ChainID: "43112", Status: webhookdata.Active,
		Metadata: webhookdata.Metadata{Addresses: []string{"0x00000000000000000000000000000000000000aa"}}})
	require.NoError(t, err)
	return h
}

// event is a test event: its number says where it is in the order.
type event struct {
	N int `json:"n"`
}

// writeEvents puts events from..to-1 into h's outbox, perBlock to a block.
func writeEvents(t *testing.T, st *store.Store, h webhookdata.Webhook, from, to, perBlock int) {
	t.Helper()
	for n := from; n < to; n += perBlock {
		var events []any
		for i := n; i < min(n+perBlock, to); i++ {
			events = append(events, event{N: i})
		}
		require.NoError(t, st.WriteWebhookEvents(context.Background(), h, h.FromHeight+uint64(n), events...))
	}
}

func outboxLen(t *testing.T, st *store.Store, h webhookdata.Webhook) int {
	t.Helper()
	out, err := st.Outbox(context.Background(), h.ID, 1000)
	require.NoError(t, err)
	return len(out)
}

// runRunner runs a runner over st until the returned stop is called (or
// the test ends).
func runRunner(t *testing.T, st Store, cfg Config) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		New(st, cfg, logging.NoLog{}).Run(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Error("the runner did not stop within the node's shutdown limit")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// delivery is one request a receiver got.
type delivery struct {
	body   []byte
	header http.Header
	n      int
	at     time.Time
}

// receiver is an HTTP receiver on loopback that records every request and
// answers what answer says (200 when nil).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []delivery
	answer func(w http.ResponseWriter, r *http.Request)
}

func newReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var env struct {
			Event event `json:"event"`
		}
		_ = json.Unmarshal(body, &env)
		rc.mu.Lock()
		rc.got = append(rc.got, delivery{body: body, header: r.Header.Clone(), n: env.Event.N, at: time.Now()})
		answer := rc.answer
		rc.mu.Unlock()
		if answer != nil {
			answer(w, r)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) setAnswer(fn func(w http.ResponseWriter, r *http.Request)) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answer = fn
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

// waitFor waits until done holds for the deliveries so far.
func (rc *receiver) waitFor(t *testing.T, what string, done func([]delivery) bool) []delivery {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := rc.deliveries()
		if done(got) {
			return got
		}
		if time.Now().After(deadline) {
			require.FailNow(t, "waiting for "+what, "got %d deliveries", len(got))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func atLeast(n int) func([]delivery) bool { return func(d []delivery) bool { return len(d) >= n } }

// numbers are the events' numbers in arrival order.
func numbers(got []delivery) []int {
	out := make([]int, len(got))
	for i, d := range got {
		out[i] = d.n
	}
	return out
}

func seq(from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// eventually waits until cond holds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, 20*time.Second, 5*time.Millisecond, what)
}

// waitInactive waits until h is inactive and returns its record.
func waitInactive(t *testing.T, st *store.Store, h webhookdata.Webhook) webhookdata.Webhook {
	t.Helper()
	var rec webhookdata.Webhook
	eventually(t, "the webhook made inactive", func() bool {
		w, _, err := st.Webhook(context.Background(), h.ID)
		rec = w
		return err == nil && w.Status == webhookdata.Inactive
	})
	return rec
}
