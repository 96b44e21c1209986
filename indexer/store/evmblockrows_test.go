package store

import (
	"context"
	"testing"

	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"
)

// A block row is kept across requests once read, and a block not indexed
// yet is not remembered as missing: it is read again when it arrives.
func TestEVMBlockRowsKeptAcrossReadsNotWhileMissing(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	var c chainBuilder
	first := c.block(transferTx(alice, bob))
	applyEVM(t, s, first)

	tx, found, err := s.TxByHash(ctx, evmChain, first.Txs[0].Hash)
	require.NoError(err)
	require.True(found)
	require.Equal(first.Hash, tx.Block.Hash)
	kept, ok := s.blockRows.get(evmChain, first.Number)
	require.True(ok, "the row read is kept")
	require.Equal(first.Hash, kept.Hash)

	require.Error(s.read(ctx, func(txn *badger.Txn) error {
		_, err := s.newBlockCache().row(txn, evmChain, 2)
		return err
	}))
	_, ok = s.blockRows.get(evmChain, 2)
	require.False(ok, "a missing block is not kept")
	second := c.block(transferTx(bob, carol))
	applyEVM(t, s, second)
	tx, found, err = s.TxByHash(ctx, evmChain, second.Txs[0].Hash)
	require.NoError(err)
	require.True(found)
	require.Equal(second.Hash, tx.Block.Hash)
}
