package follower

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/avadata/avadata/indexer/store"
)

// windowBatches bounds how far one catch-up pass reads ahead of the cursor
// before it reads the node's head again: the head is read once per window,
// not once per batch.
const windowBatches = 64

// fetchResult is one fetched range, waiting in the reorder buffer.
type fetchResult[B any] struct {
	from    uint64
	want    int
	blocks  []B
	err     error
	started time.Time
}

// catchUp indexes up to one window of blocks with Fetchers parallel fetches
// over consecutive ranges feeding one ordered writer (the model is
// Blockbook's sync: workers fetch, one writer keeps the order, the cursor and
// the contiguity check). At most 2×Fetchers ranges are in flight or waiting,
// which bounds memory whatever the node's speed.
func (f *Follower[B]) catchUp(ctx context.Context, cursor *store.Cursor, head uint64) (bool, error) {
	batch := uint64(f.cfg.BatchSize)
	end := min(head, cursor.NextHeight+batch*windowBatches-1)
	inflight := 2 * f.cfg.Fetchers
	slots := make(chan struct{}, inflight)
	jobs := make(chan uint64)
	results := make(chan fetchResult[B], inflight)

	var wg sync.WaitGroup
	defer wg.Wait() // after cancel: no fetch outlives the pass
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		for from := cursor.NextHeight; from <= end; from += batch {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- from:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range f.cfg.Fetchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for from := range jobs {
				// results has room for every range holding a slot, so
				// this send never blocks.
				results <- f.fetchRange(ctx, from, int(min(batch, end-from+1)))
			}
		}()
	}
	return f.writeInOrder(ctx, cursor, end, results, slots)
}

// writeInOrder applies fetched ranges in height order as they complete. A
// failed range, or one the node answered short, ends the pass: the next step
// starts again from the cursor.
func (f *Follower[B]) writeInOrder(ctx context.Context, cursor *store.Cursor, end uint64,
	results <-chan fetchResult[B], slots <-chan struct{},
) (bool, error) {
	pending := map[uint64]fetchResult[B]{}
	advanced := false
	for cursor.NextHeight <= end {
		r, ok := pending[cursor.NextHeight]
		if !ok {
			select {
			case r = <-results:
				pending[r.from] = r
			case <-ctx.Done():
				return advanced, ctx.Err()
			}
			continue
		}
		delete(pending, r.from)
		<-slots
		if r.err != nil {
			return advanced, r.err
		}
		wrote, err := f.write(ctx, cursor, r.blocks, r.started)
		advanced = advanced || wrote
		if err != nil || len(r.blocks) < r.want {
			return advanced, err
		}
	}
	return advanced, nil
}

// fetchRange fetches one range, turning a panic in the source into an error
// so that one bad block cannot take the plugin down.
func (f *Follower[B]) fetchRange(ctx context.Context, from uint64, want int) (r fetchResult[B]) {
	r = fetchResult[B]{from: from, want: want, started: time.Now()}
	defer func() {
		if p := recover(); p != nil {
			r.err = fmt.Errorf("fetching %s blocks from %d panicked: %v\n%s", f.id.Name, from, p, debug.Stack())
		}
	}()
	r.blocks, r.err = f.src.Fetch(ctx, from, want)
	if r.err != nil {
		r.err = fmt.Errorf("fetching %s blocks from %d: %w", f.id.Name, from, r.err)
	}
	return r
}
