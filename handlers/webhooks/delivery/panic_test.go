package delivery

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"
)

// panicOnce panics at its first round trip, then sends as usual.
type panicOnce struct {
	next     http.RoundTripper
	panicked atomic.Bool
}

func (p *panicOnce) RoundTrip(r *http.Request) (*http.Response, error) {
	if p.panicked.CompareAndSwap(false, true) {
		panic("a delivery that panics")
	}
	return p.next.RoundTrip(r)
}

// A delivery that panics gives back its slot: with one slot, the worker's
// next attempt (after restartDelay) still gets one and delivers.
func TestDeliveryPanicGivesBackItsSlot(t *testing.T) {
	st := openStore(t, t.TempDir())
	defer st.Close()
	rc := newReceiver(t)
	h := createHook(t, st, rc.URL)
	cfg := testConfig()
	cfg.Concurrency = 1
	r, err := New(st, cfg, logging.NoLog{})
	require.NoError(t, err)
	r.sender.client.Transport = &panicOnce{next: r.sender.client.Transport}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	defer func() {
		cancel()
		<-done
	}()
	writeEvents(t, st, h, 0, 2, 1)
	got := rc.waitFor(t, "the events after the panic", atLeast(2))
	require.Equal(t, seq(0, 2), numbers(got))
}
