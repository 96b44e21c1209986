package store

import (
	"bytes"
	"context"

	"github.com/dgraph-io/badger/v4"
)

// rangeIter walks one bounded key range, [lo, hi) under prefix, ascending
// or descending: a Badger iterator that starts at the range's first key in
// its direction and is valid until it leaves the range. scanRange walks
// one; mergeRanges merges several into one listing.
type rangeIter struct {
	it     *badger.Iterator
	prefix []byte
	lo, hi []byte // hi nil: no upper bound
	desc   bool
}

func newRangeIter(txn *badger.Txn, prefix, lo, hi []byte, desc bool) rangeIter {
	r := rangeIter{prefix: prefix, lo: lo, hi: hi, desc: desc,
		it: txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: desc})}
	if !desc {
		r.it.Seek(lo)
		return r
	}
	seek := hi
	if seek == nil {
		seek = pastPrefix(prefix)
	}
	r.it.Seek(seek)
	if r.it.ValidForPrefix(prefix) && bytes.Equal(r.it.Item().Key(), seek) {
		r.it.Next() // a reverse Seek lands on hi itself when it exists; hi is exclusive
	}
	return r
}

// pastPrefix is a key after every key under prefix, where a reverse Seek
// starts at the prefix's last key: no key is longer than maxKeyLen.
func pastPrefix(prefix []byte) []byte {
	k := make([]byte, max(maxKeyLen+1, len(prefix)+1))
	for i := copy(k, prefix); i < len(k); i++ {
		k[i] = 0xFF
	}
	return k
}

func (r *rangeIter) valid() bool {
	if !r.it.ValidForPrefix(r.prefix) {
		return false
	}
	k := r.it.Item().Key()
	if r.desc {
		return bytes.Compare(k, r.lo) >= 0
	}
	return r.hi == nil || bytes.Compare(k, r.hi) < 0
}

// item is the row the iterator is at, valid until next.
func (r *rangeIter) item() *badger.Item { return r.it.Item() }

// suffix is the current key after the prefix, valid until next.
func (r *rangeIter) suffix() []byte { return r.it.Item().Key()[len(r.prefix):] }

func (r *rangeIter) next()  { r.it.Next() }
func (r *rangeIter) close() { r.it.Close() }

// scanRange visits the keys in [lo, hi) under prefix ascending, or
// descending when desc, until visit returns false. hi nil means no upper
// bound. The context is checked as the scan goes, so a request that ends
// stops it.
func scanRange(ctx context.Context, txn *badger.Txn, prefix, lo, hi []byte, desc bool,
	visit func(item *badger.Item) (bool, error),
) error {
	r := newRangeIter(txn, prefix, lo, hi, desc)
	defer r.close()
	for n := 1; r.valid(); n++ {
		if err := checkEvery256(ctx, n); err != nil {
			return err
		}
		if more, err := visit(r.item()); err != nil || !more {
			return err
		}
		r.next()
	}
	return ctx.Err()
}

// checkEvery256 returns ctx's error at every 256th row a scan visits: often
// enough that an ended request stops a long scan, rarely enough to cost
// nothing.
func checkEvery256(ctx context.Context, n int) error {
	if n%256 == 0 {
		return ctx.Err()
	}
	return nil
}
