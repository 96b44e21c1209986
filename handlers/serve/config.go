package serve

import (
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/limits"
)

// Defaults applied by Config.WithDefaults to fields left at zero (or set
// negative); the rate limits have theirs in package limits.
const (
	DefaultVersion = "dev"
	// DefaultMaxBodyBytes bounds every request body. The largest body any
	// route takes is aggregateSignatures' warp message and justification,
	// far below 1 MiB.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultRequestTimeout stays below the node's 30 s HTTP write timeout,
	// so a slow query ends with a 503 the client can read instead of a
	// connection the node cuts mid-reply.
	DefaultRequestTimeout = 20 * time.Second
)

// Config tunes the request path every operation shares. The zero value is
// usable: every limit falls back to its Default* constant and no API key is
// known (so only anonymous requests are accepted).
type Config struct {
	// APIKeys are the keys that earn the higher, per-key rate limit. A request
	// carrying any other key is rejected with 401.
	APIKeys []string
	// Rates are the per-client rate limits.
	limits.Rates
	// MaxBodyBytes bounds every request body (413 beyond); routes may have
	// a smaller bound of their own.
	MaxBodyBytes int64
	// Version is reported by the index, /v1/status and the OpenAPI document.
	Version string
	// RequestTimeout bounds the time one request may take; every store read
	// runs under it. Zero or negative: DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Clock is the time of page tokens, rate limits and "now" in replies;
	// nil: the wall clock. Tests set it.
	Clock func() time.Time
}

// WithDefaults returns a copy of c with every unset field filled in, so the
// rest of the package never has to special-case zero values.
func (c Config) WithDefaults() Config {
	c.Rates = c.Rates.WithDefaults()
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.Version == "" {
		c.Version = DefaultVersion
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	return c
}

// clock is the configured clock, the wall clock when none is.
func (c Config) clock() func() time.Time {
	if c.Clock != nil {
		return c.Clock
	}
	return time.Now
}

// NewCore is the api.Core of an API with configuration cfg that answers for
// node; log may be nil (nothing is logged).
func NewCore(cfg Config, node api.NodeView, log logging.Logger) *api.Core {
	cfg = cfg.WithDefaults()
	return api.NewCore(node, log, cfg.clock(), cfg.Version, cfg.RequestTimeout)
}
