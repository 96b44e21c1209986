package store

import (
	"context"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The block-source row (0x03) records, per P/X chain, that its index was
// built from the VM's getBlockByHeight rather than the node's index API. The
// two name the same block by different IDs (the index API by its proposervm
// ID), so an index must keep reading from the source it was built from. The
// row is written once, before the chain's first block; absent, the source is
// the index API (every index written before the row existed).

const (
	blockSrcByHeight byte = 1
	blockSrcFlagDAG  byte = 1 << 0
)

func blockSourceKey(chain netinfo.Chain) []byte { return newKey(tagBlockSrc, chain) }

// ChainSource reads where chain's index reads its blocks from.
func (s *Store) ChainSource(ctx context.Context, chain netinfo.Chain) (pdata.ChainSource, error) {
	var out pdata.ChainSource
	err := s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, blockSourceKey(chain))
		if err != nil || v == nil {
			return err
		}
		if len(v) != 2 || v[0] != blockSrcByHeight {
			return fmt.Errorf("%s block-source row %x: unknown source", chain, v)
		}
		out = pdata.ChainSource{ByHeight: true, MissingDAG: v[1]&blockSrcFlagDAG != 0}
		return nil
	})
	if err != nil {
		return pdata.ChainSource{}, fmt.Errorf("reading %s block source: %w", chain, err)
	}
	return out, nil
}

// SetChainSource records src as chain's block source. It refuses once the
// chain's blocks stream holds a block: the blocks written name their IDs as
// the source they came from did.
func (s *Store) SetChainSource(ctx context.Context, chain netinfo.Chain, src pdata.ChainSource) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer s.chainLocks.lock(chain)()
	err := s.db.Update(func(txn *badger.Txn) error {
		c, err := readCursor(txn, chain, StreamBlocks)
		if err != nil {
			return err
		}
		if !c.Empty() {
			return fmt.Errorf("the %s index holds blocks already", chain)
		}
		if !src.ByHeight {
			return txn.Delete(blockSourceKey(chain))
		}
		var flags byte
		if src.MissingDAG {
			flags |= blockSrcFlagDAG
		}
		return txn.Set(blockSourceKey(chain), []byte{blockSrcByHeight, flags})
	})
	if err != nil {
		return fmt.Errorf("recording %s block source: %w", chain, err)
	}
	return nil
}

// Empty says the stream holds no block yet (never written, or only
// started by StartStream).
func (c Cursor) Empty() bool { return c.Fresh || c.NextHeight <= c.FirstHeight }

// ChainSource reads where chain's index reads its blocks from (handlers
// omit or refuse what a getBlockByHeight index cannot hold).
func (r *PrimaryReader) ChainSource(ctx context.Context, chain netinfo.Chain) (pdata.ChainSource, error) {
	return r.s.ChainSource(ctx, chain)
}
