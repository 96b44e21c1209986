package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A page token carries the heights its page was cut at (heights.go).
// Behind a load balancer the next page may reach a replica whose index is
// not that far yet: its follower is a few blocks behind, or its node has not
// accepted those blocks yet. Serving it would show an older state than the
// page before (a pinned listing would miss items, a listing resumed after a
// position would end early). So the replica waits briefly for its
// followers, and when they do not get there, answers 503 with Retry-After:
// a balancer or client retries, here or on another replica.
const (
	// replicaWaitLimit bounds the wait: about what a follower polling every
	// 50-250 ms, on a node a block or two behind its peers, needs to catch
	// up, and short enough that a client on a stalled replica soon hears
	// so. The wait never takes more than half the time left to the request
	// (its deadline, Config.RequestTimeout), so the page can still be read.
	replicaWaitLimit = 2 * time.Second
	// replicaWaitPoll is how often the wait looks at the followers.
	replicaWaitPoll = 25 * time.Millisecond
	// Retry-After bounds, in seconds. Without a rate to estimate from (a
	// paused or idle follower) the reply says DefaultRetryAfter.
	MinRetryAfter     = 1
	MaxRetryAfter     = 30
	DefaultRetryAfter = 2
)

// awaitHeights returns once this replica's index has reached every height
// in want, waiting as long as replicaWaitLimit allows; after that, a
// replicaBehindError. The request's record of heights then shows at least those.
func (c *Core) awaitHeights(ctx context.Context, heights *Heights, want []StreamHeight) error {
	if len(want) == 0 {
		return nil
	}
	deadline := time.Now().Add(replicaWaitLimit)
	if d, ok := ctx.Deadline(); ok {
		if half := time.Now().Add(time.Until(d) / 2); half.Before(deadline) {
			deadline = half
		}
	}
	for {
		have := c.streamStatuses()
		behind := streamsBehind(have, want)
		if len(behind) == 0 {
			for _, w := range want {
				heights.AtLeast(w.Stream, have[w.Stream].Height)
			}
			return nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return newReplicaBehindError(have, behind)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the index to reach the page token's heights: %w", ctx.Err())
		case <-time.After(min(replicaWaitPoll, left)):
		}
	}
}

// streamsBehind lists the heights of want that have is below.
func streamsBehind(have map[string]StreamStatus, want []StreamHeight) []StreamHeight {
	var behind []StreamHeight
	for _, w := range want {
		if have[w.Stream].Height < w.Height {
			behind = append(behind, w)
		}
	}
	return behind
}

// replicaBehindError is the 503 of a replica whose index has not reached a
// page token's heights. adapt sends its Retry-After.
type replicaBehindError struct {
	apiErr            *Error
	retryAfterSeconds int
}

func (e *replicaBehindError) Error() string { return e.apiErr.Error() }

func (e *replicaBehindError) Unwrap() error { return e.apiErr }

func newReplicaBehindError(have map[string]StreamStatus, behind []StreamHeight) *replicaBehindError {
	parts := make([]string, len(behind))
	retry := 0
	for i, b := range behind {
		st := have[b.Stream]
		parts[i] = fmt.Sprintf("%s is indexed to height %d, the token was cut at %d", b.Stream, st.Height, b.Height)
		retry = max(retry, RetryAfterFor(b.Height-st.Height, st))
	}
	return &replicaBehindError{
		apiErr: NewError(http.StatusServiceUnavailable,
			"this replica's index is behind the pageToken (%s): another replica served the previous page from a newer state; "+
				"retry in %ds, here or on another replica", strings.Join(parts, "; "), retry),
		retryAfterSeconds: retry,
	}
}

// RetryAfterFor estimates, in whole seconds, how long a follower needs for
// missing more blocks at its recent rate.
func RetryAfterFor(missing uint64, st StreamStatus) int {
	if st.Paused || st.BlocksPerSecond <= 0 {
		return DefaultRetryAfter
	}
	secs := math.Ceil(float64(missing) / st.BlocksPerSecond)
	return int(min(max(secs, MinRetryAfter), MaxRetryAfter))
}

// setRetryAfter sends the Retry-After of an error that has one.
func setRetryAfter(w http.ResponseWriter, err error) {
	var behind *replicaBehindError
	if errors.As(err, &behind) {
		w.Header().Set("Retry-After", strconv.Itoa(behind.retryAfterSeconds))
	}
	var later *RetryLaterError
	if errors.As(err, &later) {
		w.Header().Set("Retry-After", strconv.Itoa(later.RetryAfterSeconds))
	}
}
