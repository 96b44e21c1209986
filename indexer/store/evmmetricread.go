package store

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// ChainBuckets lists chain's stored buckets of granularity g whose start is
// in [from, to], newest first, at most limit. A bucket is stored once a
// block of it is counted: the empty buckets of a dense series are the
// caller's to fill in.
func (s *Store) ChainBuckets(ctx context.Context, chain netinfo.Chain, g metricdata.Granularity, from, to int64,
	limit int,
) ([]metricdata.ChainBucket, error) {
	from = max(from, 0)
	if limit <= 0 || to < from {
		return nil, nil
	}
	var out []metricdata.ChainBucket
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := metricBucketPrefix(chain, g)
		var hi []byte
		if uint64(to) < 1<<63-1 {
			hi = metricBucketKey(chain, g, to+1)
		}
		return scanRange(ctx, txn, prefix, metricBucketKey(chain, g, from), hi, true, func(item *badger.Item) (bool, error) {
			suffix := item.Key()[len(prefix):]
			if len(suffix) != 8 {
				return false, fmt.Errorf("metric bucket key of %d bytes", len(item.Key()))
			}
			start := int64(binary.BigEndian.Uint64(suffix))
			var bk metricdata.ChainBucket
			err := item.Value(func(v []byte) error {
				var err error
				bk, err = decodeMetricBucket(g, start, v)
				return err
			})
			if err != nil {
				return false, err
			}
			out = append(out, bk)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s %s metric buckets: %w", chain, g, err)
	}
	return out, nil
}

// ActiveSince counts the distinct addresses that had role on chain in the
// hour bucket starting at hour or later: those whose last hour with it
// (0x9D) is at least hour. It reads keys only.
func (s *Store) ActiveSince(ctx context.Context, chain netinfo.Chain, role metricdata.Role, hour int64) (uint64, error) {
	var n uint64
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := lastActiveHourPrefix(chain, role)
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Seek(prefix.u64(uint64(max(hour, 0)))); it.ValidForPrefix(prefix); it.Next() {
			n++
			if err := checkEvery256(ctx, int(n)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("counting %s addresses active since %d: %w", chain, hour, err)
	}
	return n, nil
}

// ChainMetricTotals reads chain's running totals after the last block its
// metric rows count (zero before any).
func (s *Store) ChainMetricTotals(ctx context.Context, chain netinfo.Chain) (metricdata.ChainTotals, error) {
	var out metricdata.ChainTotals
	err := s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, metricTotalsKey(chain))
		if err != nil || v == nil {
			return err
		}
		out, err = decodeMetricTotals(v)
		return err
	})
	if err != nil {
		return metricdata.ChainTotals{}, fmt.Errorf("reading %s metric totals: %w", chain, err)
	}
	return out, nil
}

// ChainMetricsFrom is the first block chain's metric rows count, and ok
// false while a back-fill re-derives them. It is RunningStateFrom, or later
// on an index built before it kept the metric rows: they count from the
// block its writer resumed at (ChainTotals.FirstHeight), or, until it
// writes one, from the next block it will write (none of the blocks held
// is counted).
func (s *Store) ChainMetricsFrom(ctx context.Context, chain netinfo.Chain) (from uint64, ok bool, err error) {
	from, ok, err = s.RunningStateFrom(ctx, chain)
	if err != nil || !ok {
		return from, ok, err
	}
	var totals metricdata.ChainTotals
	var cursor Cursor
	err = s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, metricTotalsKey(chain))
		if err != nil {
			return err
		}
		if v != nil {
			if totals, err = decodeMetricTotals(v); err != nil {
				return err
			}
		}
		cursor, err = readCursor(txn, chain, StreamBlocks)
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("reading where %s's metrics count from: %w", chain, err)
	}
	switch {
	case totals.LastHeight != 0:
		from = max(from, totals.FirstHeight)
	case !cursor.Fresh && cursor.NextHeight > from:
		// Blocks are held but none is counted: an index built before the
		// metric rows, which its writer has not carried on yet.
		from = cursor.NextHeight
	}
	return from, true, nil
}
