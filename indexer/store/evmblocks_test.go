package store

import (
	"context"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// feeTx is a tx that used gas at a price, with a receipt status.
func feeTx(status uint8, gasUsed uint64, price int64) evmdata.Tx {
	tx := transferTx(alice, bob)
	tx.Status, tx.GasUsed, tx.EffectiveGasPrice = status, gasUsed, big.NewInt(price)
	return tx
}

func blockNumbers(blocks []evmdata.BlockSummary) []uint64 {
	out := make([]uint64, len(blocks))
	for i, b := range blocks {
		out[i] = b.Number
	}
	return out
}

func txPositions(txs []evmdata.IndexedTx) []evmdata.TxPos {
	out := make([]evmdata.TxPos, len(txs))
	for i, tx := range txs {
		out[i] = evmdata.TxPos{Block: tx.Block.Number, Index: tx.Tx.Index}
	}
	return out
}

func TestEVMBlocksCarryCumulativeCountsAndFees(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	var c chainBuilder
	b1 := c.block(feeTx(1, 21000, 10), feeTx(0, 30000, 3))
	ms, excess := uint64(1_700_000_001_250), uint64(7477290)
	b1.BlockGasCost, b1.TimestampMs, b1.MinDelayExcess = big.NewInt(0), &ms, &excess
	b1.ParentHash, b1.GasUsed, b1.GasLimit = common.HexToHash("0xfeed"), 51000, 15_000_000
	b2 := c.block()
	b2.BlockGasCost = big.NewInt(200_000)
	b3 := c.block(feeTx(1, 50000, 7))
	b3.BaseFee = nil
	// Two commits: the third block carries on from a row of the first.
	applyEVM(t, s, b1, b2)
	applyEVM(t, s, b3)

	got, ok, err := s.EVMBlock(ctx, evmChain, 1)
	require.NoError(err)
	require.True(ok)
	require.Equal(b1.Hash, got.Hash)
	require.Equal(b1.ParentHash, got.ParentHash)
	require.Equal(b1.Timestamp, got.Timestamp)
	require.Equal(uint64(51000), got.GasUsed)
	require.Equal(uint64(15_000_000), got.GasLimit)
	require.Equal(0, big.NewInt(0).Cmp(got.BlockGasCost))
	require.Equal(ms, *got.TimestampMs)
	require.Equal(excess, *got.MinDelayExcess)
	require.Equal(uint64(2), got.TxCount)
	require.Equal(int64(21000*10+30000*3), got.FeesSpent.Int64(), "fees of both txs, the failed one's too")
	require.Equal(uint64(2), got.CumulativeTxs)

	got, ok, err = s.EVMBlock(ctx, evmChain, 2)
	require.NoError(err)
	require.True(ok)
	require.Equal(int64(200_000), got.BlockGasCost.Int64())
	require.Nil(got.TimestampMs)
	require.Nil(got.MinDelayExcess)
	require.Equal(int64(0), got.FeesSpent.Int64())
	require.Equal(uint64(2), got.CumulativeTxs)

	byHash, ok, err := s.EVMBlockByHash(ctx, evmChain, b3.Hash)
	require.NoError(err)
	require.True(ok)
	require.Equal(uint64(3), byHash.Number)
	require.Nil(byHash.BaseFee)
	require.Equal(uint64(3), byHash.CumulativeTxs)
	require.Equal(int64(350000), byHash.FeesSpent.Int64())

	_, ok, err = s.EVMBlock(ctx, evmChain, 4)
	require.NoError(err)
	require.False(ok, "a block above the indexed height")
	_, ok, err = s.EVMBlockByHash(ctx, evmChain, common.HexToHash("0x1234"))
	require.NoError(err)
	require.False(ok, "an unknown hash")
}

func TestEVMBlocksListNewestFirstPinnedAndPaged(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	var c chainBuilder
	for range 6 {
		applyEVM(t, s, c.block(feeTx(1, 21000, 1)))
	}
	all, err := s.EVMBlocks(ctx, evmChain, evmdata.BlockQuery{Limit: 100})
	require.NoError(err)
	require.Equal([]uint64{6, 5, 4, 3, 2, 1}, blockNumbers(all))
	require.Equal(uint64(6), all[0].CumulativeTxs)

	pinned, err := s.EVMBlocks(ctx, evmChain, evmdata.BlockQuery{Pinned: 4, Limit: 2})
	require.NoError(err)
	require.Equal([]uint64{4, 3}, blockNumbers(pinned))
	after := uint64(3)
	next, err := s.EVMBlocks(ctx, evmChain, evmdata.BlockQuery{Pinned: 4, After: &after, Limit: 5})
	require.NoError(err)
	require.Equal([]uint64{2, 1}, blockNumbers(next))
	after = 1
	none, err := s.EVMBlocks(ctx, evmChain, evmdata.BlockQuery{Pinned: 4, After: &after, Limit: 5})
	require.NoError(err)
	require.Empty(none)
}

func TestEVMBlockTxsInBlockOrder(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	var c chainBuilder
	withTransfer := transferTx(alice, bob, nftMove(evmdata.Erc721, nft, alice, bob, 1, 1, 0))
	applyEVM(t, s, c.block(feeTx(1, 1, 1)), c.block(feeTx(1, 1, 1), withTransfer, feeTx(0, 1, 1)), c.block(feeTx(1, 1, 1)))

	txs, err := s.EVMBlockTxs(ctx, evmChain, 2, nil, 100)
	require.NoError(err)
	require.Equal([]evmdata.TxPos{{Block: 2, Index: 0}, {Block: 2, Index: 1}, {Block: 2, Index: 2}}, txPositions(txs))
	require.Equal(common.BigToHash(big.NewInt(2001)), txs[1].Tx.Hash)
	require.Empty(txs[1].Tx.Transfers, "the native shape carries no transfers")
	require.Equal(uint8(0), txs[2].Tx.Status)

	first := uint32(0)
	page, err := s.EVMBlockTxs(ctx, evmChain, 2, &first, 1)
	require.NoError(err)
	require.Equal([]evmdata.TxPos{{Block: 2, Index: 1}}, txPositions(page))
	last := uint32(2)
	page, err = s.EVMBlockTxs(ctx, evmChain, 2, &last, 10)
	require.NoError(err)
	require.Empty(page)
	empty, err := s.EVMBlockTxs(ctx, evmChain, 9, nil, 10)
	require.NoError(err)
	require.Empty(empty, "a block not indexed has no rows")
}

func TestLatestEVMTxsByStatus(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	var c chainBuilder
	applyEVM(t, s,
		c.block(feeTx(1, 1, 1), feeTx(0, 1, 1)),
		c.block(feeTx(0, 1, 1)),
		c.block(feeTx(1, 1, 1), feeTx(1, 1, 1)),
	)
	all, err := s.LatestEVMTxs(ctx, evmChain, evmdata.LatestTxQuery{Limit: 100})
	require.NoError(err)
	require.Equal([]evmdata.TxPos{pos(3, 1), pos(3, 0), pos(2, 0), pos(1, 1), pos(1, 0)}, txPositions(all))
	require.Equal(uint64(3), all[0].Block.Number)
	require.Equal(common.BigToHash(big.NewInt(3)), all[0].Block.Hash)

	failed, err := s.LatestEVMTxs(ctx, evmChain, evmdata.LatestTxQuery{Status: evmdata.FailedOnly, Limit: 100})
	require.NoError(err)
	require.Equal([]evmdata.TxPos{pos(2, 0), pos(1, 1)}, txPositions(failed))
	succeeded, err := s.LatestEVMTxs(ctx, evmChain, evmdata.LatestTxQuery{Status: evmdata.SucceededOnly, Limit: 100})
	require.NoError(err)
	require.Equal([]evmdata.TxPos{pos(3, 1), pos(3, 0), pos(1, 0)}, txPositions(succeeded))

	// Pinned at block 2, paged after its first item.
	after := evmdata.TxPos{Block: 2, Index: 0}
	page, err := s.LatestEVMTxs(ctx, evmChain, evmdata.LatestTxQuery{Pinned: 2, After: &after, Limit: 1})
	require.NoError(err)
	require.Equal([]evmdata.TxPos{pos(1, 1)}, txPositions(page))
	page, err = s.LatestEVMTxs(ctx, evmChain, evmdata.LatestTxQuery{Status: evmdata.SucceededOnly, Pinned: 2, Limit: 10})
	require.NoError(err)
	require.Equal([]evmdata.TxPos{pos(1, 0)}, txPositions(page))
	after = pos(3, 0)
	page, err = s.LatestEVMTxs(ctx, evmChain, evmdata.LatestTxQuery{Status: evmdata.SucceededOnly, After: &after, Limit: 10})
	require.NoError(err)
	require.Equal([]evmdata.TxPos{pos(1, 0)}, txPositions(page), "past the failures of blocks 2 and 1")
}

func pos(block uint64, index uint32) evmdata.TxPos { return evmdata.TxPos{Block: block, Index: index} }
