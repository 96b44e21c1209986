package store

import (
	"fmt"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// The writers' side of the webhooks: a block's events go into the outbox
// through the block's transaction (w.set, so they count against its
// budget), keyed by the webhook, the block's height and the event's
// sequence number among the webhook's events of that block. Writing a block
// again (a retried commit) writes the same keys with the same bodies.

// webhookEvents is a block transaction's webhook state.
type webhookEvents struct {
	// off says the transaction's blocks give no events: a back-fill, or a
	// stream that re-reads history (X-chain vertices).
	off bool
	// height is the block the sequence numbers count in.
	height uint64
	seq    map[webhookdata.ID]uint32
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
	return w.set(outboxKey(h.ID, height, seq), body)
}
