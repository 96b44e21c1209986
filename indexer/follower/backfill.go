package follower

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/store"
)

// A back-fill fills an EVM chain's index toward the height its indexFrom
// names when the index starts later (the node state-synced, or prunes) and
// the node comes to serve older blocks (an archive node, a finished full
// sync, a lowered indexFrom). It runs beside the follower, which keeps
// indexing new blocks: it fetches the blocks just below the index's first
// height with parallel fetchers and writes them newest first, each commit
// lowering the first height (store.EVMWriter.Backfill), then has the store
// re-derive the running state that carries from block to block
// (store.EVMWriter.Rederive). When it cannot go further it asks the node
// again, slowly.

// BackfillSink is the store side of a back-fill (store.EVMWriter).
type BackfillSink[B chaindata.Block] interface {
	Cursor(ctx context.Context) (store.Cursor, error)
	// Backfill writes consecutive blocks ending just below the cursor's
	// FirstHeight and lowers it.
	Backfill(ctx context.Context, blocks []B) error
	// Rederive takes one step of recomputing the running state after a
	// back-fill: the next height to do, or done.
	Rederive(ctx context.Context, blocks int) (uint64, bool, error)
}

// BackfillStatus is a back-fill's progress, in the follower's status.
type BackfillStatus struct {
	// Target is the lowest height the back-fill fills down to: what
	// indexFrom names, or the oldest block the node serves when that is
	// later.
	Target uint64 `json:"target"`
	// FirstHeight is the first block the index holds now.
	FirstHeight uint64 `json:"firstHeight"`
	// State says what the back-fill does: "filling" (writing older blocks),
	// "re-deriving" (recomputing cumulative counts and NFT holdings from
	// the first block on), "done", or "waiting" (for the node's history).
	State string `json:"state"`
	// RederivedTo is, while re-deriving, the height reached.
	RederivedTo     uint64  `json:"rederivedTo,omitempty"`
	BlocksPerSecond float64 `json:"blocksPerSecond"`
	// ETASeconds estimates the time to fill down to Target, or while
	// re-deriving to reach the follower's height, at the current rate (0
	// when done or unknown).
	ETASeconds int64  `json:"etaSeconds,omitempty"`
	LastError  string `json:"lastError,omitempty"`
}

// Back-fill states.
const (
	BackfillFilling    = "filling"
	BackfillRederiving = "re-deriving"
	BackfillDone       = "done"
	BackfillWaiting    = "waiting"
)

// backfillRecheck is how often a back-fill that cannot go further asks the
// node whether it serves older blocks now: the question costs a binary
// search over the node's blocks, and the answer changes in hours.
const backfillRecheck = 5 * time.Minute

// backfillWindowBatches bounds the blocks one fill pass fetches (in batches
// of Config.BatchSize) before writing them.
const backfillWindowBatches = 8

// Backfill is one EVM chain's back-fill. Run it in one goroutine; Status
// may be called from any.
type Backfill[B chaindata.Block] struct {
	id   Identity
	src  Source[B]
	sink BackfillSink[B]
	cfg  Config
	log  logging.Logger
	rate *rateMeter
	// rederiveRate measures the re-derive (blocks per second).
	rederiveRate *rateMeter
	// recheck is how long a back-fill that cannot go further waits.
	recheck time.Duration
	// target is the last target found (0: none yet); the node is asked
	// again only when the fill reaches it.
	target uint64

	mu     sync.Mutex
	status BackfillStatus
	// rederiveEnd is, while re-deriving, the height it must reach (the
	// follower's next height when the pass began; mu).
	rederiveEnd uint64
}

// NewBackfill returns the back-fill of src's chain into sink, toward the
// height cfg.IndexFrom names.
func NewBackfill[B chaindata.Block](id Identity, src Source[B], sink BackfillSink[B], cfg Config, log logging.Logger) *Backfill[B] {
	cfg.Fetchers = max(cfg.Fetchers, 1)
	cfg.BatchSize = max(cfg.BatchSize, 1)
	return &Backfill[B]{
		id: id, src: src, sink: sink, cfg: cfg, log: log,
		rate: newRateMeter(), rederiveRate: newRateMeter(), recheck: backfillRecheck,
	}
}

// SetRecheck changes how long a back-fill that cannot go further waits
// before asking the node again (tests).
func (b *Backfill[B]) SetRecheck(d time.Duration) { b.recheck = d }

