package store

import (
	"context"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// A tx with one transfer is read with a point read, unless that transfer
// is not its log's first batch entry; either way each tx gets exactly its
// own transfers.
func TestEVMTxWithOneTransfer(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	token := common.HexToAddress("0x00000000000000000000000000000000000000dd")
	multi := common.HexToAddress("0x00000000000000000000000000000000000000ee")
	erc20 := evmdata.TokenTransfer{LogIndex: 0, Token: token, Kind: evmdata.Erc20, From: alice, To: bob, Value: big.NewInt(5)}
	// The second entry of a batch whose first moved nothing the index keeps.
	batchEntry := evmdata.TokenTransfer{LogIndex: 1, BatchIndex: 1, Token: multi, Kind: evmdata.Erc1155, From: alice, To: bob,
		TokenID: big.NewInt(7), Value: big.NewInt(2)}
	two := []evmdata.TokenTransfer{
		{LogIndex: 2, Token: token, Kind: evmdata.Erc20, From: bob, To: alice, Value: big.NewInt(1)},
		{LogIndex: 3, Token: token, Kind: evmdata.Erc20, From: alice, To: carol, Value: big.NewInt(1)},
	}
	blk := c.block(transferTx(alice, token, erc20), transferTx(alice, multi, batchEntry), transferTx(bob, token, two...))
	applyEVM(t, s, blk)
	ctx := context.Background()
	for i, want := range [][]evmdata.TokenTransfer{{erc20}, {batchEntry}, two} {
		tx, found, err := s.TxByHash(ctx, evmChain, blk.Txs[i].Hash)
		require.NoError(err)
		require.True(found)
		require.Len(tx.Tx.Transfers, len(want), "tx %d", i)
		for j := range want {
			require.Equal(want[j].LogIndex, tx.Tx.Transfers[j].LogIndex, "tx %d", i)
			require.Equal(want[j].BatchIndex, tx.Tx.Transfers[j].BatchIndex, "tx %d", i)
			require.Equal(want[j].To, tx.Tx.Transfers[j].To, "tx %d", i)
			require.Zero(want[j].Value.Cmp(tx.Tx.Transfers[j].Value), "tx %d", i)
		}
	}
	// Filtered by an address: carol is in the third tx's second transfer only.
	page, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: carol, Limit: 10})
	require.NoError(err)
	require.Len(page, 1)
	require.Len(page[0].Tx.Transfers, 1)
	require.Equal(carol, page[0].Tx.Transfers[0].To)
}
