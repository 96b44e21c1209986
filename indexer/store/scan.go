package store

import (
	"bytes"
	"context"
	"fmt"
	"slices"

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
	// list walks the position list the iterator is at, in a range of
	// position lists (newListIter).
	list listCursor
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

// newListIter is newRangeIter over a range whose rows are position lists
// or rows of one position each (positionlist.go), with rests of width
// bytes: it visits positions, resuming after position after (height |
// rest; nil: from the range's start). Its suffix is the position.
func newListIter(txn *badger.Txn, prefix, lo, hi []byte, desc bool, width int, after []byte) rangeIter {
	if after != nil {
		if desc {
			hi = minKey(hi, slices.Concat(prefix, after)) // the list row of after's block sorts before it
		} else {
			lo = maxKey(lo, slices.Concat(prefix, after[:8])) // from after's block's list row: past is checked
		}
	}
	r := newRangeIter(txn, prefix, lo, hi, desc)
	r.list = listCursor{width: width, after: after}
	r.settle()
	return r
}

// settle moves a list iterator from the row it is at to the first
// position past after: into a list row, or onto a one-position row.
func (r *rangeIter) settle() {
	if r.list.width == 0 {
		return
	}
	for r.inRange() {
		item := r.it.Item()
		suffix := item.Key()[len(r.prefix):]
		if len(suffix) == 8 { // a list row: height only
			entered := false
			if err := item.Value(func(v []byte) error {
				entered = r.list.load(suffix, v, r.desc)
				return nil
			}); err != nil {
				r.list.err = fmt.Errorf("reading a position list: %w", err)
			}
			if entered || r.list.err != nil {
				return
			}
		} else if r.list.past(suffix, r.desc) {
			return
		}
		r.it.Next()
	}
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
	if r.list.err != nil {
		return false
	}
	return r.list.active || r.inRange()
}

// inRange reports whether the Badger iterator is at a key of the range.
func (r *rangeIter) inRange() bool {
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

// suffix is the current key after the prefix (in a list iterator, the
// current position), valid until next.
func (r *rangeIter) suffix() []byte {
	if r.list.active {
		return r.list.pos
	}
	return r.it.Item().Key()[len(r.prefix):]
}

func (r *rangeIter) next() {
	if r.list.active && r.list.step(r.desc) {
		return
	}
	r.it.Next()
	r.settle()
}

// err is what stopped the iterator early: a list row it could not read.
func (r *rangeIter) err() error { return r.list.err }

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

// scanPositions walks list iterator r (newListIter), handing visit each
// position, until visit returns false; r is closed.
func scanPositions(ctx context.Context, r rangeIter, visit func(pos []byte) (bool, error)) error {
	defer r.close()
	for n := 1; r.valid(); n++ {
		if err := checkEvery256(ctx, n); err != nil {
			return err
		}
		if more, err := visit(r.suffix()); err != nil || !more {
			return err
		}
		r.next()
	}
	if err := r.err(); err != nil {
		return err
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
