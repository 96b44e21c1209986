package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/pdata"
)

// ValidatorRewardAddresses lists the validations of subnet's validators
// whose period overlaps [from, to] (Unix seconds, inclusive) and that name
// validation reward addresses, in (start, staking tx) order after `after`
// (nil: from the first), at most limit. A validation's period runs from its
// start to its end, or to the RemoveSubnetValidatorTx that cut it short.
// known says the subnet exists.
//
// The listing walks every validator (0x33) that starts by `to`, reading its
// staker row: a period has no upper bound on its length the index could
// seek by, so the stakers that started long before `from` are read too.
func (s *Store) ValidatorRewardAddresses(ctx context.Context, subnet ids.ID, from, to int64, after *pdata.StakerPos,
	limit int,
) (out []metricdata.ValidatorRewardAddresses, known bool, err error) {
	err = s.read(ctx, func(txn *badger.Txn) error {
		row, err := getValue(txn, subnetKey(subnet))
		if err != nil {
			return fmt.Errorf("reading subnet %s: %w", subnet, err)
		}
		if known = row != nil; !known || to < 0 {
			return nil
		}
		prefix := stakerOrderPrefix(kindValidator)
		lo := []byte(prefix)
		if after != nil {
			// Just past the last key listed.
			lo = append(prefix.seq(after.Start, after.TxID), 0)
		}
		hi := prefix.u64(uint64(to) + 1)
		return scanRange(ctx, txn, prefix, lo, hi, false, func(item *badger.Item) (bool, error) {
			pos := seqAt(item.Key()[len(prefix):])
			v, err := getValue(txn, stakerKey(pos.id))
			if err != nil || v == nil {
				return err == nil, err
			}
			st, err := decodeStaker(pos.id, v)
			if err != nil {
				return false, fmt.Errorf("staker %s: %w", pos.id, err)
			}
			end := st.Staker.End
			if st.RemoveTx != ids.Empty && st.RemoveTime < end {
				end = st.RemoveTime
			}
			if st.Staker.Subnet != subnet || end < from || st.Staker.RewardsOwner == nil ||
				len(st.Staker.RewardsOwner.Addrs) == 0 {
				return true, nil
			}
			out = append(out, metricdata.ValidatorRewardAddresses{TxID: pos.id, Start: st.Staker.Start,
				Addresses: st.Staker.RewardsOwner.Addrs})
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, false, fmt.Errorf("listing the validators of subnet %s from %d to %d: %w", subnet, from, to, err)
	}
	return out, known, nil
}
