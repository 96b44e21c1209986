package store

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// txRange is the part of one tx-order range, whose keys end in height(8) |
// index(4) (a chain's txs in order, or one address's txs), within a
// query's bounds, in its direction. Several merge into one listing
// (mergeRanges with txOrder).
func txRange(txn *badger.Txn, prefix key, q *pdata.TxQuery) rangeIter {
	// The bounds below are each built by appending to prefix: without
	// spare capacity, so that one cannot overwrite another.
	prefix = slices.Clip(prefix)
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
	return newRangeIter(txn, prefix, lo, hi, q.Desc)
}

// txOrder orders tx-order ranges by tx position.
var txOrder = keyOrder[pdata.TxPos]{
	at: func(suffix []byte) pdata.TxPos {
		return pdata.TxPos{Height: binary.BigEndian.Uint64(suffix), Index: binary.BigEndian.Uint32(suffix[8:])}
	},
	compare: func(a, b pdata.TxPos) int {
		return cmp.Or(cmp.Compare(a.Height, b.Height), cmp.Compare(a.Index, b.Index))
	},
}
