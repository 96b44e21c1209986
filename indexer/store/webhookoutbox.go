package store

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// OutboxEntry is one event waiting in a webhook's outbox: its place in the
// chain (the block's height, the event's sequence number within the block
// for this webhook) and the body to send, exactly as stored.
type OutboxEntry struct {
	Height uint64
	Seq    uint32
	Body   []byte
}

// Outbox returns up to limit of the oldest events waiting for webhook id,
// in chain order.
func (s *Store) Outbox(ctx context.Context, id webhookdata.ID, limit int) ([]OutboxEntry, error) {
	var out []OutboxEntry
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := outboxPrefix(id)
		return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			k := item.Key()
			if len(k) != outboxKeyLen {
				return false, fmt.Errorf("webhook outbox key %x has the wrong length", k)
			}
			body, err := item.ValueCopy(nil)
			if err != nil {
				return false, err
			}
			rest := k[1+webhookdata.IDLen:]
			out = append(out, OutboxEntry{Height: binary.BigEndian.Uint64(rest), Seq: binary.BigEndian.Uint32(rest[8:]), Body: body})
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading webhook %s's outbox: %w", id, err)
	}
	return out, nil
}

// AckOutbox removes delivered events from webhook id's outbox. The writers
// only ever add outbox rows and never read them, so this never conflicts
// with a block's commit.
func (s *Store) AckOutbox(ctx context.Context, id webhookdata.ID, delivered []OutboxEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, e := range delivered {
		if err := wb.Delete(outboxKey(id, e.Height, e.Seq)); err != nil {
			return fmt.Errorf("removing delivered events of webhook %s: %w", id, err)
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("removing delivered events of webhook %s: %w", id, err)
	}
	return nil
}
