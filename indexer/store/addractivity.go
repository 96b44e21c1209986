package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Address activity on the primary network's chains, from the address tx
// rows (0x11) and the balance rows (0x22): the newest tx of some addresses
// (getLastActivityTimestampByAddresses) and the chains an address has
// activity on (getChainIdsForAddresses).

// LastActivity is the newest tx of chain that involves any of addrs, with a
// UTXO of theirs it created (preferred: the state it left them in), else
// one it returned from staking, else one it consumed; false when none
// involves them.
func (r *PrimaryReader) LastActivity(ctx context.Context, chain netinfo.Chain, addrs []ids.ShortID) (pdata.AddressActivity, bool, error) {
	var out pdata.AddressActivity
	found := false
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		ranges := make([]rangeIter, 0, len(addrs))
		for _, addr := range addrs {
			prefix := addrTxPrefix(chain, addr)
			ranges = append(ranges, newRangeIter(txn, prefix, prefix, nil, true))
		}
		var txID ids.ID
		err := mergeRanges(ctx, ranges, txOrder, func(pos pdata.TxPos, item *badger.Item) (bool, error) {
			var err error
			txID, err = itemID(item)
			if err != nil {
				return false, fmt.Errorf("corrupt tx row at %d/%d: %w", pos.Height, pos.Index, err)
			}
			found = true
			return false, nil
		})
		if err != nil || !found {
			return err
		}
		rec, err := readPTx(txn, txID)
		if err != nil {
			return err
		}
		out = pdata.AddressActivity{TxID: txID, Height: rec.Pos.Height, Time: rec.Time}
		out.UTXO, out.Consumed, err = activityUTXO(txn, &rec, addrs)
		return err
	})
	if err != nil {
		return pdata.AddressActivity{}, false, fmt.Errorf("reading the last %s activity of %d addresses: %w", chain, len(addrs), err)
	}
	return out, found, nil
}

// activityUTXO picks the UTXO of addrs that rec's tx touched: one it
// created, returned or consumed, in that order of preference. A tx that
// involves the addresses otherwise (a signer, a rewards owner) gives its
// first UTXO.
func activityUTXO(txn *badger.Txn, rec *ptxRecord, addrs []ids.ShortID) (ids.ID, bool, error) {
	groups := []struct {
		utxos    []ids.ID
		consumed bool
	}{{rec.Produced, false}, {rec.Unstaked, false}, {rec.Consumed, true}}
	for _, g := range groups {
		for _, id := range g.utxos {
			v, err := getValue(txn, utxoKey(id))
			if err != nil || v == nil {
				if err != nil {
					return ids.Empty, false, fmt.Errorf("reading utxo %s: %w", id, err)
				}
				continue // created on a chain not followed
			}
			u, err := decodeUTXO(id, v)
			if err != nil {
				return ids.Empty, false, fmt.Errorf("utxo %s: %w", id, err)
			}
			if slices.ContainsFunc(u.Owners.Addrs, func(a ids.ShortID) bool { return slices.Contains(addrs, a) }) {
				return id, g.consumed, nil
			}
		}
	}
	for _, g := range groups {
		if len(g.utxos) > 0 {
			return g.utxos[0], g.consumed, nil
		}
	}
	return ids.Empty, false, nil
}

// ChainsWithActivity lists, for each of addrs, the chains among chains on
// which it has activity: a tx that involves it, or a UTXO held for it
// (atomic memory included).
func (r *PrimaryReader) ChainsWithActivity(ctx context.Context, addrs []ids.ShortID, chains []netinfo.Chain) ([][]netinfo.Chain, error) {
	out := make([][]netinfo.Chain, len(addrs))
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		for i, addr := range addrs {
			out[i] = []netinfo.Chain{}
			for _, chain := range chains {
				if err := ctx.Err(); err != nil {
					return err
				}
				if anyKeyUnder(txn, addrTxPrefix(chain, addr)) || anyKeyUnder(txn, uaddrPrefix(chain, addr)) {
					out[i] = append(out[i], chain)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the chains of %d addresses: %w", len(addrs), err)
	}
	return out, nil
}

// anyKeyUnder reports whether some key starts with prefix.
func anyKeyUnder(txn *badger.Txn, prefix []byte) bool {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	it.Seek(prefix)
	return it.ValidForPrefix(prefix)
}
