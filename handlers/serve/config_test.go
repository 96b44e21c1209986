package serve

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/limits"
)

func TestConfigDefaults(t *testing.T) {
	got := Config{Rates: limits.Rates{AnonymousRPS: -1}}.WithDefaults()
	require.Equal(t, Config{
		Rates: limits.Rates{
			AnonymousRPS:   limits.DefaultAnonymousRPS,
			AnonymousBurst: limits.DefaultAnonymousBurst,
			KeyRPS:         limits.DefaultKeyRPS,
			KeyBurst:       limits.DefaultKeyBurst,
			TrustedProxies: limits.DefaultTrustedProxies(),
			MaxClients:     limits.DefaultMaxClients,
		},
		MaxBodyBytes:   DefaultMaxBodyBytes,
		Version:        DefaultVersion,
		RequestTimeout: DefaultRequestTimeout,
	}, got)
	custom := Config{APIKeys: []string{"k"}, Version: "v", MaxBodyBytes: 6, RequestTimeout: time.Second,
		Rates: limits.Rates{AnonymousRPS: 1, AnonymousBurst: 2, KeyRPS: 3, KeyBurst: 4, TrustedProxies: []netip.Prefix{}, MaxClients: 5}}
	require.Equal(t, custom, custom.WithDefaults())
}
