package handlers

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestAPIKeys(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	tests := []struct {
		name    string
		path    string
		headers []string
		status  int
	}{
		{name: "no key", path: "/v1/status", status: http.StatusOK},
		{name: "known key, spec header", path: "/v1/status", headers: []string{"x-data-api-key", "known-key"}, status: http.StatusOK},
		{name: "known key, SDK header", path: "/v1/status", headers: []string{"x-glacier-api-key", "known-key"}, status: http.StatusOK},
		{name: "unknown key, spec header", path: "/v1/status", headers: []string{"x-data-api-key", "nope"}, status: http.StatusUnauthorized},
		{name: "unknown key, SDK header", path: "/v1/status", headers: []string{"X-Glacier-Api-Key", "nope"}, status: http.StatusUnauthorized},
		{name: "unknown key on unknown route", path: "/nope", headers: []string{"x-data-api-key", "nope"}, status: http.StatusUnauthorized},
		{name: "empty key is no key", path: "/v1/status", headers: []string{"x-data-api-key", ""}, status: http.StatusOK},
		{name: "metrics needs no key", path: "/metrics/v1/avg_tps/p-chain", status: http.StatusOK},
		{name: "metrics accepts a known key", path: "/metrics/v1/avg_tps/p-chain", headers: []string{"x-glacier-api-key", "known-key"}, status: http.StatusOK},
		{name: "metrics ignores an unknown key", path: "/metrics/v1/avg_tps/p-chain", headers: []string{"x-data-api-key", "nope"}, status: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := api.get(t, tt.path, tt.headers...)
			if tt.status == http.StatusUnauthorized {
				requireDataError(t, rec, http.StatusUnauthorized, "invalid API key")
				return
			}
			requireJSON(t, rec, tt.status, nil)
		})
	}
}

func TestRateLimitAnonymous(t *testing.T) {
	cfg := Config{APIKeys: []string{"known-key"}, AnonymousRPS: 0.5, AnonymousBurst: 2, KeyRPS: 1, KeyBurst: 1}
	api := newTestAPI(t, cfg, newFakeBackend(), nil)

	requireJSON(t, api.get(t, "/v1/status"), http.StatusOK, nil)
	requireJSON(t, api.get(t, "/metrics/v1/avg_tps/p-chain"), http.StatusOK, nil)

	rec := api.get(t, "/v1/status")
	requireDataError(t, rec, http.StatusTooManyRequests, "rate limit exceeded")
	require.Equal(t, "2", rec.Header().Get("Retry-After"), "one token at 0.5/s takes 2s")

	// The metrics service shares the anonymous bucket and uses its own body.
	rec = api.get(t, "/metrics/v1/avg_tps/p-chain")
	requireMetricsError(t, rec, http.StatusTooManyRequests, "rate limit exceeded")
	require.Equal(t, "2", rec.Header().Get("Retry-After"))

	// Rejections do not consume tokens: after the advertised wait one more
	// request goes through.
	api.clock.Advance(2 * time.Second)
	requireJSON(t, api.get(t, "/v1/status"), http.StatusOK, nil)
	requireDataError(t, api.get(t, "/v1/status"), http.StatusTooManyRequests)
}

func TestRateLimitPerKey(t *testing.T) {
	cfg := Config{APIKeys: []string{"key-a", "key-b"}, AnonymousRPS: 1, AnonymousBurst: 1, KeyRPS: 0.25, KeyBurst: 3}
	api := newTestAPI(t, cfg, newFakeBackend(), nil)

	for range 3 {
		requireJSON(t, api.get(t, "/v1/status", "x-data-api-key", "key-a"), http.StatusOK, nil)
	}
	rec := api.get(t, "/v1/status", "x-glacier-api-key", "key-a")
	requireDataError(t, rec, http.StatusTooManyRequests)
	require.Equal(t, "4", rec.Header().Get("Retry-After"))

	// Other clients have their own buckets.
	requireJSON(t, api.get(t, "/v1/status", "x-data-api-key", "key-b"), http.StatusOK, nil)
	requireJSON(t, api.get(t, "/v1/status"), http.StatusOK, nil)
	requireDataError(t, api.get(t, "/v1/status"), http.StatusTooManyRequests)
}

func TestRetryAfterIsWholeSecondsAtLeastOne(t *testing.T) {
	cfg := Config{AnonymousRPS: 1000, AnonymousBurst: 1}.withDefaults()
	clock := newFakeClock()
	limiter := newClientLimiter(cfg, clock.Now)
	_, ok := limiter.admit(limiter.anonymous)
	require.True(t, ok)
	retry, ok := limiter.admit(limiter.anonymous)
	require.False(t, ok)
	require.Equal(t, 1, retry, "1ms rounds up to 1s")

	cfg = Config{AnonymousRPS: 0.3, AnonymousBurst: 1}.withDefaults()
	limiter = newClientLimiter(cfg, clock.Now)
	limiter.admit(limiter.anonymous)
	retry, ok = limiter.admit(limiter.anonymous)
	require.False(t, ok)
	require.Equal(t, 4, retry, "3.33s rounds up to 4s")
}

func TestEmptyConfiguredKeyIsIgnored(t *testing.T) {
	limiter := newClientLimiter(Config{APIKeys: []string{""}}.withDefaults(), time.Now)
	require.Empty(t, limiter.byKey)
}
