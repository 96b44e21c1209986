package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// TPSBucket is the transaction count of one chain over one UTC day.
type TPSBucket struct {
	Start        int64  // Unix seconds of the bucket start (UTC midnight)
	TxCount      uint64 // transactions in blocks whose timestamp falls in the bucket
	BlockCount   uint64 // blocks whose timestamp falls in the bucket
	LastBlockTs  int64  // timestamp of the newest block counted in the bucket
	FirstBlockTs int64  // timestamp of the oldest block counted in the bucket
}

// BucketSeconds is the width of a TPS bucket.
const BucketSeconds = 86400

func readTPSBucket(txn *badger.Txn, chain netinfo.Chain, start int64) (TPSBucket, error) {
	item, err := txn.Get(tpsKey(chain, start))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return TPSBucket{Start: start}, nil
	}
	if err != nil {
		return TPSBucket{}, fmt.Errorf("reading %s tps bucket: %w", chain, err)
	}
	var bucket TPSBucket
	err = item.Value(func(v []byte) error {
		bucket, err = decodeTPSBucket(start, v)
		return err
	})
	return bucket, err
}

// TPSBuckets returns up to limit buckets of chain, newest first, whose start
// is strictly before `before` (0: no bound).
func (s *Store) TPSBuckets(ctx context.Context, chain netinfo.Chain, before int64, limit int) ([]TPSBucket, error) {
	var out []TPSBucket
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := tpsPrefix(chain)
		it := txn.NewIterator(badger.IteratorOptions{Reverse: true, Prefix: prefix})
		defer it.Close()
		seek := tpsKey(chain, 1<<62)
		if before > 0 {
			seek = tpsKey(chain, before-1)
		}
		for it.Seek(seek); it.ValidForPrefix(prefix) && len(out) < limit; it.Next() {
			key := it.Item().Key()
			start := int64(beUint64(key[len(prefix):]))
			var bucket TPSBucket
			err := it.Item().Value(func(v []byte) error {
				var err error
				bucket, err = decodeTPSBucket(start, v)
				return err
			})
			if err != nil {
				return err
			}
			out = append(out, bucket)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s tps buckets: %w", chain, err)
	}
	return out, nil
}
