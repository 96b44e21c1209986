package harness

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// WebhookDelivery is one request a WebhookReceiver got: the body's bytes
// exactly as received, the headers, when it arrived, and the status the
// receiver answered.
type WebhookDelivery struct {
	Body   []byte
	Header http.Header
	At     time.Time
	Status int
}

// WebhookReceiver is a webhook target inside the test, on loopback (the
// e2e nodes' config allows private targets). It records every request and
// answers 200 unless told otherwise: another status, hanging until the
// node gives up, or being down (nothing listens on its port).
type WebhookReceiver struct {
	// URL is where it listens; it keeps the same port across Down and Up.
	URL string

	addr   string
	mu     sync.Mutex
	got    []WebhookDelivery
	status int
	hang   bool
	srv    *http.Server
	// release ends the hanging requests (Close, SetHang(false)).
	release chan struct{}
}

// NewWebhookReceiver starts a receiver; the test's cleanup stops it.
func NewWebhookReceiver(t *testing.T) *WebhookReceiver {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	r := &WebhookReceiver{addr: l.Addr().String(), status: http.StatusOK, release: make(chan struct{})}
	r.URL = "http://" + r.addr + "/hook"
	r.serve(l)
	t.Cleanup(r.Close)
	return r
}

func (r *WebhookReceiver) serve(l net.Listener) {
	srv := &http.Server{Handler: http.HandlerFunc(r.handle), ReadHeaderTimeout: 10 * time.Second}
	r.mu.Lock()
	r.srv = srv
	r.mu.Unlock()
	go func() { _ = srv.Serve(l) }()
}

func (r *WebhookReceiver) handle(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	status, hang, release := r.status, r.hang, r.release
	r.got = append(r.got, WebhookDelivery{Body: body, Header: req.Header.Clone(), At: time.Now(), Status: status})
	r.mu.Unlock()
	if hang {
		select {
		case <-req.Context().Done():
		case <-release:
		}
		return
	}
	w.WriteHeader(status)
}

// SetStatus makes the receiver answer code from now on.
func (r *WebhookReceiver) SetStatus(code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status = code
}

// SetHang makes the receiver keep every request open (until the sender
// gives up) from now on, or stops that.
func (r *WebhookReceiver) SetHang(hang bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hang && !hang {
		close(r.release)
		r.release = make(chan struct{})
	}
	r.hang = hang
}

// Down stops listening: deliveries meet a refused connection.
func (r *WebhookReceiver) Down() {
	r.mu.Lock()
	srv := r.srv
	r.srv = nil
	r.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}

// Up listens again on the same port.
func (r *WebhookReceiver) Up(t *testing.T) {
	t.Helper()
	l, err := net.Listen("tcp", r.addr)
	require.NoError(t, err)
	r.serve(l)
}

// Close stops the receiver and ends hanging requests.
func (r *WebhookReceiver) Close() {
	r.SetHang(false)
	r.Down()
}

// Deliveries returns what the receiver got so far, in arrival order.
func (r *WebhookReceiver) Deliveries() []WebhookDelivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]WebhookDelivery(nil), r.got...)
}

// WaitFor waits until done holds for the deliveries so far (polling), and
// returns them; the test fails at ctx's end.
func (r *WebhookReceiver) WaitFor(t *testing.T, ctx context.Context, what string, done func([]WebhookDelivery) bool) []WebhookDelivery {
	t.Helper()
	for {
		got := r.Deliveries()
		if done(got) {
			return got
		}
		select {
		case <-ctx.Done():
			require.FailNow(t, "webhook receiver: waiting for "+what, "got %d deliveries", len(got))
		case <-time.After(50 * time.Millisecond):
		}
	}
}
