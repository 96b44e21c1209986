package store

import "github.com/avadata/avadata/indexer/webhookdata"

// WebhookWatches returns the snapshot of the active webhooks the writers
// match blocks against. Every change of a webhook record publishes a new
// one, so the delivery runner learns of webhooks created, changed or made
// inactive by comparing pointers, and reads a webhook's URL without
// decoding its record (which may list thousands of addresses) for every
// delivery. Nil before LoadWebhooks.
func (s *Store) WebhookWatches() *webhookdata.Watches { return s.hooks.watches.Load() }
