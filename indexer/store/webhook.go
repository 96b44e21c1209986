package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// Webhooks (keys.go 0xB2, 0xB3 and the meta row "whsecret"): the node's
// webhook records, the shared secret their deliveries are signed with, and
// the durable outbox. A chain's writer puts the events a block gives into
// the outbox in the block's own commit (webhookevent.go), so an event exists
// exactly when its block is indexed; the delivery runner sends each
// webhook's outbox in key order (its chain's order) and deletes what the
// receiver took. Writers match blocks against an in-memory snapshot of the
// records (webhookdata.Watches), never the records themselves: a record's
// change would otherwise make every concurrent block commit conflict.
//
// The records are few and change shape as webhooks grow, so a record is
// JSON with a version, like an export job's.

// webhookVersion is the record's format.
const webhookVersion = 1

// webhookRow is a record as stored.
type webhookRow struct {
	Version int `json:"v"`
	webhookdata.Webhook
}

func webhookKey(id webhookdata.ID) []byte { return key{tagHook}.bytes(id[:]) }

func outboxPrefix(id webhookdata.ID) key { return key{tagHookOut}.bytes(id[:]) }

func outboxKey(id webhookdata.ID, height uint64, seq uint32) []byte {
	return outboxPrefix(id).u64(height).u32(seq)
}

// outboxKeyLen is the length of an outbox row's key.
const outboxKeyLen = 1 + webhookdata.IDLen + 8 + 4

func encodeWebhook(h webhookdata.Webhook) ([]byte, error) {
	return json.Marshal(webhookRow{Version: webhookVersion, Webhook: h})
}

func decodeWebhook(id webhookdata.ID, v []byte) (webhookdata.Webhook, error) {
	var row webhookRow
	if err := json.Unmarshal(v, &row); err != nil {
		return webhookdata.Webhook{}, fmt.Errorf("decoding webhook record %s: %w", id, err)
	}
	if row.Version != webhookVersion {
		return webhookdata.Webhook{}, fmt.Errorf("webhook record %s has version %d, this avadata reads %d", id, row.Version, webhookVersion)
	}
	row.ID = id
	return row.Webhook, nil
}

func readWebhook(txn *badger.Txn, id webhookdata.ID) (webhookdata.Webhook, bool, error) {
	v, err := getValue(txn, webhookKey(id))
	if err != nil || v == nil {
		return webhookdata.Webhook{}, false, err
	}
	h, err := decodeWebhook(id, v)
	return h, err == nil, err
}

func writeWebhook(txn *badger.Txn, h webhookdata.Webhook) error {
	v, err := encodeWebhook(h)
	if err != nil {
		return fmt.Errorf("encoding webhook record %s: %w", h.ID, err)
	}
	return txn.Set(webhookKey(h.ID), v)
}

// webhookState is the store's in-memory side of the webhooks: the watch
// sets the writers read and who to wake when a commit adds events.
type webhookState struct {
	// mu serialises every write of a webhook record (changeWebhook) and
	// the loads of the records. It is taken before a chain's commit lock,
	// never while one is held.
	mu sync.Mutex
	// records are the stored webhook records, decoded, by ID; nil until
	// loaded (LoadWebhooks, or the first change). changeWebhook is the only
	// writer of records, so between changes they are what the store holds,
	// and a change need not decode every record again (each may list
	// thousands of addresses). A record here is replaced, never changed in
	// place: the published watch sets share its slices. Guarded by mu.
	records map[webhookdata.ID]webhookdata.Webhook
	// secretMu serialises the writes of the shared secret: concurrent
	// first draws would otherwise conflict (and one caller fail).
	secretMu sync.Mutex
	watches  atomic.Pointer[webhookdata.Watches]
	notify   atomic.Pointer[func(netinfo.Chain)]
}

// Webhook reads a webhook's record; false when the store has none.
func (s *Store) Webhook(ctx context.Context, id webhookdata.ID) (webhookdata.Webhook, bool, error) {
	var (
		h     webhookdata.Webhook
		found bool
	)
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		h, found, err = readWebhook(txn, id)
		return err
	})
	if err != nil {
		return webhookdata.Webhook{}, false, fmt.Errorf("reading webhook %s: %w", id, err)
	}
	return h, found, nil
}

// Webhooks lists every webhook's record, by ID.
func (s *Store) Webhooks(ctx context.Context) ([]webhookdata.Webhook, error) {
	var out []webhookdata.Webhook
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		out, err = readWebhooks(ctx, txn)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing webhooks: %w", err)
	}
	return out, nil
}

func readWebhooks(ctx context.Context, txn *badger.Txn) ([]webhookdata.Webhook, error) {
	var out []webhookdata.Webhook
	prefix := key{tagHook}
	err := scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
		var id webhookdata.ID
		if len(item.Key()) != 1+webhookdata.IDLen {
			return false, fmt.Errorf("webhook key %x has the wrong length", item.Key())
		}
		copy(id[:], item.Key()[1:])
		v, err := item.ValueCopy(nil)
		if err != nil {
			return false, err
		}
		h, err := decodeWebhook(id, v)
		if err != nil {
			return false, err
		}
		out = append(out, h)
		return true, nil
	})
	return out, err
}

// ErrWebhookNotFound is an update of a webhook the store does not hold.
var ErrWebhookNotFound = errors.New("no such webhook")

