package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// A webhook's failure clock (keys.go 0xB4): when its current run of failed
// deliveries began. The delivery runner makes a webhook inactive once the
// run is older than the maximum age; kept here rather than in the runner's
// memory, the count goes on across restarts of the node, so a receiver that
// stays down is made inactive even when the node restarts more often than
// the maximum age. It is a row of its own, not part of the record: a
// record's write rebuilds every watch set, this row is written only when a
// run of failures begins and deleted when it ends (a delivery succeeded, or
// the webhook's status or URL changed: changeWebhook).

func webhookFailureKey(id webhookdata.ID) []byte { return key{tagHookFail}.bytes(id[:]) }

// WebhookFailingSince returns when webhook id's current run of failed
// deliveries began; false when there is none.
func (s *Store) WebhookFailingSince(ctx context.Context, id webhookdata.ID) (time.Time, bool, error) {
	var v []byte
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		v, err = getValue(txn, webhookFailureKey(id))
		return err
	})
	if err == nil && v != nil && len(v) != 8 {
		err = fmt.Errorf("the value has %d bytes, not 8", len(v))
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("reading when webhook %s's deliveries began failing: %w", id, err)
	}
	if v == nil {
		return time.Time{}, false, nil
	}
	return time.UnixMilli(int64(binary.BigEndian.Uint64(v))), true, nil
}

// SetWebhookFailingSince records that webhook id's deliveries fail since
// since (to the millisecond).
func (s *Store) SetWebhookFailingSince(ctx context.Context, id webhookdata.ID, since time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	v := binary.BigEndian.AppendUint64(nil, uint64(since.UnixMilli()))
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(webhookFailureKey(id), v) }); err != nil {
		return fmt.Errorf("recording when webhook %s's deliveries began failing: %w", id, err)
	}
	return nil
}

// ClearWebhookFailingSince ends webhook id's run of failed deliveries.
func (s *Store) ClearWebhookFailingSince(ctx context.Context, id webhookdata.ID) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Delete(webhookFailureKey(id)) }); err != nil {
		return fmt.Errorf("ending webhook %s's run of failed deliveries: %w", id, err)
	}
	return nil
}
