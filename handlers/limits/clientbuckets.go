package limits

import (
	"container/list"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// clientBuckets holds one token bucket per anonymous client address, in
// bounded memory: at most max buckets, the least recently seen dropped
// first.
//
// Dropping a bucket that has been idle for refill (the time an empty bucket
// takes to fill up) changes nothing: the client would find it full, and a
// new bucket starts full. Each lookup drops a few such buckets from the
// idle end, so the set shrinks back as clients go away, with no background
// goroutine. Only when max clients are all active at once does a bucket go
// before it has refilled; its client then starts afresh with a full bucket,
// which a client with that many addresses could have had anyway.
type clientBuckets struct {
	limit  rate.Limit
	burst  int
	refill time.Duration
	max    int

	mu       sync.Mutex
	byClient map[netip.Prefix]*list.Element // values: *clientBucket
	recency  *list.List                     // front: most recently seen
}

type clientBucket struct {
	client   netip.Prefix
	limiter  *rate.Limiter
	lastSeen time.Time
}

// idleDropsPerLookup is how many refilled buckets one lookup may drop: more
// than one, so the set shrinks faster than one new client per lookup can
// grow it.
const idleDropsPerLookup = 2

func newClientBuckets(rps float64, burst, maxClients int) *clientBuckets {
	return &clientBuckets{
		limit:    rate.Limit(rps),
		burst:    burst,
		refill:   time.Duration(float64(burst) / rps * float64(time.Second)),
		max:      maxClients,
		byClient: make(map[netip.Prefix]*list.Element),
		recency:  list.New(),
	}
}

// limiterFor returns client's bucket, creating it if needed, and marks the
// client seen at now.
func (b *clientBuckets) limiterFor(client netip.Prefix, now time.Time) *rate.Limiter {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.dropRefilled(now)
	if e, ok := b.byClient[client]; ok {
		bucket := e.Value.(*clientBucket)
		bucket.lastSeen = now
		b.recency.MoveToFront(e)
		return bucket.limiter
	}
	if b.recency.Len() >= b.max {
		b.remove(b.recency.Back())
	}
	bucket := &clientBucket{client: client, limiter: rate.NewLimiter(b.limit, b.burst), lastSeen: now}
	b.byClient[client] = b.recency.PushFront(bucket)
	return bucket.limiter
}

// dropRefilled drops up to idleDropsPerLookup buckets that have been idle
// long enough to be full again.
func (b *clientBuckets) dropRefilled(now time.Time) {
	for range idleDropsPerLookup {
		e := b.recency.Back()
		if e == nil || now.Sub(e.Value.(*clientBucket).lastSeen) < b.refill {
			return
		}
		b.remove(e)
	}
}

func (b *clientBuckets) remove(e *list.Element) {
	delete(b.byClient, e.Value.(*clientBucket).client)
	b.recency.Remove(e)
}

// len is the number of buckets kept (a metric).
func (b *clientBuckets) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.recency.Len()
}
