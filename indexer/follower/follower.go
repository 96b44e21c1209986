// Package follower moves one chain's accepted blocks from the node into the
// store: it catches up from where the store's cursor says, then follows the
// node live. Each write carries the cursor in the same transaction, so a
// crash at any point resumes exactly where the last commit ended.
package follower

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Config tunes a follower.
type Config struct {
	PollInterval time.Duration // wait between polls once caught up
	BatchSize    int           // blocks fetched and written at once
}

const (
	maxBackoff       = 10 * time.Second
	progressInterval = 10 * time.Second
)

// Follower follows one chain. Run it in one goroutine; Status, Pause and
// Resume may be called from any goroutine.
type Follower struct {
	src     Source
	sink    Sink
	cfg     Config
	log     logging.Logger
	metrics chainMetrics
	rate    *rateMeter

	mu      sync.Mutex
	status  Status
	resumed chan struct{} // closed and replaced on Resume
}

// New returns a follower of src's chain writing to sink.
func New(src Source, sink Sink, cfg Config, log logging.Logger, m *Metrics) *Follower {
	chain := src.Chain()
	return &Follower{
		src:     src,
		sink:    sink,
		cfg:     cfg,
		log:     log,
		metrics: m.forChain(chain),
		rate:    newRateMeter(),
		status:  Status{Chain: chain, ChainName: chain.String()},
		resumed: make(chan struct{}),
	}
}

// Chain is the followed chain.
func (f *Follower) Chain() netinfo.Chain { return f.src.Chain() }

// Status returns a snapshot of the follower's progress.
func (f *Follower) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.status
	s.BlocksPerSecond = f.rate.perSecond(time.Now())
	return s
}

// Pause stops the follower after its current batch until Resume.
func (f *Follower) Pause() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Paused = true
}

// Resume undoes Pause.
func (f *Follower) Resume() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.status.Paused {
		f.status.Paused = false
		close(f.resumed)
		f.resumed = make(chan struct{})
	}
}

// Run follows the chain until ctx ends. It returns ctx's error, or an error
// that retrying cannot fix (the store refusing a write).
func (f *Follower) Run(ctx context.Context) error {
	f.setRunning(true)
	defer f.setRunning(false)
	cursor, err := f.sink.Cursor(f.src.Chain())
	if err != nil {
		return f.fail(err)
	}
	f.recordIndexed(cursor.NextHeight-1, cursor.LastApplied)
	progress := newProgressLog(f.log, f.src.Chain())
	backoff := f.cfg.PollInterval
	for {
		if err := f.waitWhilePaused(ctx); err != nil {
			return err
		}
		advanced, err := f.step(ctx, &cursor)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, store.ErrNotContiguous):
			return f.fail(err)
		case err != nil:
			f.recordError(err)
			backoff = min(2*backoff, maxBackoff)
		case advanced:
			backoff = f.cfg.PollInterval
			progress.maybeLog(f.Status())
			continue
		default:
			backoff = f.cfg.PollInterval
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
}

// step indexes one batch if the node has new blocks; it reports whether the
// cursor advanced.
func (f *Follower) step(ctx context.Context, cursor *store.Cursor) (bool, error) {
	head, err := f.src.Head(ctx)
	if err != nil {
		return false, fmt.Errorf("reading %s head: %w", f.src.Chain(), err)
	}
	f.recordHead(head)
	if cursor.NextHeight > head {
		f.recordCaughtUp()
		return false, nil
	}
	started := time.Now()
	count := int(min(uint64(f.cfg.BatchSize), head-cursor.NextHeight+1))
	blocks, err := f.src.Fetch(ctx, cursor.NextHeight, count)
	if err != nil {
		return false, fmt.Errorf("fetching %s blocks from %d: %w", f.src.Chain(), cursor.NextHeight, err)
	}
	if len(blocks) == 0 {
		return false, nil
	}
	now := time.Now()
	if err := f.sink.ApplyBlocks(f.src.Chain(), blocks, now); err != nil {
		return false, fmt.Errorf("writing %s blocks from %d: %w", f.src.Chain(), cursor.NextHeight, err)
	}
	last := blocks[len(blocks)-1]
	cursor.NextHeight, cursor.LastApplied, cursor.LastBlockTs = last.Height+1, now, last.Timestamp
	f.recordBatch(blocks, now, time.Since(started))
	return true, nil
}

func (f *Follower) waitWhilePaused(ctx context.Context) error {
	for {
		f.mu.Lock()
		paused, resumed := f.status.Paused, f.resumed
		f.mu.Unlock()
		if !paused {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-resumed:
		}
	}
}
