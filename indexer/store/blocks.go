package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// ErrNotContiguous means a write did not start at the chain's cursor.
var ErrNotContiguous = errors.New("blocks do not start at the cursor")

// Cursor returns chain's cursor; a chain never written starts at height 1
// (the genesis block is not a container of the node's index).
func (s *Store) Cursor(chain netinfo.Chain) (Cursor, error) {
	var c Cursor
	err := s.db.View(func(txn *badger.Txn) error {
		var err error
		c, err = readCursor(txn, chain)
		return err
	})
	return c, err
}

func readCursor(txn *badger.Txn, chain netinfo.Chain) (Cursor, error) {
	item, err := txn.Get(cursorKey(chain))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return Cursor{NextHeight: 1}, nil
	}
	if err != nil {
		return Cursor{}, fmt.Errorf("reading %s cursor: %w", chain, err)
	}
	var c Cursor
	err = item.Value(func(v []byte) error {
		c, err = decodeCursor(v)
		return err
	})
	return c, err
}

// ApplyBlocks writes blocks (consecutive heights starting at the cursor),
// their TPS buckets and the advanced cursor in one transaction.
func (s *Store) ApplyBlocks(chain netinfo.Chain, blocks []BlockSummary, now time.Time) error {
	if len(blocks) == 0 {
		return nil
	}
	return s.db.Update(func(txn *badger.Txn) error {
		cursor, err := readCursor(txn, chain)
		if err != nil {
			return err
		}
		if blocks[0].Height != cursor.NextHeight {
			return fmt.Errorf("%s: first block %d, cursor %d: %w", chain, blocks[0].Height, cursor.NextHeight, ErrNotContiguous)
		}
		buckets := map[int64]*TPSBucket{}
		for i, b := range blocks {
			if b.Height != cursor.NextHeight+uint64(i) {
				return fmt.Errorf("%s: block %d follows %d: %w", chain, b.Height, blocks[i-1].Height, ErrNotContiguous)
			}
			if err := putBlock(txn, chain, b); err != nil {
				return err
			}
			if err := addToBucket(txn, chain, buckets, b); err != nil {
				return err
			}
		}
		for _, bucket := range buckets {
			if err := txn.Set(tpsKey(chain, bucket.Start), bucket.encode()); err != nil {
				return fmt.Errorf("writing %s tps bucket: %w", chain, err)
			}
		}
		last := blocks[len(blocks)-1]
		next := Cursor{NextHeight: last.Height + 1, LastApplied: now, LastBlockTs: last.Timestamp}
		return txn.Set(cursorKey(chain), next.encode())
	})
}

func putBlock(txn *badger.Txn, chain netinfo.Chain, b BlockSummary) error {
	v, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("encoding %s block %d: %w", chain, b.Height, err)
	}
	if err := txn.Set(blockKey(chain, b.Height), v); err != nil {
		return fmt.Errorf("writing %s block %d: %w", chain, b.Height, err)
	}
	return nil
}

// addToBucket counts b into its day's bucket, loading the stored bucket the
// first time the transaction touches that day.
func addToBucket(txn *badger.Txn, chain netinfo.Chain, buckets map[int64]*TPSBucket, b BlockSummary) error {
	start := bucketStart(b.Timestamp)
	bucket, ok := buckets[start]
	if !ok {
		loaded, err := readTPSBucket(txn, chain, start)
		if err != nil {
			return err
		}
		bucket = &loaded
		buckets[start] = bucket
	}
	bucket.add(b)
	return nil
}

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

// Block returns the summary of chain's block at height.
func (s *Store) Block(chain netinfo.Chain, height uint64) (BlockSummary, bool, error) {
	var b BlockSummary
	found := false
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(blockKey(chain, height))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		return item.Value(func(v []byte) error { return json.Unmarshal(v, &b) })
	})
	if err != nil {
		return BlockSummary{}, false, fmt.Errorf("reading %s block %d: %w", chain, height, err)
	}
	return b, found, nil
}

// TPSBuckets returns up to limit buckets of chain, newest first, whose start
// is strictly before `before` (0: no bound).
func (s *Store) TPSBuckets(chain netinfo.Chain, before int64, limit int) ([]TPSBucket, error) {
	var out []TPSBucket
	err := s.db.View(func(txn *badger.Txn) error {
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
