// Package follower moves one chain's accepted blocks from the node into the
// store: it catches up from where the store's cursor says, with parallel
// fetchers feeding one ordered writer, then follows the node live by polling
// its head. (Not by an eth newHeads websocket: avalanchego's HTTP router
// holds its read lock for a whole request, so a long-lived websocket blocks
// every route change — a chain created, an alias added — and with it every
// later request to the node.) Each write
// carries the cursor in the same transaction, so a crash at any point
// resumes exactly where the last commit ended.
package follower

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Config tunes a follower.
type Config struct {
	PollInterval time.Duration // wait between polls once caught up
	BatchSize    int           // blocks per fetch, and per write while live
	// Fetchers is how many fetches run at once while catching up (1: no
	// pipeline).
	Fetchers int
	// IndexFrom is where a fresh index of the chain begins.
	IndexFrom IndexFrom
	// Unavailable, when set, says what the chain's index cannot hold on
	// this node (Status.Unavailable).
	Unavailable func() []string
	// BackfillRate bounds a back-fill's blocks per second (0: none).
	BackfillRate float64
}

const (
	maxBackoff       = 10 * time.Second
	progressInterval = 10 * time.Second
)

// Runner is a follower of any domain, as the indexer holds them.
type Runner interface {
	Run(ctx context.Context) error
	Status() Status
	Pause()
	Resume()
	Name() string
	Chain() netinfo.Chain
}

// Follower follows one chain. Run it in one goroutine; Status, Pause and
// Resume may be called from any goroutine.
type Follower[B chaindata.Block] struct {
	id      Identity
	src     Source[B]
	sink    Sink[B]
	cfg     Config
	log     logging.Logger
	metrics chainMetrics
	rate    *rateMeter

	mu      sync.Mutex
	status  Status
	resumed chan struct{} // closed and replaced on Resume
	// backfill is the chain's back-fill, whose progress the status shows
	// (nil: none).
	backfill interface{ Status() *BackfillStatus }
}

// SetBackfill makes the status show b's progress, and the first height it
// has filled down to as HistoryFrom. Call it before Run.
func (f *Follower[B]) SetBackfill(b interface{ Status() *BackfillStatus }) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.backfill = b
}

// New returns a follower of src's chain writing to sink.
func New[B chaindata.Block](id Identity, src Source[B], sink Sink[B], cfg Config, log logging.Logger, m *Metrics) *Follower[B] {
	cfg.Fetchers = max(cfg.Fetchers, 1)
	cfg.BatchSize = max(cfg.BatchSize, 1)
	return &Follower[B]{
		id:      id,
		src:     src,
		sink:    sink,
		cfg:     cfg,
		log:     log,
		metrics: m.forChain(id.Name),
		rate:    newRateMeter(),
		status:  Status{Chain: id.Chain, ChainName: id.Name, BlockchainID: id.BlockchainID},
		resumed: make(chan struct{}),
	}
}

// Chain is the followed chain's number.
func (f *Follower[B]) Chain() netinfo.Chain { return f.id.Chain }

// Name is the followed chain's name.
func (f *Follower[B]) Name() string { return f.id.Name }

// Status returns a snapshot of the follower's progress.
func (f *Follower[B]) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.status
	if f.backfill != nil {
		if s.Backfill = f.backfill.Status(); s.Backfill != nil && s.Backfill.FirstHeight > 0 {
			s.HistoryFrom = s.Backfill.FirstHeight
		}
	}
	s.BlocksPerSecond = f.rate.perSecond(time.Now())
	if f.cfg.Unavailable != nil {
		s.Unavailable = f.cfg.Unavailable()
	}
	if s.BlocksPerSecond > 0 && s.Lag > 0 && !s.CaughtUp {
		s.ETASeconds = int64(float64(s.Lag) / s.BlocksPerSecond)
	}
	return s
}

// Pause stops the follower after its current batch until Resume.
func (f *Follower[B]) Pause() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Paused = true
}

