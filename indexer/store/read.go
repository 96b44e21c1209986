package store

import (
	"context"
	"errors"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"
)

// The helpers every read of the index shares: a read transaction bound to
// a request's context, a point read, and the arithmetic of key bounds that
// turns a query's bounds and page position into a key range.

// read runs fn in a Badger read transaction unless ctx has already ended.
func (s *Store) read(ctx context.Context, fn func(txn *badger.Txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}

// getValue returns a copy of k's value, or nil when k is absent.
func getValue(txn *badger.Txn, k []byte) ([]byte, error) {
	item, err := txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return item.ValueCopy(nil)
}

// itemID reads a row whose value is an ID: a tx-order row's tx, a reward
// row's staking tx.
func itemID(item *badger.Item) (id ids.ID, err error) {
	err = item.Value(func(v []byte) error {
		id, err = ids.ToID(v)
		return err
	})
	return id, err
}

// minKey is the tighter of two exclusive upper bounds; a nil a is no bound.
func minKey(a, b []byte) []byte {
	if a == nil || string(b) < string(a) {
		return b
	}
	return a
}

// maxKey is the tighter of two inclusive lower bounds.
func maxKey(a, b []byte) []byte {
	if string(b) > string(a) {
		return b
	}
	return a
}

// successor returns the key right after k in a keyspace of fixed-width keys
// (k with a zero byte appended): a listing resumes after a page's last key
// from it.
func successor(k []byte) []byte { return append(append([]byte(nil), k...), 0) }