// Status returns the back-fill's progress; nil when it has nothing to do
// and never did (a chain indexed from its target).
func (b *Backfill[B]) Status() *BackfillStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.status.State == "" {
		return nil
	}
	s := b.status
	now := time.Now()
	switch s.State {
	case BackfillFilling:
		s.BlocksPerSecond = b.rate.perSecond(now)
		if s.BlocksPerSecond > 0 && s.FirstHeight > s.Target {
			s.ETASeconds = int64(float64(s.FirstHeight-s.Target) / s.BlocksPerSecond)
		}
	case BackfillRederiving:
		s.BlocksPerSecond = b.rederiveRate.perSecond(now)
		if s.BlocksPerSecond > 0 && b.rederiveEnd > s.RederivedTo {
			s.ETASeconds = int64(float64(b.rederiveEnd-s.RederivedTo) / s.BlocksPerSecond)
		}
	default:
		s.BlocksPerSecond = b.rate.perSecond(now)
	}
	return &s
}

// Run back-fills until ctx ends.
func (b *Backfill[B]) Run(ctx context.Context) error {
	progress := newProgressLog(b.log, b.id.Name)
	for {
		wait, err := b.step(ctx, progress)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			b.recordError(err)
			wait = min(max(b.cfg.PollInterval, time.Second)*4, maxBackoff)
		}
		if wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
	}
}

// step does one pass: a window of blocks filled, the re-derive run to its
// end, or nothing; it returns how long to wait before the next.
func (b *Backfill[B]) step(ctx context.Context, progress *progressLog) (time.Duration, error) {
	cursor, err := b.sink.Cursor(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading the %s cursor: %w", b.id.Name, err)
	}
	if cursor.Fresh {
		return max(b.cfg.PollInterval, time.Second), nil // the follower has not started the index yet
	}
	target := uint64(1)
	if cursor.FirstHeight > 1 {
		// Finding the node's oldest block is a binary search over its
		// blocks: done again only once the fill reaches the last one found.
		if b.target == 0 || cursor.FirstHeight <= b.target {
			oldest, err := earliest(ctx, b.src)
			if err != nil {
				return 0, fmt.Errorf("finding the oldest %s block the node serves: %w", b.id.Name, err)
			}
			b.target = backfillTarget(b.cfg.IndexFrom, oldest)
		}
		target = b.target
	}
	if cursor.FirstHeight > target {
		b.record(func(s *BackfillStatus) {
			s.State, s.Target, s.FirstHeight, s.RederivedTo = BackfillFilling, target, cursor.FirstHeight, 0
		})
		if err := b.fill(ctx, cursor.FirstHeight, target); err != nil {
			// The node may no longer serve what it did (it pruned):
			// find its oldest block again before the next pass.
			b.target = 0
			return 0, err
		}
		b.logProgress(progress)
		return 0, nil
	}
	if err := b.rederive(ctx, progress, cursor.NextHeight); err != nil {
		return 0, err
	}
	// What indexFrom asks for: with "earliest-available", what the node
	// serves; otherwise a height the node may not serve yet (waiting).
	wanted := target
	if b.cfg.IndexFrom.Height != 0 || b.cfg.IndexFrom.Genesis {
		wanted = backfillTarget(b.cfg.IndexFrom, 1)
	}
	b.record(func(s *BackfillStatus) {
		if s.State == "" && cursor.FirstHeight <= wanted {
			return // nothing was ever to do: no status
		}
		s.Target, s.FirstHeight, s.RederivedTo, s.LastError = target, cursor.FirstHeight, 0, ""
		s.State = BackfillDone
		if cursor.FirstHeight > wanted {
			s.State = BackfillWaiting // for the node to serve older blocks
		}
	})
	return b.recheck, nil
}

// backfillTarget is the lowest height to fill down to: what from names,
// but no lower than the oldest block the node serves.
func backfillTarget(from IndexFrom, oldest uint64) uint64 {
	oldest = max(oldest, 1)
	switch {
	case from.Height != 0:
		return max(from.Height, oldest)
	default: // genesis, or the earliest available
		return oldest
	}
}

