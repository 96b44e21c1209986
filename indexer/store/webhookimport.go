package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// ImportWebhook stores h under its own ID, creating it or replacing the
// record this store has: the operator's copy of a webhook from another
// replica, so both deliver it with the same webhookId and messageIds. An
// active copy begins its events like a new webhook (the later of
// h.FromHeight and its chain's next block; never history), unless the
// replaced record was active already: its events then go on from where
// they were, with no gap and nothing sent twice by this node.
func (s *Store) ImportWebhook(ctx context.Context, h webhookdata.Webhook) (webhookdata.Webhook, error) {
	return s.changeWebhook(ctx, h.ID, h.Chain, func(old webhookdata.Webhook, found bool, next uint64) (webhookdata.Webhook, error) {
		if h.Status == webhookdata.Active {
			h.FromHeight = max(h.FromHeight, next)
			if found && old.Status == webhookdata.Active {
				h.FromHeight = old.FromHeight
			}
		}
		return h, nil
	})
}

// SetWebhookSecret makes secret the shared secret deliveries are signed
// with (another replica's, so both sign alike); the next delivery uses it.
func (s *Store) SetWebhookSecret(ctx context.Context, secret string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if secret == "" {
		return fmt.Errorf("setting the webhook secret: the secret is empty")
	}
	s.hooks.secretMu.Lock()
	defer s.hooks.secretMu.Unlock()
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(metaWebhookSecretKey, []byte(secret)) }); err != nil {
		return fmt.Errorf("setting the webhook secret: %w", err)
	}
	return nil
}