// Resume undoes Pause.
func (f *Follower[B]) Resume() {
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
func (f *Follower[B]) Run(ctx context.Context) error {
	f.setRunning(true)
	defer f.setRunning(false)
	cursor, err := f.start(ctx)
	if err != nil {
		return err
	}
	f.recordIndexed(cursor.NextHeight-1, cursor.LastApplied)
	progress := newProgressLog(f.log, f.id.Name)
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

// start returns the cursor, first starting a fresh index where IndexFrom
// and the node's history say: until the node can serve that start, the
// status shows why and the follower asks again.
func (f *Follower[B]) start(ctx context.Context) (store.Cursor, error) {
	backoff := f.cfg.PollInterval
	for {
		cursor, err := f.sink.Cursor(ctx)
		if err != nil {
			return cursor, f.fail(err)
		}
		if !cursor.Fresh {
			f.recordHistoryFrom(cursor.FirstHeight)
			return cursor, nil
		}
		err = f.startFresh(ctx)
		if err == nil {
			continue // read the cursor the start wrote
		}
		if ctx.Err() != nil {
			return cursor, ctx.Err()
		}
		f.recordError(err)
		backoff = min(2*max(backoff, time.Second), maxBackoff)
		select {
		case <-ctx.Done():
			return cursor, ctx.Err()
		case <-time.After(backoff):
		}
	}
}

// startFresh starts the chain's index at the height IndexFrom names.
func (f *Follower[B]) startFresh(ctx context.Context) error {
	oldest, err := earliest(ctx, f.src)
	if err != nil {
		return fmt.Errorf("finding the oldest %s block the node serves: %w", f.id.Name, err)
	}
	first, err := firstHeight(f.id.Name, f.cfg.IndexFrom, oldest)
	if err != nil {
		return err
	}
	if err := f.sink.Start(ctx, first); err != nil {
		return err
	}
	if first > 1 {
		f.log.Info("indexing a chain from a later block than genesis", zapChain(f.id.Name),
			zap.Uint64("firstHeight", first), zap.Stringer("indexFrom", f.cfg.IndexFrom))
	}
	return nil
}

// step indexes what the node has beyond the cursor: a pipelined catch-up
// when it is more than one batch behind, one batch otherwise. It reports
// whether the cursor advanced.
func (f *Follower[B]) step(ctx context.Context, cursor *store.Cursor) (bool, error) {
	head, err := f.src.Head(ctx)
	if err != nil {
		return false, fmt.Errorf("reading %s head: %w", f.id.Name, err)
	}
	f.recordHead(head)
	if cursor.NextHeight > head+1 {
		// The node never un-accepts a block: its database was replaced or
		// the index came from elsewhere, and serving it would be wrong.
		return false, fmt.Errorf("the index is ahead of the node: %s indexed up to %d, the node is at %d; "+
			"if the node's database was replaced, stop the node and delete avadata's index to rebuild it",
			f.id.Name, cursor.NextHeight-1, head)
	}
	if cursor.NextHeight > head {
		f.recordCaughtUp()
		return false, nil
	}
	if behind := head - cursor.NextHeight + 1; behind > uint64(f.cfg.BatchSize) && f.cfg.Fetchers > 1 {
		return f.catchUp(ctx, cursor, head)
	}
	started := time.Now()
	count := int(min(uint64(f.cfg.BatchSize), head-cursor.NextHeight+1))
	blocks, err := f.src.Fetch(ctx, cursor.NextHeight, count)
	if err != nil {
		return false, fmt.Errorf("fetching %s blocks from %d: %w", f.id.Name, cursor.NextHeight, err)
	}
	return f.write(ctx, cursor, blocks, started)
}

// write applies blocks at the cursor and advances it.
func (f *Follower[B]) write(ctx context.Context, cursor *store.Cursor, blocks []B, started time.Time) (bool, error) {
	if len(blocks) == 0 {
		return false, nil
	}
	now := time.Now()
	applyErr := f.sink.Apply(ctx, blocks, now)
	// The sink commits in several transactions and fills in what the blocks
	// leave open (P-chain Apricot times), so the stored cursor, not the
	// blocks, says where the follower now is, also after a failed write
	// that committed a prefix.
	stored, err := f.sink.Cursor(ctx)
	if err != nil {
		return false, fmt.Errorf("re-reading the %s cursor: %w", f.id.Name, errors.Join(applyErr, err))
	}
	advanced := stored.NextHeight > cursor.NextHeight
	*cursor = stored
	if applyErr != nil {
		return advanced, fmt.Errorf("writing %s blocks from %d: %w", f.id.Name, blocks[0].Height(), applyErr)
	}
	f.recordBatch(blocks, now, time.Since(started))
	return true, nil
}

func (f *Follower[B]) waitWhilePaused(ctx context.Context) error {
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

// NodeHead reads the node's head of the chain now, from the follower's own
// source; false (and no read) until the follower's loop has read it once,
// so a caller never learns of the chain before the follower has reached
// the node. It does not record the head: the loop's status stays its own.
func (f *Follower[B]) NodeHead(ctx context.Context) (uint64, bool, error) {
	if !f.Status().NodeHeightKnown {
		return 0, false, nil
	}
	head, err := f.src.Head(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("reading %s head: %w", f.id.Name, err)
	}
	return head, true, nil
}
