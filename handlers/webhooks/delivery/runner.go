// Package delivery sends the webhooks' outbox: every event a block gave a
// webhook (written by the block's own commit, indexer/store) is POSTed to
// the webhook's URL, signed with the shared secret, and removed from the
// outbox once the receiver answered 2xx. Each active webhook has its own
// worker with at most one delivery in flight, so its events arrive in its
// chain's order and one slow or failing receiver never holds up another; a
// global bound caps the deliveries in flight, and the outbox is read in
// small batches, so a backlog never sits in memory. A failed delivery is
// tried again with exponential backoff until the webhook has failed for
// longer than the maximum age (counted from the start of the run of
// failures, which the store keeps across restarts); then it is made
// inactive with the reason, its events kept. The retries of failing
// webhooks share a smaller bound of their own, so receivers that are down
// or hang never take the slots of healthy ones. Delivery is at least once:
// an event is removed only after its receiver took it, so a crash between
// the two sends it again (with the same messageId).
package delivery

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// Store is what the deliveries read and write (*store.Store).
type Store interface {
	// WebhookWatches is the current snapshot of the active webhooks: a
	// new one after every change of a record.
	WebhookWatches() *webhookdata.Watches
	UpdateWebhook(ctx context.Context, id webhookdata.ID, chain netinfo.Chain, fromHeight uint64,
		change func(h webhookdata.Webhook) (webhookdata.Webhook, error)) (webhookdata.Webhook, error)
	WebhookSecret(ctx context.Context) (string, error)
	Outbox(ctx context.Context, id webhookdata.ID, limit int) ([]store.OutboxEntry, error)
	AckOutbox(ctx context.Context, id webhookdata.ID, delivered []store.OutboxEntry) error
	WebhookFailingSince(ctx context.Context, id webhookdata.ID) (time.Time, bool, error)
	SetWebhookFailingSince(ctx context.Context, id webhookdata.ID, since time.Time) error
	ClearWebhookFailingSince(ctx context.Context, id webhookdata.ID) error
	SetWebhookNotifier(fn func(chain netinfo.Chain))
}

var _ Store = (*store.Store)(nil)

// restartDelay is how long a worker or the runner's scan waits after a
// panic or a store error before it goes on.
const restartDelay = time.Second

// Runner runs one worker per active webhook. Create it with New, run it
// with Run.
type Runner struct {
	store   Store
	sender  *sender
	cfg     Config
	log     logging.Logger
	metrics *metrics
	// slots bounds the deliveries in flight over every webhook;
	// retrySlots bounds, apart, those of webhooks in a run of failures.
	slots, retrySlots chan struct{}
	// rescan asks Run to read the webhook records again (coalesced).
	rescan chan struct{}

	mu      sync.Mutex
	workers map[webhookdata.ID]*worker
}

// New returns a runner that delivers st's outbox.
func New(st Store, cfg Config, log logging.Logger) (*Runner, error) {
	cfg = cfg.withDefaults()
	m, err := newMetrics(cfg.Metrics)
	if err != nil {
		return nil, fmt.Errorf("registering the webhook delivery metrics: %w", err)
	}
	return &Runner{store: st, sender: newSender(cfg), cfg: cfg, log: log, metrics: m,
		slots:      make(chan struct{}, cfg.Concurrency),
		retrySlots: make(chan struct{}, cfg.retryConcurrency()),
		rescan:     make(chan struct{}, 1),
		workers:    map[webhookdata.ID]*worker{}}, nil
}

// Run delivers until ctx ends, then waits for the workers to stop (every
// delivery in flight is cut off by ctx) and closes the connections kept
// for the next delivery.
func (r *Runner) Run(ctx context.Context) {
	r.store.SetWebhookNotifier(r.notify)
	defer r.store.SetWebhookNotifier(func(netinfo.Chain) {})
	defer r.sender.close()
	var wg sync.WaitGroup
	defer wg.Wait()
	ticker := time.NewTicker(r.cfg.RescanInterval)
	defer ticker.Stop()
	var seen *webhookdata.Watches
	for {
		seen = r.reconcileRecovered(ctx, &wg, seen)
		select {
		case <-ctx.Done():
			return
		case <-r.rescan:
		case <-ticker.C:
		}
	}
}

// notify is the store's wake-up after a commit that wrote events for
// chain's webhooks: it wakes their workers, and Run, which starts the
// workers of webhooks that have none yet (just created or made active). It
// never blocks.
func (r *Runner) notify(chain netinfo.Chain) {
	r.mu.Lock()
	for _, w := range r.workers {
		if w.chain == chain {
			w.poke()
		}
	}
	r.mu.Unlock()
	poke(r.rescan)
}

// reconcileRecovered makes the workers match the active webhooks: it
// starts a worker for each active webhook that has none and stops the
// others'. seen is the snapshot of the last call; when the snapshot has
// changed since, every worker is woken, as one that found its webhook
// inactive may find it active again. It returns the snapshot it used.
func (r *Runner) reconcileRecovered(ctx context.Context, wg *sync.WaitGroup, seen *webhookdata.Watches) (used *webhookdata.Watches) {
	used = seen
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("webhook delivery panicked", zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
		}
	}()
	watches := r.store.WebhookWatches()
	changed := watches != seen
	active := map[webhookdata.ID]netinfo.Chain{}
	for _, h := range watches.Active() {
		active[h.ID] = h.Chain
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, w := range r.workers {
		if _, ok := active[id]; ok && !w.stopping {
			if changed {
				w.poke()
			}
			continue
		}
		if !w.stopping {
			w.stop()
		}
		if w.stopped() {
			delete(r.workers, id)
		}
	}
	for id, chain := range active {
		if _, ok := r.workers[id]; ok {
			// Running, or stopping after its webhook was inactive for a
			// moment: the new one starts once that one has stopped (it
			// asks for a reconcile), never two at once.
			continue
		}
		wctx, cancel := context.WithCancel(ctx)
		w := newWorker(r, id, chain, cancel)
		r.workers[id] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(wctx)
		}()
	}
	return watches
}

// acquire takes one of the delivery slots, of the retry slots when the
// webhook is in a run of failures; ok is false when ctx ended first.
func (r *Runner) acquire(ctx context.Context, failing bool) (release func(), ok bool) {
	slots := r.slots
	if failing {
		slots = r.retrySlots
	}
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, true
	case <-ctx.Done():
		return nil, false
	}
}

// poke wakes whoever waits on ch, without blocking: one wake-up pending is
// enough, as the woken side reads everything there is.
func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// sleep waits d or until ctx ends; false when ctx ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
