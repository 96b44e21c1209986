package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Balances sums the UTXOs chain holds for addrs by category and asset as
// they stood at time at (Unix seconds), counting a UTXO owned by several of
// the addresses once. It reads each address's balance rows (0x22): the UTXOs
// the chain ever held for it, in its own balances or its atomic memory.
func (r *PrimaryReader) Balances(ctx context.Context, chain netinfo.Chain, addrs []ids.ShortID, at int64) ([]pdata.BalanceEntry, error) {
	type group struct {
		category pdata.BalanceCategory
		asset    ids.ID
		shared   ids.ID
	}
	sums := map[group]*pdata.BalanceEntry{}
	seen := map[ids.ID]bool{}
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		for _, addr := range addrs {
			prefix := uaddrPrefix(chain, addr)
			err := scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
				utxo, _ := ids.ToID(item.Key()[len(prefix):])
				if seen[utxo] {
					return true, nil
				}
				seen[utxo] = true
				var b balanceRow
				err := item.Value(func(v []byte) error {
					var err error
					b, err = decodeBalance(v)
					return err
				})
				if err != nil {
					return false, fmt.Errorf("balance row of %s: %w", utxo, err)
				}
				category, ok := classify(&b, at)
				if !ok {
					return true, nil
				}
				g := group{category: category, asset: b.Asset, shared: b.Source}
				e := sums[g]
				if e == nil {
					e = &pdata.BalanceEntry{Category: category, Asset: b.Asset, SharedWith: b.Source}
					sums[g] = e
				}
				e.Amount += b.Amount
				e.UTXOs++
				return true, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s balances: %w", chain, err)
	}
	out := make([]pdata.BalanceEntry, 0, len(sums))
	for _, e := range sums {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b pdata.BalanceEntry) int {
		return cmp.Or(cmp.Compare(a.Category, b.Category), a.Asset.Compare(b.Asset), a.SharedWith.Compare(b.SharedWith))
	})
	return out, nil
}

// classify puts a UTXO in its balance category at time at (one of the
// eight of getBalancesByAddresses); false when it did not exist then (not
// created yet, or consumed).
// X-chain UTXOs have no stake and no stakeable lock, so they come out
// UnlockedUnstaked or LockedPlatform (the X-chain's unlocked and locked).
func classify(b *balanceRow, at int64) (pdata.BalanceCategory, bool) {
	if b.Created > at || b.Consumed && b.ConsumedTime <= at {
		return 0, false
	}
	platformLocked := b.PlatformLocktime > uint64(max(at, 0))
	switch {
	case b.Atomic && platformLocked:
		return pdata.AtomicMemoryLocked, true
	case b.Atomic:
		return pdata.AtomicMemoryUnlocked, true
	case b.Stake && !(b.Unstaked && b.UnstakedTime <= at):
		switch {
		case at < b.StakeStart:
			return pdata.PendingStaked, true
		case max(b.StakeableLocktime, b.PlatformLocktime) > uint64(max(b.StakeEnd, 0)):
			// Still locked when the stake returns.
			return pdata.LockedStaked, true
		default:
			return pdata.UnlockedStaked, true
		}
	case platformLocked:
		return pdata.LockedPlatform, true
	case b.StakeableLocktime > uint64(max(at, 0)):
		return pdata.LockedStakeable, true
	default:
		return pdata.UnlockedUnstaked, true
	}
}
