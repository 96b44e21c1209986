package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// ErrNotContiguous means a write did not start at the stream's cursor.
var ErrNotContiguous = errors.New("blocks do not start at the cursor")

// Cursor returns the cursor of one of chain's streams; a stream never written
// starts at height 1 (the genesis block is not a container of the node's
// index, and EVM genesis blocks hold no transactions).
func (s *Store) Cursor(ctx context.Context, chain netinfo.Chain, stream Stream) (Cursor, error) {
	var c Cursor
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		c, err = readCursor(txn, chain, stream)
		return err
	})
	return c, err
}

func readCursor(txn *badger.Txn, chain netinfo.Chain, stream Stream) (Cursor, error) {
	item, err := txn.Get(cursorKey(chain, stream))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return Cursor{NextHeight: 1, FirstHeight: 1, Fresh: true}, nil
	}
	if err != nil {
		return Cursor{}, fmt.Errorf("reading %s cursor %d: %w", chain, stream, err)
	}
	var c Cursor
	err = item.Value(func(v []byte) error {
		c, err = decodeCursor(v)
		return err
	})
	return c, err
}

// Stream names one of a chain's cursors: the block follower, and later
// back-fills that run behind it.
type Stream uint8

const (
	StreamBlocks Stream = iota
	// StreamVertices is the X-chain's DAG vertex follower (its own cursor
	// beside the X-chain's blocks; it counts no TPS).
	StreamVertices
)
