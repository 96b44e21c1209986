package store

import (
	"bytes"
	"context"

	"github.com/dgraph-io/badger/v4"
)

// scanRange visits the keys in [lo, hi) ascending, or descending when desc,
// until visit returns false. hi nil means no upper bound. Keys within one
// keyspace are fixed-width, so appending a zero byte to a key gives its
// immediate successor: callers use that to resume after a page's last key.
// The context is checked as the scan goes, so a request that ends stops it.
func scanRange(ctx context.Context, txn *badger.Txn, prefix, lo, hi []byte, desc bool,
	visit func(item *badger.Item) (bool, error),
) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: desc, PrefetchValues: false})
	defer it.Close()
	if desc {
		seek := hi
		if seek == nil {
			seek = append(append([]byte(nil), prefix...), 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
		}
		it.Seek(seek)
	} else {
		it.Seek(lo)
	}
	for n := 0; it.ValidForPrefix(prefix); it.Next() {
		k := it.Item().Key()
		if hi != nil && bytes.Compare(k, hi) >= 0 {
			if desc {
				continue // Seek in reverse lands on hi itself when it exists
			}
			return nil
		}
		if bytes.Compare(k, lo) < 0 {
			if desc {
				return nil
			}
			continue
		}
		if n++; n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		more, err := visit(it.Item())
		if err != nil || !more {
			return err
		}
	}
	return ctx.Err()
}
