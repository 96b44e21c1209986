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
