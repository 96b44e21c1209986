package store

import (
	"context"

	"github.com/dgraph-io/badger/v4"
)

// keyOrder says where a listing is in its key ranges: the position P a key
// ends in (read from the key after its range's prefix) and the ascending
// order of positions. Every range of one listing ends its keys in the same
// kind of position.
type keyOrder[P comparable] struct {
	at      func(suffix []byte) P
	compare func(a, b P) int
}

// before reports whether a comes before b in a listing that runs
// descending when desc.
func (o keyOrder[P]) before(a, b P, desc bool) bool {
	if desc {
		return o.compare(b, a) < 0
	}
	return o.compare(a, b) < 0
}

// mergeRanges is a k-way merge of ranges that run in one direction: it
// visits every position once, in order, even one that several ranges hold
// (a tx of several of a listing's addresses), with the row of the first
// range that holds it (of a list iterator, the whole list row: newListIter),
// until visit returns false. The item is valid during visit only. The
// ranges are closed.
func mergeRanges[P comparable](ctx context.Context, ranges []rangeIter, order keyOrder[P],
	visit func(pos P, item *badger.Item) (bool, error),
) error {
	defer func() {
		for i := range ranges {
			ranges[i].close()
		}
	}()
	for n := 1; ; n++ {
		if err := checkEvery256(ctx, n); err != nil {
			return err
		}
		best := -1
		var pos P
		for i := range ranges {
			r := &ranges[i]
			if !r.valid() {
				if err := r.err(); err != nil { // a list row it could not read
					return err
				}
				continue
			}
			if p := order.at(r.suffix()); best < 0 || order.before(p, pos, r.desc) {
				best, pos = i, p
			}
		}
		if best < 0 {
			return ctx.Err()
		}
		if more, err := visit(pos, ranges[best].item()); err != nil || !more {
			return err
		}
		for i := range ranges {
			if r := &ranges[i]; r.valid() && order.at(r.suffix()) == pos {
				r.next()
			}
		}
	}
}
