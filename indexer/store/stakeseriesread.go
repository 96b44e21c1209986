package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// StakingSeries returns subnet's daily staking figures (stakeseries.go)
// for the days from the one holding from to the one holding to, clipped to
// the series' own span (its first change to the newest indexed P-chain
// block), newest first, at most limit. A day reads the newest row at or
// before it: one reverse seek, then one row per change in the range.
func (s *Store) StakingSeries(ctx context.Context, subnet ids.ID, from, to int64, limit int) (metricdata.StakingSeries, error) {
	var out metricdata.StakingSeries
	err := s.read(ctx, func(txn *badger.Txn) error {
		known, err := getValue(txn, subnetKey(subnet))
		if err != nil {
			return fmt.Errorf("reading subnet %s: %w", subnet, err)
		}
		out.SubnetKnown = known != nil
		if !out.SubnetKnown {
			return nil
		}
		if v, err := getValue(txn, stakeFromKey()); err != nil {
			return fmt.Errorf("reading where the staking figures start: %w", err)
		} else if len(v) == 8 {
			out.CountedFrom = beUint64(v)
		}
		cursor, err := readCursor(txn, netinfo.P, StreamBlocks)
		if err != nil || cursor.NextHeight <= 1 {
			return err
		}
		prefix := stakeDayPrefix(subnet)
		first := true
		err = scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			out.FirstDay, first = int64(beUint64(item.Key()[len(prefix):])), false
			return false, nil
		})
		if err != nil || first {
			return err
		}
		out.HasDays, out.LastDay = true, metricdata.Day.Start(cursor.LastBlockTs)
		lo := max(metricdata.Day.Start(from), out.FirstDay)
		hi := min(metricdata.Day.Start(to), out.LastDay)
		if lo > hi || limit <= 0 {
			return nil
		}
		return readStakingDays(ctx, txn, prefix, lo, hi, limit, &out)
	})
	if err != nil {
		return metricdata.StakingSeries{}, fmt.Errorf("reading the staking series of subnet %s: %w", subnet, err)
	}
	return out, nil
}

// readStakingDays appends the days hi down to lo (at most limit) to out,
// each with the figures of the newest row at or before it.
func readStakingDays(ctx context.Context, txn *badger.Txn, prefix key, lo, hi int64, limit int, out *metricdata.StakingSeries) error {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: true})
	defer it.Close()
	it.Seek(prefix.u64(uint64(hi))) // the newest row at or before hi
	var (
		rowDay  int64
		figures metricdata.StakingFigures
		decoded bool
	)
	for day := hi; day >= lo && len(out.Days) < limit; day = metricdata.Day.Previous(day) {
		if err := checkEvery256(ctx, len(out.Days)+1); err != nil {
			return err
		}
		for {
			if !it.ValidForPrefix(prefix) {
				return nil // before the first row: cannot happen, lo >= FirstDay
			}
			rowDay = int64(beUint64(it.Item().Key()[len(prefix):]))
			if rowDay <= day {
				break
			}
			it.Next()
			decoded = false
		}
		if !decoded {
			err := it.Item().Value(func(v []byte) (err error) {
				figures, err = decodeStakeFigures(v)
				return err
			})
			if err != nil {
				return fmt.Errorf("staking figures of day %d: %w", rowDay, err)
			}
			decoded = true
		}
		out.Days = append(out.Days, metricdata.StakingDay{Day: day, Figures: figures})
	}
	return nil
}