// fill fetches up to one window of blocks below first (down to target)
// with parallel fetchers, and writes them newest first.
func (b *Backfill[B]) fill(ctx context.Context, first, target uint64) error {
	fetchStarted := time.Now()
	batch := uint64(b.cfg.BatchSize)
	lo := max(target, first-min(first-target, batch*backfillWindowBatches))
	var ranges []uint64 // range starts, each of at most batch blocks up to first-1
	for from := lo; from < first; from += batch {
		ranges = append(ranges, from)
	}
	results := make([]fetchResult[B], len(ranges))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(b.cfg.Fetchers, len(ranges)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				from := ranges[i]
				results[i] = b.fetchRange(ctx, from, int(min(batch, first-from)))
			}
		}()
	}
	for i := range ranges {
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	started := time.Now()
	var blocks []B
	for _, r := range results {
		if r.err != nil {
			return r.err
		}
		if len(r.blocks) < r.want {
			return fmt.Errorf("the node returned %d %s blocks from %d, not %d", len(r.blocks), b.id.Name, r.from, r.want)
		}
		blocks = append(blocks, r.blocks...)
	}
	slices.Reverse(blocks)
	if err := b.sink.Backfill(ctx, blocks); err != nil {
		return fmt.Errorf("back-filling %s blocks %d..%d: %w", b.id.Name, lo, first-1, err)
	}
	now := time.Now()
	b.rate.add(now, len(blocks))
	b.record(func(s *BackfillStatus) { s.FirstHeight, s.LastError = lo, "" })
	b.log.Debug("back-filled", zapChain(b.id.Name), zap.Uint64("from", lo), zap.Uint64("to", first-1),
		zap.Duration("write", now.Sub(started)))
	return b.pace(ctx, len(blocks), fetchStarted)
}

// pace waits, when the configured rate asks, until n blocks from since
// have taken their share of time.
func (b *Backfill[B]) pace(ctx context.Context, n int, since time.Time) error {
	if b.cfg.BackfillRate <= 0 {
		return nil
	}
	wait := time.Until(since.Add(time.Duration(float64(n) / b.cfg.BackfillRate * float64(time.Second))))
	if wait <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(wait):
		return nil
	}
}

// fetchRange fetches one range, a panic in the source turned into an error.
func (b *Backfill[B]) fetchRange(ctx context.Context, from uint64, want int) (r fetchResult[B]) {
	r = fetchResult[B]{from: from, want: want, started: time.Now()}
	defer func() {
		if p := recover(); p != nil {
			r.err = fmt.Errorf("fetching %s blocks from %d panicked: %v\n%s", b.id.Name, from, p, debug.Stack())
		}
	}()
	r.blocks, r.err = b.src.Fetch(ctx, from, want)
	if r.err != nil {
		r.err = fmt.Errorf("fetching %s blocks from %d: %w", b.id.Name, from, r.err)
	}
	return r
}

// rederive runs the store's re-derive to its end (nothing to do when no
// back-fill wrote anything since the last); end is the follower's next
// height when it began, for the ETA.
func (b *Backfill[B]) rederive(ctx context.Context, progress *progressLog, end uint64) error {
	var last uint64
	for {
		next, done, err := b.sink.Rederive(ctx, b.cfg.BatchSize*backfillWindowBatches)
		if err != nil {
			return fmt.Errorf("re-deriving %s: %w", b.id.Name, err)
		}
		if done {
			return nil
		}
		if last != 0 && next > last {
			b.rederiveRate.add(time.Now(), int(next-last))
		}
		last = next
		b.record(func(s *BackfillStatus) {
			s.State, s.RederivedTo = BackfillRederiving, next
			b.rederiveEnd = max(end, next)
		})
		b.logProgress(progress)
	}
}

func (b *Backfill[B]) record(update func(*BackfillStatus)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	update(&b.status)
}

func (b *Backfill[B]) recordError(err error) {
	b.log.Warn("back-fill error", zapChain(b.id.Name), zapErr(err))
	b.record(func(s *BackfillStatus) {
		if s.State == "" {
			s.State = BackfillWaiting
		}
		s.LastError = err.Error()
	})
}

// logProgress writes a back-fill line at most every progressInterval.
func (b *Backfill[B]) logProgress(p *progressLog) {
	now := time.Now()
	if now.Sub(p.lastAt) < progressInterval {
		return
	}
	p.lastAt = now
	s := b.Status()
	if s == nil {
		return
	}
	fields := []zap.Field{zapChain(p.chain), zap.String("state", s.State), zap.Uint64("firstHeight", s.FirstHeight),
		zap.Uint64("target", s.Target), zap.String("blocksPerSecond", formatRate(s.BlocksPerSecond))}
	if s.RederivedTo > 0 {
		fields = append(fields, zap.Uint64("rederivedTo", s.RederivedTo))
	}
	if s.ETASeconds > 0 {
		fields = append(fields, zap.Duration("eta", time.Duration(s.ETASeconds)*time.Second))
	}
	p.log.Info("back-filling", fields...)
}
