package store

import (
	"bytes"
	"context"
	"encoding/binary"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// posCursor walks one key range whose keys end in height(8) | index(4) (a
// chain's tx order, or one address's txs) within a query's bounds, ascending
// or descending. Several of them merge into one listing (mergeTxPositions).
type posCursor struct {
	it     *badger.Iterator
	prefix []byte
	lo, hi []byte // [lo, hi); hi nil: no upper bound
	desc   bool
}

func newPosCursor(txn *badger.Txn, prefix key, q *pdata.TxQuery) *posCursor {
	lo := prefix.u64(q.FromHeight)
	var hi []byte
	if q.ToHeight != 0 {
		hi = prefix.u64(q.ToHeight)
	}
	if q.After != nil {
		at := prefix.u64(q.After.Height).u32(q.After.Index)
		if q.Desc {
			hi = minKey(hi, at)
		} else {
			lo = maxKey(lo, successor(at))
		}
	}
	c := &posCursor{prefix: prefix, lo: lo, hi: hi, desc: q.Desc,
		it: txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: q.Desc})}
	if !q.Desc {
		c.it.Seek(lo)
		return c
	}
	seek := hi
	if seek == nil {
		seek = append(prefix.u64(^uint64(0)), 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
	}
	c.it.Seek(seek)
	if c.it.ValidForPrefix(prefix) && bytes.Equal(c.it.Item().Key(), seek) {
		c.it.Next() // a reverse Seek lands on hi itself when it exists; hi is exclusive
	}
	return c
}

func (c *posCursor) valid() bool {
	if !c.it.ValidForPrefix(c.prefix) {
		return false
	}
	k := c.it.Item().Key()
	if c.desc {
		return bytes.Compare(k, c.lo) >= 0
	}
	return c.hi == nil || bytes.Compare(k, c.hi) < 0
}

func (c *posCursor) pos() pdata.TxPos {
	suffix := c.it.Item().Key()[len(c.prefix):]
	return pdata.TxPos{Height: binary.BigEndian.Uint64(suffix), Index: binary.BigEndian.Uint32(suffix[8:])}
}

func (c *posCursor) close() { c.it.Close() }

// before reports whether a comes before b in the listing's order.
func before(a, b pdata.TxPos, desc bool) bool {
	if desc {
		a, b = b, a
	}
	return a.Height < b.Height || a.Height == b.Height && a.Index < b.Index
}

// mergeTxPositions is a k-way merge of cursors over tx positions: it visits
// every position once (a tx that involves several of the addresses appears
// under each), in order, with the tx ID the row holds, until visit returns
// false. The cursors are closed.
func mergeTxPositions(ctx context.Context, cursors []*posCursor,
	visit func(pos pdata.TxPos, txID []byte) (bool, error),
) error {
	defer func() {
		for _, c := range cursors {
			c.close()
		}
	}()
	for n := 0; ; n++ {
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		best := -1
		var pos pdata.TxPos
		for i, c := range cursors {
			if !c.valid() {
				continue
			}
			if p := c.pos(); best < 0 || before(p, pos, c.desc) {
				best, pos = i, p
			}
		}
		if best < 0 {
			return ctx.Err()
		}
		txID, err := cursors[best].it.Item().ValueCopy(nil)
		if err != nil {
			return err
		}
		for _, c := range cursors {
			if c.valid() && c.pos() == pos {
				c.it.Next()
			}
		}
		if more, err := visit(pos, txID); err != nil || !more {
			return err
		}
	}
}
