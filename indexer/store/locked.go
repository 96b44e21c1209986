package store

import (
	"context"
	"fmt"
	"math"

	"github.com/dgraph-io/badger/v4"
)

// The AVAX under a time lock (keys.go 0x63): a row per unspent AVAX UTXO
// whose lock (its owners' locktime, or a P-chain stakeable lock, the later
// of the two) had not passed when it was created, keyed by the lock's end,
// so the AVAX still locked at a time is a scan of the rows past it. The
// row is a function of the UTXO's creation and consumption rows (0x20,
// 0x21), written with its balance rows by whichever side comes last, so it
// comes out the same in either order; a spent UTXO has none.

func lockKey(unlock uint64, u *utxoRow) []byte { return key{tagLock}.u64(unlock).id(u.ID) }

// writeLock (re)writes u's lock row.
func writeLock(txn *blockTxn, u *utxoRow, spent *spentRow) error {
	unlock := max(u.Owners.Locktime, u.StakeableLocktime)
	if u.Asset != txn.s.network().AVAXAssetID || unlock <= uint64(max(u.Time, 0)) || u.Amount == 0 {
		return nil
	}
	if spent != nil {
		return txn.delete(lockKey(unlock, u))
	}
	return txn.set(lockKey(unlock, u), key(nil).u64(u.Amount))
}

// lockedAt sums the AVAX of the lock rows still locked at time at (Unix
// seconds): their lock ends after it.
func lockedAt(ctx context.Context, txn *badger.Txn, at int64) (uint64, error) {
	prefix := key{tagLock}
	var total uint64
	lo := []byte(prefix)
	if at >= 0 && at < math.MaxInt64 {
		lo = prefix.u64(uint64(at) + 1)
	}
	err := scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
		return true, item.Value(func(v []byte) error {
			if len(v) != 8 {
				return fmt.Errorf("lock row of %d bytes", len(v))
			}
			total += beUint64(v) // at most the AVAX supply: far below 2^64 nAVAX
			return nil
		})
	})
	return total, err
}
