package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// FirstEVMBlockAtOrAfter returns the first block in [from, to] whose
// timestamp is at or after ts, or to+1 when there is none. EVM block
// timestamps never decrease, so a binary search over the index's block rows
// (0x81) finds it in log2(to-from) reads; every block of the range must be
// indexed.
func (s *Store) FirstEVMBlockAtOrAfter(ctx context.Context, chain netinfo.Chain, ts, from, to uint64) (uint64, error) {
	lo, hi := from, to+1 // the answer is in [lo, hi]
	err := s.read(ctx, func(txn *badger.Txn) error {
		blocks := blockCache{}
		for lo < hi {
			mid := lo + (hi-lo)/2
			ref, err := blocks.get(txn, chain, mid)
			if err != nil {
				return err
			}
			if ref.Timestamp >= ts {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("finding the first %s block at or after time %d in [%d, %d]: %w", chain, ts, from, to, err)
	}
	return lo, nil
}
