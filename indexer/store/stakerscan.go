package store

import (
	"bytes"
	"context"
	"encoding/binary"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"
)

// seqPos is a place in a staker or reward listing: the key's u64 (a
// staker's start, a reward's time), then its ID (staking tx, reward UTXO).
type seqPos struct {
	n  uint64
	id ids.ID
}

// seqAt reads the position that ends a key whose prefix is n bytes long.
func seqAt(k []byte, n int) seqPos {
	var p seqPos
	p.n = binary.BigEndian.Uint64(k[n:])
	copy(p.id[:], k[n+8:])
	return p
}

func (p seqPos) before(q seqPos, desc bool) bool {
	if desc {
		p, q = q, p
	}
	return p.n < q.n || p.n == q.n && bytes.Compare(p.id[:], q.id[:]) < 0
}

// seqCursor walks one index range whose keys end in a seqPos (one node's,
// one address's or every staker of a kind; one address's or one node's
// rewards), after a listing's position, ascending or descending. Several
// merge into one listing (mergeSeq).
type seqCursor struct {
	it     *badger.Iterator
	prefix []byte
	lo, hi []byte // [lo, hi); hi nil: no upper bound
	desc   bool
}

func newSeqCursor(txn *badger.Txn, prefix key, after *seqPos, desc bool) *seqCursor {
	lo := []byte(prefix)
	var hi []byte
	if after != nil {
		at := append(append([]byte(nil), prefix...), make([]byte, 8+ids.IDLen)...)
		binary.BigEndian.PutUint64(at[len(prefix):], after.n)
		copy(at[len(prefix)+8:], after.id[:])
		if desc {
			hi = at
		} else {
			lo = successor(at)
		}
	}
	c := &seqCursor{prefix: prefix, lo: lo, hi: hi, desc: desc,
		it: txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: desc})}
	if !desc {
		c.it.Seek(lo)
		return c
	}
	seek := hi
	if seek == nil {
		seek = seekLast(prefix)
	}
	c.it.Seek(seek)
	if c.it.ValidForPrefix(prefix) && bytes.Equal(c.it.Item().Key(), seek) {
		c.it.Next() // a reverse Seek lands on hi itself when it exists; hi is exclusive
	}
	return c
}

// seekLast is a key past every position under prefix (a reverse Seek from
// it starts at the prefix's last key).
func seekLast(prefix []byte) []byte {
	return append(append([]byte(nil), prefix...), bytes.Repeat([]byte{0xFF}, 8+ids.IDLen+1)...)
}

func (c *seqCursor) valid() bool {
	if !c.it.ValidForPrefix(c.prefix) {
		return false
	}
	k := c.it.Item().Key()
	if c.desc {
		return bytes.Compare(k, c.lo) >= 0
	}
	return c.hi == nil || bytes.Compare(k, c.hi) < 0
}

func (c *seqCursor) pos() seqPos { return seqAt(c.it.Item().Key(), len(c.prefix)) }

// mergeSeq is a k-way merge of cursors: it visits every position once (a
// staker or reward under several of the addresses or nodes appears under
// each), in order, with the value of its row, until visit returns false.
// The cursors are closed.
func mergeSeq(ctx context.Context, cursors []*seqCursor, visit func(pos seqPos, value []byte) (bool, error)) error {
	defer func() {
		for _, c := range cursors {
			c.it.Close()
		}
	}()
	for n := 0; ; n++ {
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		best := -1
		var pos seqPos
		for i, c := range cursors {
			if !c.valid() {
				continue
			}
			if p := c.pos(); best < 0 || p.before(pos, c.desc) {
				best, pos = i, p
			}
		}
		if best < 0 {
			return ctx.Err()
		}
		value, err := cursors[best].it.Item().ValueCopy(nil)
		if err != nil {
			return err
		}
		for _, c := range cursors {
			if c.valid() && c.pos() == pos {
				c.it.Next()
			}
		}
		if more, err := visit(pos, value); err != nil || !more {
			return err
		}
	}
}
