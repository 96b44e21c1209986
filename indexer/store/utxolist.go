package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// UTXO listing rows (0x23-0x26): each owner's UTXOs on the chain that holds
// them, ordered by creation time and by amount, the unspent ones under one
// pair of tags and the spent ones under another: a consumption moves the
// UTXO's rows from the first pair to the second. A listing of unspent UTXOs
// reads the first pair, one with includeSpent merges both; either way a
// page reads its own rows and no others, however many UTXOs the address
// has and however deep the page, but for the rows its asset and amount
// filters drop (the row's value says both, so a dropped row costs no other
// read).
//
// The rows are written with the UTXO's creation and its consumption, by
// whichever writer meets each (consumeUTXO moves rows only once the
// creation is known; produceUTXO writes them where its consumption, read
// beside it, puts them). A row's key never changes (creation time and
// amount are the UTXO's own), so a listing that resumes after a position
// never repeats a UTXO nor skips one still there.

// utxoListValueLen is a listing row's value: asset(32) | amount(8).
const utxoListValueLen = 32 + 8

// utxoListTag is the tag of the listing rows of an order and a state.
func utxoListTag(byAmount, spent bool) byte {
	switch {
	case byAmount && spent:
		return tagUAmtS
	case byAmount:
		return tagUAmtU
	case spent:
		return tagUTimeS
	default:
		return tagUTimeU
	}
}

// utxoSortKey is u's place in a listing by amount or by creation time.
func utxoSortKey(u *utxoRow, byAmount bool) uint64 {
	if byAmount {
		return u.Amount
	}
	return uint64(max(u.Time, 0))
}

// eachUTXOListKey calls fn with the key of each of u's listing rows of a
// state: both orders, under each owner.
func eachUTXOListKey(u *utxoRow, spent bool, fn func(k []byte) error) error {
	if u.Hold == noChain {
		return nil
	}
	var owners addrSet
	owners.add(u.Owners.Addrs...)
	for _, addr := range owners.list {
		for _, byAmount := range []bool{false, true} {
			if err := fn(utxoListKey(utxoListTag(byAmount, spent), u.Hold, addr, utxoSortKey(u, byAmount), u.ID)); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeUTXOListRows writes u's listing rows of its state (spent or not).
func writeUTXOListRows(txn *blockTxn, u *utxoRow, spent bool) error {
	v := make([]byte, 0, utxoListValueLen)
	v = append(v, u.Asset[:]...)
	v = binary.BigEndian.AppendUint64(v, u.Amount)
	return eachUTXOListKey(u, spent, func(k []byte) error { return txn.set(k, v) })
}

// moveUTXOListRowsToSpent moves u's listing rows to the spent ones, at its
// consumption.
func moveUTXOListRowsToSpent(txn *blockTxn, u *utxoRow) error {
	if err := eachUTXOListKey(u, false, txn.delete); err != nil {
		return err
	}
	return writeUTXOListRows(txn, u, true)
}

// utxoOrder orders listing rows by sort key, then UTXO ID.
var utxoOrder = keyOrder[pdata.UTXOPos]{
	at: func(suffix []byte) pdata.UTXOPos {
		pos := pdata.UTXOPos{Key: binary.BigEndian.Uint64(suffix)}
		copy(pos.UTXO[:], suffix[8:])
		return pos
	},
	compare: func(a, b pdata.UTXOPos) int {
		return cmp.Or(cmp.Compare(a.Key, b.Key), a.UTXO.Compare(b.UTXO))
	},
}

// utxoRange is one address's range of a listing: from q.MinAmount up when
// the listing is by amount, after q.After when it resumes.
func utxoRange(txn *badger.Txn, prefix key, q *pdata.UTXOQuery) rangeIter {
	lo := []byte(prefix)
	if q.ByAmount {
		lo = prefix.u64(q.MinAmount)
	}
	var hi []byte
	if q.After != nil {
		at := prefix.u64(q.After.Key).id(q.After.UTXO)
		if q.Desc {
			hi = at
		} else {
			lo = maxKey(lo, successor(at))
		}
	}
	return newRangeIter(txn, prefix, lo, hi, q.Desc)
}

// UTXOs lists the UTXOs chain holds for any of q.Addresses (its own UTXO
// set and its atomic memory), each once however many of the addresses own
// it: a k-way merge of the addresses' listing rows (and, with spent ones,
// of both states' rows). A call reads at most
// q.Limit UTXOs and, when q.MaxScanned > 0, at most that many rows.
func (r *PrimaryReader) UTXOs(ctx context.Context, chain netinfo.Chain, q pdata.UTXOQuery) (pdata.UTXOPage, error) {
	var page pdata.UTXOPage
	tags := []byte{utxoListTag(q.ByAmount, false)}
	if q.IncludeSpent {
		tags = append(tags, utxoListTag(q.ByAmount, true))
	}
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		ranges := make([]rangeIter, 0, len(tags)*len(q.Addresses))
		for _, tag := range tags {
			for _, addr := range q.Addresses {
				ranges = append(ranges, utxoRange(txn, utxoListPrefix(tag, chain, addr), &q))
			}
		}
		scanned := 0
		var last pdata.UTXOPos
		return mergeRanges(ctx, ranges, utxoOrder, func(pos pdata.UTXOPos, item *badger.Item) (bool, error) {
			if q.MaxScanned > 0 && scanned == q.MaxScanned {
				page.Next = &last
				return false, nil
			}
			scanned++
			asset, amount, err := utxoListValue(item)
			if err != nil {
				return false, fmt.Errorf("listing row of utxo %s: %w", pos.UTXO, err)
			}
			keep := amount >= q.MinAmount && (q.Asset == nil || *q.Asset == asset)
			if keep && q.Limit > 0 && len(page.UTXOs) == q.Limit {
				page.Next = &last
				return false, nil
			}
			last = pos
			if !keep {
				return true, nil
			}
			u, _, err := loadIndexedUTXO(txn, pos.UTXO, pdata.UTXO{ID: pos.UTXO, Asset: asset, Amount: amount})
			if err != nil {
				return false, err
			}
			page.UTXOs = append(page.UTXOs, u)
			return true, nil
		})
	})
	if err != nil {
		return pdata.UTXOPage{}, fmt.Errorf("listing %s utxos of %d addresses: %w", chain, len(q.Addresses), err)
	}
	return page, nil
}

func utxoListValue(item *badger.Item) (asset ids.ID, amount uint64, err error) {
	err = item.Value(func(v []byte) error {
		if len(v) != utxoListValueLen {
			return fmt.Errorf("value of %d bytes, want %d", len(v), utxoListValueLen)
		}
		copy(asset[:], v)
		amount = binary.BigEndian.Uint64(v[32:])
		return nil
	})
	return asset, amount, err
}
