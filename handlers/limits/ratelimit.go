package limits

import (
	"math"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/time/rate"

	"github.com/avadata/avadata/handlers/api"
)

// API key headers. The spec names x-data-api-key; the official SDK sends
// x-glacier-api-key. Both are accepted; if both are present the first wins.
const (
	headerDataAPIKey    = "x-data-api-key"
	headerGlacierAPIKey = "x-glacier-api-key"
)

// ClientLimiter authenticates optional API keys and applies a token bucket
// per client: per API key when a known key is sent, else per client address
// (clientaddr.go finds it; clientbuckets.go keeps the buckets).
//
// The key buckets are created once, from Config, so that map never changes
// and needs no lock; rate.Limiter is safe for concurrent use.
type ClientLimiter struct {
	addressing clientAddressing
	anonymous  *clientBuckets
	byKey      map[string]*rate.Limiter
	now        func() time.Time
}

func NewClientLimiter(rates Rates, apiKeys []string, now func() time.Time) *ClientLimiter {
	l := &ClientLimiter{
		addressing: clientAddressing{trusted: rates.TrustedProxies, trustUnknownPeer: rates.TrustUnknownPeer},
		anonymous:  newClientBuckets(rates.AnonymousRPS, rates.AnonymousBurst, rates.MaxClients),
		byKey:      make(map[string]*rate.Limiter, len(apiKeys)),
		now:        now,
	}
	for _, key := range apiKeys {
		if key == "" {
			continue // an empty key would make "no key" look known
		}
		l.byKey[key] = rate.NewLimiter(rate.Limit(rates.KeyRPS), rates.KeyBurst)
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

// limiterFor picks the bucket for r and names its client for messages; it
// notes in the request info how the client was told (a metric label). An
// unknown key is an error on the data service (401); the metrics service
// needs no credentials at all, so there an unknown key is ignored.
func (l *ClientLimiter) limiterFor(r *http.Request, now time.Time) (*rate.Limiter, string, *api.Error) {
	info := api.RequestInfoFrom(r.Context())
	key := apiKeyFrom(r)
	if limiter, ok := l.byKey[key]; ok && key != "" {
		info.Client = api.SourceAPIKey
		info.APIKey = key
		return limiter, "this API key", nil
	}
	if key != "" && !info.MetricsService {
		return nil, "", api.NewError(http.StatusUnauthorized,
			"invalid API key: the key in %s/%s is not known to this node; omit the header to use the anonymous rate limit",
			headerDataAPIKey, headerGlacierAPIKey)
	}
	client := l.addressing.clientOf(r)
	info.Client = client.source
	return l.anonymous.limiterFor(client.prefix, now), client.String(), nil
}

// admit takes one token from the client's bucket. When the bucket is empty it
// returns how long the client should wait, rounded up to whole seconds (at
// least one) for the Retry-After header.
func (l *ClientLimiter) admit(limiter *rate.Limiter, now time.Time) (retryAfterSeconds int, ok bool) {
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

// Middleware enforces authentication and rate limits before routing, so that
// even requests for unknown routes are counted. A 429 always carries
// Retry-After.
func (l *ClientLimiter) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := l.now()
		limiter, client, authErr := l.limiterFor(r, now)
		if authErr != nil {
			api.WriteError(w, r, authErr.Status, authErr.Message)
			return
		}
		retryAfter, ok := l.admit(limiter, now)
		if !ok {
			seconds := strconv.Itoa(retryAfter)
			w.Header().Set("Retry-After", seconds)
			api.WriteError(w, r, http.StatusTooManyRequests,
				"rate limit exceeded for "+client+"; retry after "+seconds+"s (an API key raises the limit)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// AnonymousClients is how many per-address buckets are kept now.
func (l *ClientLimiter) AnonymousClients() int { return l.anonymous.len() }
