package store

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Position lists: the index rows that name one position each under an
// address or a token (0x82, 0x83, 0x95) are written as one row per block,
// prefix | height(8), whose value lists the block's positions under the
// prefix: each the rest of the position after the height (a tx index, a
// log | batch, a tx index | frame), fixed-width, ascending. A busy chain's
// block names its hot contracts and senders in most of its txs, and
// Badger's cost is per entry: one row per (prefix, block) instead of one
// per position. An index written before has a row per position
// (prefix | height | rest, empty value); a block is written whole by one
// writer, so a block's positions under a prefix are all of one form, and
// the readers (rangeIter with a list width) take both.

// positionLists gathers the position lists of the block being written,
// written at its end (flush).
type positionLists struct {
	index map[string]int
	lists []positionList
	// scratch is where the next list key is built (listKey): a lookup of
	// a list already held allocates nothing.
	scratch key
}

// positionList is one list row being gathered: its key, the width of its
// entries and the entries so far, in the order written.
type positionList struct {
	key   []byte
	width int
	rests []uint64
}

// listKey starts a list key with tag and chain in the scratch buffer; the
// caller appends the rest of the prefix and the height, then calls add.
func (p *positionLists) listKey(tag byte, chain netinfo.Chain) key {
	return append(p.scratch[:0], tag, byte(chain))
}

// add notes rest (a position's part after the height, width bytes of it)
// under list key k, which listKey started: add takes its buffer back as
// the scratch.
func (p *positionLists) add(k key, width int, rest uint64) {
	p.scratch = k[:0]
	i, ok := p.index[string(k)]
	if !ok {
		if p.index == nil {
			p.index = map[string]int{}
		}
		i = len(p.lists)
		p.index[string(k)] = i
		// A new key each time: Badger holds a set key until the commit.
		l := positionList{key: slices.Clone([]byte(k)), width: width}
		if i < cap(p.lists) { // a flushed list's entries are free again
			l.rests = p.lists[:i+1][i].rests[:0]
		}
		p.lists = append(p.lists, l)
	}
	p.lists[i].rests = append(p.lists[i].rests, rest)
}

// flush writes the gathered lists, each sorted and without repeats (a
// back-fill writes a block's txs newest first; a tx's sender may be its
// recipient), and starts over.
func (p *positionLists) flush(txn *blockTxn) error {
	for i := range p.lists {
		l := &p.lists[i]
		slices.Sort(l.rests)
		l.rests = slices.Compact(l.rests)
		if err := txn.set(l.key, encodeRests(l.rests, l.width)); err != nil {
			return err
		}
	}
	clear(p.index)
	p.lists = p.lists[:0]
	return nil
}

// encodeRests is a list row's value: each rest's low width bytes,
// big-endian.
func encodeRests(rests []uint64, width int) []byte {
	v := make([]byte, len(rests)*width)
	var b [8]byte
	for i, r := range rests {
		binary.BigEndian.PutUint64(b[:], r)
		copy(v[i*width:], b[8-width:])
	}
	return v
}

// listCursor walks the positions of one list row for a rangeIter with a
// list width (scan.go): the row's rests in the walk's direction, skipping
// those not past the iterator's after.
type listCursor struct {
	// width is the bytes of a rest; 0: the range holds no lists.
	width int
	// after is the position the walk resumes after (exclusive); nil: none.
	after []byte
	// rests is the current list row's value (a copy); at the rest the
	// walk is at, from the end when it descends.
	rests []byte
	at    int
	// pos is the current position: the row's height | the rest at.
	pos []byte
	// active says the iterator is inside a list row.
	active bool
	err    error
}

// load enters the list row of item (suffix = its height), at its first
// rest past after in the walk's direction; false when it has none.
func (c *listCursor) load(suffix []byte, v []byte, desc bool) bool {
	if len(v)%c.width != 0 {
		c.err = fmt.Errorf("corrupt position list (%d bytes of %d-byte entries)", len(v), c.width)
		return false
	}
	c.rests = append(c.rests[:0], v...)
	c.pos = append(append(c.pos[:0], suffix...), make([]byte, c.width)...)
	c.at = -1
	if desc {
		c.at = len(v) / c.width
	}
	return c.step(desc)
}

// step moves to the list's next rest past after; false at the list's end.
func (c *listCursor) step(desc bool) bool {
	n := len(c.rests) / c.width
	for {
		if desc {
			c.at--
		} else {
			c.at++
		}
		if c.at < 0 || c.at >= n {
			c.active = false
			return false
		}
		copy(c.pos[8:], c.rests[c.at*c.width:(c.at+1)*c.width])
		if c.past(c.pos, desc) {
			c.active = true
			return true
		}
	}
}

// past reports whether pos comes after the cursor's after in the walk.
func (c *listCursor) past(pos []byte, desc bool) bool {
	if c.after == nil {
		return true
	}
	if desc {
		return string(pos) < string(c.after)
	}
	return string(pos) > string(c.after)
}
