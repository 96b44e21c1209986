package vm

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/handlers/serve"
)

func TestHTTPLimitsConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"rateLimit":{"anonymousRps":5,"anonymousBurst":10,"keyRps":50,"keyBurst":100,
		"trustedProxies":["10.0.0.5","192.168.0.0/16"],"trustUnknownPeer":true,"maxClients":99},
		"requestTimeout":"5s","maxRequestBodyBytes":4096}`))
	require.NoError(t, err)
	var got serve.Config
	cfg.httpLimits(&got)
	require.Equal(t, serve.Config{
		Rates: limits.Rates{
			AnonymousRPS: 5, AnonymousBurst: 10, KeyRPS: 50, KeyBurst: 100,
			TrustedProxies:   []netip.Prefix{netip.MustParsePrefix("10.0.0.5/32"), netip.MustParsePrefix("192.168.0.0/16")},
			TrustUnknownPeer: true, MaxClients: 99,
		},
		MaxBodyBytes: 4096, RequestTimeout: 5 * time.Second,
	}, got)
}

func TestHTTPLimitsDefaults(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{}`))
	require.NoError(t, err)
	var got serve.Config
	cfg.httpLimits(&got)
	require.Equal(t, serve.Config{}, got, "all zero: the handlers' defaults apply")

	cfg, err = ParseConfig([]byte(`{"rateLimit":{"trustedProxies":[]}}`))
	require.NoError(t, err)
	cfg.httpLimits(&got)
	require.NotNil(t, got.TrustedProxies, "[] trusts nobody, unlike an absent key")
	require.Empty(t, got.TrustedProxies)
}

func TestHTTPLimitsErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{"rateLimit":{"trustedProxies":["proxy.local"]}}`: `rateLimit.trustedProxies: "proxy.local" is neither`,
		`{"rateLimit":{"anonymousRps":-1}}`:                "must be positive",
		`{"rateLimit":{"maxClients":-5}}`:                  "must be positive",
		`{"maxRequestBodyBytes":-1}`:                       "maxRequestBodyBytes must be positive",
		`{"requestTimeout":"-1s"}`:                         "requestTimeout -1s out of range",
		`{"requestTimeout":"20m"}`:                         "requestTimeout 20m0s out of range",
		`{"requestTimeout":20}`:                            "duration must be a string",
		`{"rateLimit":{"trustedProxy":[]}}`:                `unknown field "trustedProxy"`,
	} {
		_, err := ParseConfig([]byte(in))
		require.ErrorContains(t, err, want, in)
	}
}
