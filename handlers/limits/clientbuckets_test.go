package limits

import (
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func addrN(i int) netip.Prefix {
	return netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), 32)
}

func TestClientBucketsStayBounded(t *testing.T) {
	buckets := newClientBuckets(1, 10, 100) // refills in 10s
	now := time.Unix(1_700_000_000, 0)
	for i := range 10_000 {
		buckets.limiterFor(addrN(i), now)
	}
	require.Equal(t, 100, buckets.len())
	// The least recently seen went first: the newest are kept.
	_, kept := buckets.byClient[addrN(9_999)]
	require.True(t, kept)
	_, kept = buckets.byClient[addrN(0)]
	require.False(t, kept)
}

func TestClientBucketsDropRefilledOnes(t *testing.T) {
	buckets := newClientBuckets(1, 10, 100)
	now := time.Unix(1_700_000_000, 0)
	for i := range 50 {
		buckets.limiterFor(addrN(i), now)
	}
	// Not yet refilled: nothing is dropped.
	buckets.limiterFor(addrN(0), now.Add(9*time.Second))
	require.Equal(t, 50, buckets.len())
	// Once refilled, lookups drop idle buckets faster than one new client
	// per lookup adds them.
	later := now.Add(11 * time.Second)
	for i := range 49 {
		buckets.limiterFor(addrN(1000+i), later)
	}
	require.LessOrEqual(t, buckets.len(), 50)
	_, kept := buckets.byClient[addrN(0)]
	require.True(t, kept, "seen 9s in: not idle long enough")
	far := later.Add(time.Minute)
	for range 100 {
		buckets.limiterFor(addrN(5000), far)
	}
	require.Equal(t, 1, buckets.len(), "every idle bucket dropped, only the active one left")
}

func TestClientBucketsKeepState(t *testing.T) {
	buckets := newClientBuckets(1, 2, 100)
	now := time.Unix(1_700_000_000, 0)
	limiter := buckets.limiterFor(addrN(1), now)
	require.True(t, limiter.AllowN(now, 2))
	require.Same(t, limiter, buckets.limiterFor(addrN(1), now.Add(time.Second)))
	require.False(t, buckets.limiterFor(addrN(1), now).AllowN(now, 1), "an empty bucket stays empty")
}

func TestClientBucketsConcurrent(t *testing.T) {
	buckets := newClientBuckets(100, 100, 64)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				buckets.limiterFor(addrN(g*10_000+i%200), time.Now()).Allow()
			}
		})
	}
	wg.Wait()
	require.LessOrEqual(t, buckets.len(), 64)
}
