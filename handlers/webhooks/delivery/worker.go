package delivery

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// worker delivers one webhook's outbox, oldest event first, one at a time:
// the event at the head is tried until it is delivered (or the webhook
// stops), so the receiver gets the webhook's events in its chain's order.
type worker struct {
	r     *Runner
	id    webhookdata.ID
	chain netinfo.Chain
	// wake is poked when the outbox may have grown.
	wake   chan struct{}
	cancel context.CancelFunc
	done   chan struct{}
	// stopping is set (under r.mu) once the runner cancelled the worker.
	stopping bool

	// The current run of failures (the worker's goroutine only): since
	// when the deliveries fail (zero: they do not; the store keeps it,
	// this is the worker's copy), and the backoff between attempts.
	failingSince time.Time
	// unsaved says the store could not take failingSince: the next
	// failure stores it rather than starting a new run.
	unsaved bool
	backoff backoff
}

func newWorker(r *Runner, id webhookdata.ID, chain netinfo.Chain, cancel context.CancelFunc) *worker {
	return &worker{r: r, id: id, chain: chain, wake: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{}),
		backoff: backoff{min: r.cfg.MinBackoff, max: r.cfg.MaxBackoff}}
}

func (w *worker) poke() { poke(w.wake) }

// stop cancels the worker (under r.mu); it ends at its next step.
func (w *worker) stop() {
	w.stopping = true
	w.cancel()
}

func (w *worker) stopped() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// errInactive ends a batch: the webhook is no longer active.
var errInactive = errors.New("the webhook is not active")

// run delivers until ctx ends: it reads the outbox in batches and sleeps
// until woken when the outbox is empty or the webhook inactive.
func (w *worker) run(ctx context.Context) {
	defer poke(w.r.rescan) // a replacement may be waiting for this one to stop
	defer close(w.done)
	w.loadFailingSince(ctx)
	for ctx.Err() == nil {
		more, err := w.stepRecovered(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, errInactive):
			w.failingSince, w.unsaved = time.Time{}, false
			w.backoff.reset()
		case err != nil:
			w.r.log.Warn("delivering webhook events", zap.Stringer("webhook", w.id), zap.Error(err))
			sleep(ctx, restartDelay)
			continue
		case more:
			continue
		}
		select {
		case <-ctx.Done():
		case <-w.wake:
		}
	}
}

// stepRecovered delivers one batch; more says the outbox may hold more.
// A panic is an error: the worker goes on after restartDelay.
func (w *worker) stepRecovered(ctx context.Context) (more bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			w.r.log.Error("webhook delivery panicked", zap.Stringer("webhook", w.id),
				zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			more, err = false, fmt.Errorf("delivery panicked: %v", p)
		}
	}()
	batch, err := w.r.store.Outbox(ctx, w.id, w.r.cfg.BatchSize)
	if err != nil || len(batch) == 0 {
		return false, err
	}
	for _, e := range batch {
		if err := w.deliver(ctx, e); err != nil {
			return false, err
		}
	}
	return len(batch) == w.r.cfg.BatchSize, nil
}