// CreateWebhook stores a new webhook. Its events begin at the later of
// h.FromHeight (the caller's bound, e.g. the node's next block) and the
// next block its chain's writer will write: the chain's commits are held
// while the record and the watch sets change, so the first block that
// gives the webhook events is exactly its FromHeight.
func (s *Store) CreateWebhook(ctx context.Context, h webhookdata.Webhook) (webhookdata.Webhook, error) {
	return s.changeWebhook(ctx, h.ID, h.Chain, func(_ webhookdata.Webhook, found bool, next uint64) (webhookdata.Webhook, error) {
		if found {
			return webhookdata.Webhook{}, fmt.Errorf("webhook %s exists already", h.ID)
		}
		if h.Status == webhookdata.Active {
			h.FromHeight = max(h.FromHeight, next)
		}
		return h, nil
	})
}

// UpdateWebhook changes a stored webhook through change, which gets the
// record and returns the new one (ErrWebhookNotFound when there is none).
// A webhook that becomes active again begins its events at the later of
// fromHeight and its chain's next block, like a new one: the blocks of the
// time it was inactive give it nothing.
func (s *Store) UpdateWebhook(ctx context.Context, id webhookdata.ID, chain netinfo.Chain, fromHeight uint64,
	change func(h webhookdata.Webhook) (webhookdata.Webhook, error),
) (webhookdata.Webhook, error) {
	return s.changeWebhook(ctx, id, chain, func(h webhookdata.Webhook, found bool, next uint64) (webhookdata.Webhook, error) {
		if !found {
			return webhookdata.Webhook{}, ErrWebhookNotFound
		}
		wasActive := h.Status == webhookdata.Active
		changed, err := change(h)
		if err != nil {
			return webhookdata.Webhook{}, err
		}
		changed.ID, changed.Chain = h.ID, h.Chain
		if !wasActive && changed.Status == webhookdata.Active {
			changed.FromHeight = max(fromHeight, next)
		}
		return changed, nil
	})
}

// webhookRecords returns the decoded records, reading them the first
// time. The caller holds s.hooks.mu.
func (s *Store) webhookRecords(ctx context.Context) (map[webhookdata.ID]webhookdata.Webhook, error) {
	if s.hooks.records != nil {
		return s.hooks.records, nil
	}
	all, err := s.Webhooks(ctx)
	if err != nil {
		return nil, err
	}
	records := make(map[webhookdata.ID]webhookdata.Webhook, len(all))
	for _, h := range all {
		records[h.ID] = h
	}
	s.hooks.records = records
	return records, nil
}

// cloneWebhook copies h's lists, so a change of the copy leaves h as it is.
func cloneWebhook(h webhookdata.Webhook) webhookdata.Webhook {
	m := &h.Metadata
	for _, list := range []*[]string{&m.EventSignatures, &m.Addresses, &m.Keys, &m.AddressActivitySubEvents,
		&m.ValidatorActivitySubEvents, &m.NodeIDs, &m.SubnetIDs} {
		*list = slices.Clone(*list)
	}
	if m.BalanceThresholdFilter != nil {
		f := *m.BalanceThresholdFilter
		m.BalanceThresholdFilter = &f
	}
	return h
}

// LoadWebhooks reads the stored webhooks and publishes their watch sets;
// the writers match nothing until it has run (vm: before the followers
// start).
func (s *Store) LoadWebhooks(ctx context.Context) error {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.records = nil
	records, err := s.webhookRecords(ctx)
	if err != nil {
		return err
	}
	all := make([]webhookdata.Webhook, 0, len(records))
	for _, h := range records {
		all = append(all, h)
	}
	watches, err := webhookdata.NewWatches(all)
	if err != nil {
		return fmt.Errorf("watching the stored webhooks: %w", err)
	}
	s.hooks.watches.Store(watches)
	return nil
}

// SetWebhookNotifier makes every commit that puts events into the outbox
// call fn with the chain, after the commit (the delivery runner's wake-up).
// fn must not block.
func (s *Store) SetWebhookNotifier(fn func(chain netinfo.Chain)) { s.hooks.notify.Store(&fn) }

func (s *Store) notifyWebhooks(chain netinfo.Chain) {
	if fn := s.hooks.notify.Load(); fn != nil {
		(*fn)(chain)
	}
}

// webhookSecretLen is the shared secret's length in random bytes; it is
// kept and served as their hex string, whose bytes key the signatures.
const webhookSecretLen = 32

// WebhookSecret returns the shared secret deliveries are signed with,
// drawing one from a cryptographic source the first time.
func (s *Store) WebhookSecret(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	var secret string
	err := s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, metaWebhookSecretKey)
		secret = string(v)
		return err
	})
	if err != nil || secret != "" {
		if err != nil {
			err = fmt.Errorf("loading the webhook secret: %w", err)
		}
		return secret, err
	}
	s.hooks.secretMu.Lock()
	defer s.hooks.secretMu.Unlock()
	err = s.db.Update(func(txn *badger.Txn) error {
		v, err := getValue(txn, metaWebhookSecretKey)
		if err != nil || v != nil {
			secret = string(v)
			return err
		}
		if secret, err = newWebhookSecret(); err != nil {
			return err
		}
		return txn.Set(metaWebhookSecretKey, []byte(secret))
	})
	if err != nil {
		return "", fmt.Errorf("loading the webhook secret: %w", err)
	}
	return secret, nil
}

// RotateWebhookSecret replaces the shared secret with a new random one and
// returns it; the next delivery is signed with it.
func (s *Store) RotateWebhookSecret(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	secret, err := newWebhookSecret()
	if err != nil {
		return "", err
	}
	s.hooks.secretMu.Lock()
	defer s.hooks.secretMu.Unlock()
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set(metaWebhookSecretKey, []byte(secret)) }); err != nil {
		return "", fmt.Errorf("rotating the webhook secret: %w", err)
	}
	return secret, nil
}

func newWebhookSecret() (string, error) {
	b := make([]byte, webhookSecretLen)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("drawing a webhook secret: %w", err)
	}
	return hex.EncodeToString(b), nil
}
