package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Work queues: the EVM writer queues contracts and tokens whose on-chain
// metadata a background reader fetches (keys.go 0x8F, 0x91); the reader takes
// a batch, stores what it read and removes the entry in one transaction.

// readQueue reads up to limit entries of a queue keyspace, each turned into
// a T by entryOf (given the key after tag|chain, and the value).
func readQueue[T any](ctx context.Context, s *Store, chain netinfo.Chain, tag byte, limit int, what string,
	entryOf func(txn *badger.Txn, suffix, value []byte) (T, error),
) ([]T, error) {
	var out []T
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tag, chain)
		return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			v, err := item.ValueCopy(nil)
			if err != nil {
				return false, err
			}
			entry, err := entryOf(txn, item.Key()[len(prefix):], v)
			if err != nil {
				return false, err
			}
			out = append(out, entry)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s %s to describe: %w", chain, what, err)
	}
	return out, nil
}

// completeQueued stores a result row and removes its queue entry together.
func (s *Store) completeQueued(ctx context.Context, k, v, queued []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(k, v); err != nil {
			return err
		}
		return txn.Delete(queued)
	})
}
