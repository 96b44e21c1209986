package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// SummaryWriter writes the block summaries of a P or X chain follower.
type SummaryWriter struct {
	s     *Store
	chain netinfo.Chain
}

// SummaryWriter returns chain's summary writer.
func (s *Store) SummaryWriter(chain netinfo.Chain) *SummaryWriter {
	return &SummaryWriter{s: s, chain: chain}
}

// Cursor is the block stream's cursor.
func (w *SummaryWriter) Cursor(ctx context.Context) (Cursor, error) {
	return w.s.Cursor(ctx, w.chain, StreamBlocks)
}

// Apply writes blocks (consecutive heights from the cursor), their TPS
// counts and the advanced cursor.
func (w *SummaryWriter) Apply(ctx context.Context, blocks []*chaindata.Summary, now time.Time) error {
	return commitBlocks(ctx, w.s, w.chain, StreamBlocks, blocks, now, func(txn *blockTxn, b *chaindata.Summary) error {
		return txn.set(blockKey(w.chain, b.Number), encodeSummary(b))
	})
}

const summarySize = 32 + 8 + 4

func encodeSummary(b *chaindata.Summary) []byte {
	v := make([]byte, 0, summarySize)
	v = append(v, b.ID[:]...)
	v = binary.BigEndian.AppendUint64(v, uint64(b.Timestamp))
	return binary.BigEndian.AppendUint32(v, uint32(b.Txs))
}

func decodeSummary(height uint64, v []byte) (chaindata.Summary, error) {
	if len(v) != summarySize {
		return chaindata.Summary{}, fmt.Errorf("block summary has %d bytes, want %d", len(v), summarySize)
	}
	id, _ := ids.ToID(v[:32])
	return chaindata.Summary{
		Number:    height,
		ID:        id,
		Timestamp: int64(binary.BigEndian.Uint64(v[32:])),
		Txs:       int(binary.BigEndian.Uint32(v[40:])),
	}, nil
}

// Summary returns the summary of a P/X chain's block at height.
func (s *Store) Summary(ctx context.Context, chain netinfo.Chain, height uint64) (chaindata.Summary, bool, error) {
	var b chaindata.Summary
	found := false
	err := s.view(ctx, func(txn *badger.Txn) error {
		item, err := txn.Get(blockKey(chain, height))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		return item.Value(func(v []byte) error {
			b, err = decodeSummary(height, v)
			return err
		})
	})
	if err != nil {
		return chaindata.Summary{}, false, fmt.Errorf("reading %s block %d: %w", chain, height, err)
	}
	return b, found, nil
}
