package store

import (
	"bytes"
	"cmp"
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

// seqAt reads the position a staker or reward index key ends in, given the
// key after its prefix.
func seqAt(suffix []byte) seqPos {
	var p seqPos
	p.n = binary.BigEndian.Uint64(suffix)
	copy(p.id[:], suffix[8:])
	return p
}

// seqOrder orders staker and reward index ranges by position.
var seqOrder = keyOrder[seqPos]{
	at: seqAt,
	compare: func(a, b seqPos) int {
		return cmp.Or(cmp.Compare(a.n, b.n), bytes.Compare(a.id[:], b.id[:]))
	},
}

// seqRange is the part of one staker or reward index range (one node's,
// one address's or every staker of a kind; one address's or one node's
// rewards) after a listing's position, ascending or descending. Several
// merge into one listing (mergeRanges with seqOrder).
func seqRange(txn *badger.Txn, prefix key, after *seqPos, desc bool) rangeIter {
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
	return newRangeIter(txn, prefix, lo, hi, desc)
}
