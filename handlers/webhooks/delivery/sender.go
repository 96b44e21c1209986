package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/avadata/avadata/indexer/safehttp"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// sender POSTs one event to a receiver: the stored body's bytes exactly,
// signed with the shared secret as the SDK's validateWebhook checks.
type sender struct {
	client    *http.Client
	userAgent string
	// maxResponse is how much of an answer is read.
	maxResponse int64
}

func newSender(cfg Config) *sender {
	allowed := safehttp.PublicAddress
	if cfg.AllowPrivateTargets {
		allowed = safehttp.AnyAddress
	}
	return &sender{
		// No redirects: a receiver's 3xx is its answer, a failure. Following
		// one would send the signed body somewhere its owner never named.
		client: safehttp.NewClient(safehttp.Options{Allowed: allowed, ConnectTimeout: cfg.ConnectTimeout,
			Timeout: cfg.ResponseTimeout, MaxRedirects: 0, MaxIdleConns: cfg.Concurrency + cfg.retryConcurrency(),
			IdleConnTimeout: idleConnTimeout}),
		userAgent:   cfg.UserAgent,
		maxResponse: cfg.MaxResponseBytes,
	}
}

// idleConnTimeout is how long a connection to a receiver is kept for the
// next delivery: a webhook's deliveries come in bursts (a block's events),
// and a receiver no longer called should not keep a connection open.
const idleConnTimeout = 90 * time.Second

// close closes the kept-alive connections (the runner stopped).
func (s *sender) close() { s.client.CloseIdleConnections() }

// errRejected is a receiver's answer other than 2xx.
var errRejected = errors.New("the receiver did not answer 2xx")

// send delivers body to url; nil when the receiver answered 2xx. The error
// never quotes the body or the secret.
func (s *sender) send(ctx context.Context, url, secret string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	req.Header.Set(webhookdata.SignatureHeader, webhookdata.Sign(secret, body))
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("posting to the receiver: %w", err)
	}
	// The answer is read only up to a small bound: what is read in full is
	// kept for the next delivery's connection, a longer answer closes its
	// connection instead of being read to the end.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, s.maxResponse))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("%w: HTTP %d", errRejected, resp.StatusCode)
	}
	return nil
}