// deliver sends e until the receiver takes it, then removes it from the
// outbox. The webhook (from the store's snapshot of the active ones) and
// the secret are read for every attempt: a new URL or a rotated secret
// takes effect at the next delivery, and a webhook made inactive stops at
// once (errInactive).
func (w *worker) deliver(ctx context.Context, e store.OutboxEntry) error {
	for {
		h := w.r.store.WebhookWatches().Chain(w.chain).Hook(w.id)
		if h == nil {
			return errInactive
		}
		secret, err := w.r.store.WebhookSecret(ctx)
		if err != nil {
			return err
		}
		// A webhook in a run of failures takes a retry slot: its receiver
		// may hang until the response timeout, and the healthy webhooks'
		// deliveries must not wait behind it.
		began, err := w.sendInSlot(ctx, h.URL, secret, e.Body)
		if errors.Is(err, errNoSlot) {
			return ctx.Err()
		}
		if ctx.Err() == nil { // an attempt cut off by shutdown says nothing of the receiver
			w.r.metrics.attempt(began, err)
		}
		if err == nil {
			// The receiver has it: ending the run of failures and removing
			// the event are quick and local, and are done even when the
			// node is stopping, so the event is not sent again after the
			// restart (ending the run first: a crash in between sends the
			// event again, never counts a run that ended).
			if err := w.recovered(context.WithoutCancel(ctx)); err != nil {
				return err
			}
			if err := w.r.store.AckOutbox(context.WithoutCancel(ctx), w.id, []store.OutboxEntry{e}); err != nil {
				return fmt.Errorf("acknowledging %s block %d event %d: %w", w.chain, e.Height, e.Seq, err)
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if w.failed(ctx, h, e, err) {
			return errInactive
		}
		if !sleep(ctx, w.backoff.next()) {
			return ctx.Err()
		}
	}
}

// errNoSlot is sendInSlot's answer when ctx ended before a slot was free.
var errNoSlot = errors.New("no delivery slot before the runner stopped")

// sendInSlot sends body to url in a delivery slot (a retry slot while the
// webhook is in a run of failures). The slot is given back however the
// send ends, a panic included: a slot lost would be lost for good. began
// is when the send began, once it had its slot.
func (w *worker) sendInSlot(ctx context.Context, url, secret string, body []byte) (began time.Time, err error) {
	release, ok := w.r.acquire(ctx, !w.failingSince.IsZero())
	if !ok {
		return time.Time{}, errNoSlot
	}
	defer release()
	began = time.Now()
	return began, w.r.sender.send(ctx, url, secret, body)
}

// loadFailingSince reads the run of failures the store kept (one that
// began before the node's restart goes on).
func (w *worker) loadFailingSince(ctx context.Context) {
	since, found, err := w.r.store.WebhookFailingSince(ctx, w.id)
	if err != nil {
		// The next failure reads it again.
		w.r.log.Warn("reading a webhook's run of failed deliveries", zap.Stringer("webhook", w.id), zap.Error(err))
		return
	}
	if found {
		w.failingSince = since
	}
}

// recovered ends a run of failures.
func (w *worker) recovered(ctx context.Context) error {
	w.backoff.reset()
	if w.failingSince.IsZero() {
		return nil
	}
	// Kept in memory until the store forgot it: an error leaves the next
	// success to try again.
	if err := w.r.store.ClearWebhookFailingSince(ctx, w.id); err != nil {
		return err
	}
	w.r.log.Info("webhook deliveries succeed again", zap.Stringer("webhook", w.id),
		zap.Duration("failedFor", time.Since(w.failingSince)))
	w.failingSince, w.unsaved = time.Time{}, false
	return nil
}

// failed records a failed attempt; true when the webhook has now failed
// for longer than the maximum age and was made inactive. The run of
// failures is read from the store at every failure: a change of the
// webhook's status or URL ended it there (and a restart keeps it).
func (w *worker) failed(ctx context.Context, h *webhookdata.Webhook, e store.OutboxEntry, cause error) bool {
	now := time.Now()
	since, found, err := w.r.store.WebhookFailingSince(ctx, w.id)
	if err != nil {
		w.r.log.Warn("reading a webhook's run of failed deliveries", zap.Stringer("webhook", w.id), zap.Error(err))
		if w.failingSince.IsZero() {
			w.failingSince = now
		}
		return false
	}
	if !found {
		// None stored: a run begins, unless the start of this worker's
		// run could not be stored (then it is stored now). A run the
		// store no longer holds was ended by a change of the webhook.
		if !w.unsaved || w.failingSince.IsZero() {
			w.failingSince = now
		}
		w.unsaved = false
		if err := w.r.store.SetWebhookFailingSince(ctx, w.id, w.failingSince); err != nil {
			w.unsaved = true
			w.r.log.Warn("recording a webhook's run of failed deliveries", zap.Stringer("webhook", w.id), zap.Error(err))
		}
		w.r.log.Warn("webhook delivery failed; retrying with backoff", zap.Stringer("webhook", w.id),
			zap.Stringer("chain", w.chain), zap.Uint64("height", e.Height), zap.Error(cause))
		return false
	}
	w.failingSince = since
	if now.Sub(since) < w.r.cfg.MaxAge {
		return false
	}
	reason := fmt.Sprintf("deliveries failed continuously since %s, longer than the maximum age %s; last attempt: %v",
		since.UTC().Format(time.RFC3339), w.r.cfg.MaxAge, cause)
	deactivated := false
	_, err = w.r.store.UpdateWebhook(ctx, w.id, h.Chain, 0, func(cur webhookdata.Webhook) (webhookdata.Webhook, error) {
		// Only the webhook the failures were for: its owner may have
		// changed it (another URL, inactive and active again) since the
		// attempt, which ended the run. The record changes are serialised,
		// so the run read here is the one this change ends.
		still, found, err := w.r.store.WebhookFailingSince(ctx, w.id)
		if err != nil {
			return cur, err
		}
		if cur.Status == webhookdata.Active && cur.URL == h.URL && found && still.Equal(since) {
			cur.Status, cur.StatusReason = webhookdata.Inactive, reason
			deactivated = true
		}
		return cur, nil
	})
	if err != nil {
		w.r.log.Warn("making a failing webhook inactive", zap.Stringer("webhook", w.id), zap.Error(err))
		return false
	}
	if !deactivated {
		return false
	}
	w.r.metrics.deactivated.Inc()
	w.r.log.Warn("webhook made inactive: its deliveries failed for longer than the maximum age",
		zap.Stringer("webhook", w.id), zap.Time("failingSince", since), zap.Error(cause))
	return true
}
