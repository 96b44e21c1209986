package handlers

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/time/rate"
)

// API key headers. The spec names x-data-api-key; the official SDK sends
// x-glacier-api-key. Both are accepted; if both are present the first wins.
const (
	headerDataAPIKey    = "x-data-api-key"
	headerGlacierAPIKey = "x-glacier-api-key"
)

// clientLimiter authenticates optional API keys and applies per-client token
// buckets.
//
// Client identity: inside the node the plugin sees neither the caller's
// address (RemoteAddr is empty) nor the Host header, because the node does not
// forward them over the plugin's gRPC bridge. The only thing that tells
// clients apart is the API key. So every known key has its own bucket, and
// all requests without a key share one anonymous bucket: one busy anonymous
// client slows down every other anonymous client, which is the reason to hand
// out keys.
//
// The buckets are created once, from Config, so the set of limiters never
// grows and needs no locking (rate.Limiter is safe for concurrent use).
type clientLimiter struct {
	anonymous *rate.Limiter
	byKey     map[string]*rate.Limiter
	now       func() time.Time
}

func newClientLimiter(cfg Config, now func() time.Time) *clientLimiter {
	l := &clientLimiter{
		anonymous: rate.NewLimiter(rate.Limit(cfg.AnonymousRPS), cfg.AnonymousBurst),
		byKey:     make(map[string]*rate.Limiter, len(cfg.APIKeys)),
		now:       now,
	}
	for _, key := range cfg.APIKeys {
		if key == "" {
			continue // an empty key would make "no key" look known
		}
		l.byKey[key] = rate.NewLimiter(rate.Limit(cfg.KeyRPS), cfg.KeyBurst)
	}
	return l
}

// apiKeyFrom returns the API key the request carries, if any.
func apiKeyFrom(r *http.Request) string {
	if key := r.Header.Get(headerDataAPIKey); key != "" {
		return key
	}
	return r.Header.Get(headerGlacierAPIKey)
}

// limiterFor picks the bucket for r. An unknown key is an error on the data
// service (401); the metrics service needs no credentials at all, so there an
// unknown key just falls back to the anonymous bucket.
func (l *clientLimiter) limiterFor(r *http.Request) (*rate.Limiter, *apiError) {
	key := apiKeyFrom(r)
	if key == "" {
		return l.anonymous, nil
	}
	if limiter, ok := l.byKey[key]; ok {
		return limiter, nil
	}
	if requestInfoFrom(r.Context()).metricsService {
		return l.anonymous, nil
	}
	return nil, newAPIError(http.StatusUnauthorized,
		"invalid API key: the key in %s/%s is not known to this node; omit the header to use the anonymous rate limit",
		headerDataAPIKey, headerGlacierAPIKey)
}

// admit takes one token from the client's bucket. When the bucket is empty it
// returns how long the client should wait, rounded up to whole seconds (at
// least one) for the Retry-After header.
func (l *clientLimiter) admit(limiter *rate.Limiter) (retryAfterSeconds int, ok bool) {
	now := l.now()
	reservation := limiter.ReserveN(now, 1)
	if !reservation.OK() {
		return 1, false // burst < 1: cannot happen after Config defaults
	}
	delay := reservation.DelayFrom(now)
	if delay <= 0 {
		return 0, true
	}
	// Give the token back: a rejected request must not consume capacity.
	reservation.CancelAt(now)
	return max(1, int(math.Ceil(delay.Seconds()))), false
}

// middleware enforces authentication and rate limits before routing, so that
// even requests for unknown routes are counted.
func (l *clientLimiter) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limiter, authErr := l.limiterFor(r)
		if authErr != nil {
			writeErrorStatus(w, r, authErr.status, authErr.message)
			return
		}
		retryAfter, ok := l.admit(limiter)
		if !ok {
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
			writeErrorStatus(w, r, http.StatusTooManyRequests,
				"rate limit exceeded; retry after "+strconv.Itoa(retryAfter)+"s (an API key raises the limit)")
			return
		}
		next.ServeHTTP(w, r)
	})
}
