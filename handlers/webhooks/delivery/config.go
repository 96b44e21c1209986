package delivery

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Config shapes the deliveries; zero values take the defaults (README.md
// lists the ones an operator sets).
type Config struct {
	// AllowPrivateTargets lets deliveries reach loopback, private and
	// link-local addresses; otherwise only public ones (checked after name
	// resolution, on every connection).
	AllowPrivateTargets bool
	// MaxAge is how long a webhook's deliveries may keep failing, counted
	// from the first failure of the current run of failures, before the
	// webhook is made inactive with the reason (default 24 hours). Its
	// undelivered events stay in the outbox.
	MaxAge time.Duration
	// ConnectTimeout bounds connecting to a receiver, TCP then TLS
	// (default 5 s).
	ConnectTimeout time.Duration
	// ResponseTimeout bounds one delivery from its start to the end of the
	// receiver's answer (default 10 s, the hosted service's own bound).
	ResponseTimeout time.Duration
	// Concurrency bounds the deliveries in flight over every webhook
	// (default 16); each webhook has at most one, so its events go in
	// order. The retries of webhooks in a run of failures take slots of
	// their own, a quarter as many (at least one): receivers that are down
	// or hang hold at most those, and healthy webhooks keep these.
	Concurrency int
	// UserAgent is the User-Agent of every delivery.
	UserAgent string
	// Metrics is where the delivery metrics are registered (nil: nowhere).
	Metrics prometheus.Registerer

	// The bounds below are not operator settings; tests shorten them.

	// MinBackoff and MaxBackoff bound the wait before a failed delivery is
	// tried again: it doubles from MinBackoff (default 1 s) up to
	// MaxBackoff (default 2 minutes), and each wait is drawn at random
	// below its bound (full jitter), so receivers that fail together are
	// not retried together.
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// BatchSize is how many outbox events a webhook reads at once (default
	// 16): a backlog is never loaded whole.
	BatchSize int
	// MaxResponseBytes is how much of a receiver's answer is read (default
	// 4 KiB); the connection of a longer one is dropped.
	MaxResponseBytes int64
	// RescanInterval is how often the runner looks for webhooks made
	// active or inactive (default 250 ms: a pointer comparison); a commit
	// that writes events also makes it look.
	RescanInterval time.Duration
}

func (c Config) withDefaults() Config {
	if c.MaxAge <= 0 {
		c.MaxAge = 24 * time.Hour
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = 5 * time.Second
	}
	if c.ResponseTimeout <= 0 {
		c.ResponseTimeout = 10 * time.Second
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 16
	}
	if c.UserAgent == "" {
		c.UserAgent = "avadata-webhooks"
	}
	if c.MinBackoff <= 0 {
		c.MinBackoff = time.Second
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 2 * time.Minute
	}
	if c.MaxBackoff < c.MinBackoff {
		c.MaxBackoff = c.MinBackoff
	}
	if c.BatchSize <= 0 {
		c.BatchSize = 16
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = 4 << 10
	}
	if c.RescanInterval <= 0 {
		c.RescanInterval = 250 * time.Millisecond
	}
	return c
}

// retryConcurrency bounds the deliveries in flight of webhooks in a run of
// failures (see Concurrency).
func (c Config) retryConcurrency() int { return max(1, c.Concurrency/4) }
