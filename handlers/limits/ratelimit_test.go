package limits

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRetryAfterIsWholeSecondsAtLeastOne(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	admitAnonymous := func(l *ClientLimiter) (int, bool) {
		return l.admit(l.anonymous.limiterFor(netip.Prefix{}, clock()), clock())
	}
	limiter := NewClientLimiter(Rates{AnonymousRPS: 1000, AnonymousBurst: 1}.WithDefaults(), nil, clock)
	_, ok := admitAnonymous(limiter)
	require.True(t, ok)
	retry, ok := admitAnonymous(limiter)
	require.False(t, ok)
	require.Equal(t, 1, retry, "1ms rounds up to 1s")

	limiter = NewClientLimiter(Rates{AnonymousRPS: 0.3, AnonymousBurst: 1}.WithDefaults(), nil, clock)
	admitAnonymous(limiter)
	retry, ok = admitAnonymous(limiter)
	require.False(t, ok)
	require.Equal(t, 4, retry, "3.33s rounds up to 4s")
}

func TestEmptyConfiguredKeyIsIgnored(t *testing.T) {
	limiter := NewClientLimiter(Rates{}.WithDefaults(), []string{""}, time.Now)
	require.Empty(t, limiter.byKey)
}
