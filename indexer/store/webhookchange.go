package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// webhookChange is one record a change of webhooks writes: change gets the
// stored record (found false: none), the next height of its chain's block
// stream, and returns the record to store.
type webhookChange struct {
	id     webhookdata.ID
	chain  netinfo.Chain
	change func(h webhookdata.Webhook, found bool, next uint64) (webhookdata.Webhook, error)
}

// changeWebhook writes one record (changeWebhooks).
func (s *Store) changeWebhook(ctx context.Context, id webhookdata.ID, chain netinfo.Chain,
	change func(h webhookdata.Webhook, found bool, next uint64) (webhookdata.Webhook, error),
) (webhookdata.Webhook, error) {
	out, err := s.changeWebhooks(ctx, []webhookChange{{id: id, chain: chain, change: change}}, nil)
	if err != nil {
		return webhookdata.Webhook{}, fmt.Errorf("writing webhook %s: %w", id, err)
	}
	return out[0], nil
}

// changeWebhooks writes records, and whatever also writes, in one
// transaction, and publishes the new watch sets while it holds the commit
// locks of the records' chains, so each chain's first block after the
// change is matched against them. Commits wait for those locks, so
// everything that does not depend on a chain's cursor is done before
// taking them: the watch sets of every other webhook are built into a
// Watches only this call holds (the records cannot change meanwhile:
// s.hooks.mu is held). The locks then cover reading the cursors, the
// records' writes and parsing the changed webhooks' keys. Lock order:
// s.hooks.mu, then the chain locks by chain number.
func (s *Store) changeWebhooks(ctx context.Context, changes []webhookChange, also func(txn *badger.Txn) error,
) ([]webhookdata.Webhook, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	records, err := s.webhookRecords(ctx)
	if err != nil {
		return nil, err
	}
	changing := make(map[webhookdata.ID]bool, len(changes))
	var chains []netinfo.Chain
	for _, c := range changes {
		if changing[c.id] {
			return nil, fmt.Errorf("webhook %s is changed twice at once", c.id)
		}
		changing[c.id] = true
		if h, found := records[c.id]; found && h.Chain != c.chain {
			return nil, fmt.Errorf("webhook %s watches chain %s, not %s", c.id, h.Chain, c.chain)
		}
		if !slices.Contains(chains, c.chain) {
			chains = append(chains, c.chain)
		}
	}
	others := make([]webhookdata.Webhook, 0, len(records))
	for id, r := range records {
		if !changing[id] {
			others = append(others, r)
		}
	}
	watches, err := webhookdata.NewWatches(others)
	if err != nil {
		return nil, fmt.Errorf("watching the webhooks besides those changed: %w", err)
	}

	slices.Sort(chains)
	for _, chain := range chains {
		defer s.chainLocks.lock(chain)()
	}
	outs := make([]webhookdata.Webhook, 0, len(changes))
	err = s.db.Update(func(txn *badger.Txn) error {
		next := make(map[netinfo.Chain]uint64, len(chains))
		for _, chain := range chains {
			cursor, err := readCursor(txn, chain, StreamBlocks)
			if err != nil {
				return err
			}
			next[chain] = cursor.NextHeight
		}
		for _, c := range changes {
			out, err := writeWebhookChange(txn, watches, records, c, next[c.chain])
			if err != nil {
				if len(changes) > 1 {
					err = fmt.Errorf("webhook %s: %w", c.id, err)
				}
				return err
			}
			outs = append(outs, out)
		}
		if also != nil {
			return also(txn)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, out := range outs {
		records[out.ID] = out
	}
	s.hooks.watches.Store(watches)
	return outs, nil
}

// writeWebhookChange writes one change's record in txn and adds it to the
// unpublished watches.
func writeWebhookChange(txn *badger.Txn, watches *webhookdata.Watches, records map[webhookdata.ID]webhookdata.Webhook,
	c webhookChange, next uint64,
) (webhookdata.Webhook, error) {
	h, found := records[c.id]
	out, err := c.change(cloneWebhook(h), found, next) // change may edit what it gets; the stored record stays as it is
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	out.ID, out.Chain = c.id, c.chain
	// Parsed before the write commits: a record the writers cannot watch
	// is refused, not stored.
	watched := out
	if err := watches.Add(&watched); err != nil {
		return webhookdata.Webhook{}, fmt.Errorf("watching it: %w", err)
	}
	if found && (h.Status != out.Status || h.URL != out.URL) {
		// Made inactive, active again or sent elsewhere: the failures
		// counted so far were of another state of the webhook
		// (webhookfailure.go).
		if err := txn.Delete(webhookFailureKey(c.id)); err != nil {
			return webhookdata.Webhook{}, err
		}
	}
	return out, writeWebhook(txn, out)
}
