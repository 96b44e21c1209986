package store

import (
	"context"
	"fmt"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// WriteWebhookEvents puts events into webhook h's outbox as the events of
// block height, in order, through a block transaction of h's chain as a
// chain's writer does, and wakes the delivery runner as a block's commit
// does. Only tests call it: the delivery runner's tests need outbox rows
// without indexing blocks that match the webhook.
func (s *Store) WriteWebhookEvents(ctx context.Context, h webhookdata.Webhook, height uint64, events ...any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	written, err := func() (int, error) {
		defer s.chainLocks.lock(h.Chain)()
		w := s.newBlockTxn(h.Chain)
		defer w.txn.Discard()
		for _, e := range events {
			if err := w.emitWebhookEvent(&h, height, e); err != nil {
				return 0, err
			}
		}
		if err := w.placeWebhookEvents(true); err != nil {
			return 0, err
		}
		return w.hooks.written, w.txn.Commit()
	}()
	if err != nil {
		return fmt.Errorf("writing webhook %s's events of block %d: %w", h.ID, height, err)
	}
	if written > 0 {
		s.notifyWebhooks(h.Chain)
	}
	return nil
}
