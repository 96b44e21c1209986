package delivery

import (
	"math/rand/v2"
	"time"
)

// backoff is the wait before a failed delivery is tried again: exponential
// with full jitter (a uniform draw below a bound that doubles from min up
// to max), so a failing receiver is retried less and less often and
// receivers that failed together are not all retried at once.
type backoff struct {
	min, max time.Duration
	// failures is how many attempts failed in a row.
	failures int
}

// next records a failure and returns the wait before the next attempt.
func (b *backoff) next() time.Duration {
	bound := b.min
	for i := 0; i < b.failures && bound < b.max; i++ {
		bound *= 2
	}
	bound = min(bound, b.max)
	b.failures++
	return time.Duration(rand.Int64N(int64(bound))) + 1
}

// reset records a success.
func (b *backoff) reset() { b.failures = 0 }
