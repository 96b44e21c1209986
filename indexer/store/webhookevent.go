package store

import (
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// The writers' side of the webhooks: a block's events go into the outbox
// keyed by the webhook, the block's height and the event's sequence number
// among the webhook's events of that block. Writing a block again (a
// retried commit) writes the same keys with the same bodies.
//
// The writers gather a block's events; once the block is written they are
// placed (placeWebhookEvents) in the block's own transaction, so that an
// event exists exactly when its block is indexed. A block whose events
// would not fit a transaction beside its rows (many webhooks watching what
// most of a busy block touches) must still be indexed: its events are then
// written on their own, in as many batches as they need, just before the
// block's transaction commits. Should the transaction not commit (a
// conflict with another chain's writer, an overflow), they are removed
// again (dropWebhookEventsApart): the retry re-reads what the other writer
// committed meanwhile and may give other events (a primary-network
// balance). An event delivered in between may be sent again under the same
// messageId, which at-least-once allows.

// webhookEvents is a block transaction's webhook state.
type webhookEvents struct {
	// off says the transaction's blocks give no events: a back-fill, or a
	// stream that re-reads history (X-chain vertices).
	off bool
	// height is the block the sequence numbers count in.
	height uint64
	seq    map[webhookdata.ID]uint32
	// pending are the block's events not yet placed.
	pending []outboxRow
	// apart are the keys of events written apart from the transaction,
	// removed if it does not commit.
	apart [][]byte
	// written counts the events the transaction wrote (the commit wakes
	// the delivery runner when there are any).
	written int
}

// webhookWatches returns the active webhooks of the transaction's chain,
// nil when none (every writer's fast path) or when its blocks give no
// events.
func (w *blockTxn) webhookWatches() *webhookdata.ChainWatches {
	if w.hooks.off || w.downward {
		return nil
	}
	return w.s.hooks.watches.Load().Chain(w.chain)
}

// emitWebhookEvent puts event, of block height, into h's outbox, unless
// the block is older than the webhook. Each call for h in one block takes
// the next sequence number, so a writer calls it in the block's order.
func (w *blockTxn) emitWebhookEvent(h *webhookdata.Webhook, height uint64, event any) error {
	if height < h.FromHeight {
		return nil
	}
	if w.hooks.height != height || w.hooks.seq == nil {
		w.hooks.height, w.hooks.seq = height, map[webhookdata.ID]uint32{}
	}
	seq := w.hooks.seq[h.ID]
	w.hooks.seq[h.ID] = seq + 1
	body, err := webhookdata.Body(webhookdata.Envelope{
		WebhookID: h.ID.String(), EventType: h.EventType,
		MessageID: webhookdata.MessageID(h.ID, h.ChainID, height, seq), Event: event,
	})
	if err != nil {
		return fmt.Errorf("webhook %s, %s block %d: %w", h.ID, w.chain, height, err)
	}
	w.hooks.written++
	w.hooks.pending = append(w.hooks.pending, outboxRow{key: outboxKey(h.ID, height, seq), body: body})
	return nil
}

// outboxRow is one event as the outbox holds it.
type outboxRow struct {
	key, body []byte
}

// placeWebhookEvents writes the events of the block just written: into
// the transaction when they fit beside what it holds, else, for the
// transaction's first block, on their own; for a later block it answers
// badger.ErrTxnTooBig so that the blocks before it commit first and it
// comes again as a transaction's first.
func (w *blockTxn) placeWebhookEvents(first bool) error {
	rows := w.hooks.pending
	w.hooks.pending = nil
	if len(rows) == 0 {
		return nil
	}
	size, count := w.size, w.count+int64(len(rows))
	if m := w.metrics; m != nil {
		size, count = size+m.pendingSize, count+m.pendingCount
	}
	for _, r := range rows {
		size += int64(len(r.key) + len(r.body) + entryOverhead)
	}
	// Three quarters leaves the commit room for its TPS, metric and
	// cursor rows.
	if size <= w.s.db.MaxBatchSize()/4*3 && count <= w.s.db.MaxBatchCount()/4*3 {
		for _, r := range rows {
			if err := w.set(r.key, r.body); err != nil {
				return err
			}
		}
		return nil
	}
	if !first {
		return badger.ErrTxnTooBig
	}
	batch := w.s.db.NewWriteBatch()
	defer batch.Cancel()
	for _, r := range rows {
		w.hooks.apart = append(w.hooks.apart, r.key)
		if err := batch.Set(r.key, r.body); err != nil {
			return fmt.Errorf("writing %d webhook events of %s block %d apart: %w", len(rows), w.chain, w.hooks.height, err)
		}
	}
	if err := batch.Flush(); err != nil {
		return fmt.Errorf("writing %d webhook events of %s block %d apart: %w", len(rows), w.chain, w.hooks.height, err)
	}
	return nil
}

// dropWebhookEventsApart removes the events written apart from a
// transaction that did not commit; its blocks are written again, with the
// events they then give.
func (w *blockTxn) dropWebhookEventsApart() {
	if len(w.hooks.apart) == 0 {
		return
	}
	batch := w.s.db.NewWriteBatch()
	defer batch.Cancel()
	for _, k := range w.hooks.apart {
		if err := batch.Delete(k); err != nil {
			w.s.log.Warn("removing the webhook events of an uncommitted block", zap.Stringer("chain", w.chain), zap.Error(err))
			return
		}
	}
	if err := batch.Flush(); err != nil {
		w.s.log.Warn("removing the webhook events of an uncommitted block", zap.Stringer("chain", w.chain), zap.Error(err))
	}
	w.hooks.apart = nil
}
