package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// ImportWebhooks stores hooks under their own IDs, creating each or
// replacing the record this store has, and makes secret the shared secret,
// all in one transaction: the operator's copy of another replica's
// webhooks, so both deliver them with the same webhookId, messageIds and
// signatures. An active copy begins its events like a new webhook (the
// later of its FromHeight and its chain's next block; never history),
// unless the replaced record was active already: its events then go on
// from where they were, with no gap and nothing sent twice by this node.
func (s *Store) ImportWebhooks(ctx context.Context, hooks []webhookdata.Webhook, secret string) ([]webhookdata.Webhook, error) {
	if secret == "" {
		return nil, fmt.Errorf("importing webhooks: the secret is empty")
	}
	changes := make([]webhookChange, 0, len(hooks))
	for _, h := range hooks {
		changes = append(changes, webhookChange{id: h.ID, chain: h.Chain,
			change: func(old webhookdata.Webhook, found bool, next uint64) (webhookdata.Webhook, error) {
				if h.Status == webhookdata.Active {
					h.FromHeight = max(h.FromHeight, next)
					if found && old.Status == webhookdata.Active {
						h.FromHeight = old.FromHeight
					}
				}
				return h, nil
			}})
	}
	// The secret's writers take turns (webhook.go); its lock comes before
	// the webhooks'.
	s.hooks.secretMu.Lock()
	defer s.hooks.secretMu.Unlock()
	out, err := s.changeWebhooks(ctx, changes, func(txn *badger.Txn) error {
		return txn.Set(metaWebhookSecretKey, []byte(secret))
	})
	if err != nil {
		return nil, fmt.Errorf("importing %d webhooks: %w", len(hooks), err)
	}
	return out, nil
}
