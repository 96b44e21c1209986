package aggregator

import (
	"context"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/hashing"
)

// Identical requests that arrive while one is being collected share its
// collection instead of asking every validator again (a client retrying,
// or several relayers asking for the same message at once).

// flightKey is what makes two requests identical once resolved.
type flightKey struct {
	msgID         ids.ID
	justification ids.ID // its hash
	subnetID      ids.ID
	height        uint64
	quorum        uint64
	buffer        uint64
}

func newFlightKey(msgID ids.ID, justification []byte, subnetID ids.ID, height, quorum, buffer uint64) flightKey {
	return flightKey{msgID: msgID, justification: hashing.ComputeHash256Array(justification),
		subnetID: subnetID, height: height, quorum: quorum, buffer: buffer}
}

// flight is one collection others may wait for.
type flight struct {
	done chan struct{}
	res  Result
	err  error
	// abandoned: the leader's own request ended (its client left, or its
	// deadline passed) before the outcome; waiters then collect themselves.
	abandoned bool
}

type flights struct {
	mu      sync.Mutex
	running map[flightKey]*flight
}

func newFlights() *flights { return &flights{running: map[flightKey]*flight{}} }

// do runs collect for key, or waits for the identical collection already
// running; shared reports the latter.
func (f *flights) do(ctx context.Context, key flightKey, collect func() (Result, error)) (res Result, err error, shared bool) {
	f.mu.Lock()
	if fl, ok := f.running[key]; ok {
		f.mu.Unlock()
		select {
		case <-fl.done:
			if !fl.abandoned {
				return fl.res, fl.err, true
			}
		case <-ctx.Done():
			return Result{}, ctx.Err(), true
		}
		res, err = collect()
		return res, err, false
	}
	fl := &flight{done: make(chan struct{})}
	f.running[key] = fl
	f.mu.Unlock()
	finished := false
	defer func() {
		f.mu.Lock()
		delete(f.running, key)
		f.mu.Unlock()
		// A panic (finished still false) leaves the waiters to collect
		// themselves too.
		fl.res, fl.err, fl.abandoned = res, err, !finished || ctx.Err() != nil
		close(fl.done)
	}()
	res, err = collect()
	finished = true
	return res, err, false
}
