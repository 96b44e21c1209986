package store

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// typedHistoryChain writes four blocks of synthetic activity around alice:
//
//	1: alice -> bob (value); carol creates a contract (child)
//	2: bob -> token: ERC-20 mint to alice (log 0), alice -> bob (log 1),
//	   alice -> alice (log 2); frames: token -> alice (frame 1), bob ->
//	   carol (frame 3)
//	3: carol -> multi: ERC-1155 batch to alice (log 0, two elements), ERC-721
//	   alice -> carol (log 1); frame: child -> alice (frame 2)
//	4: alice creates a contract (failed: no contract address)
func typedHistoryChain(t *testing.T, s *Store) (child common.Address) {
	t.Helper()
	var c chainBuilder
	child = common.HexToAddress("0x000000000000000000000000000000000000c41d")
	erc20 := func(from, to common.Address, log uint32) evmdata.TokenTransfer {
		return evmdata.TokenTransfer{LogIndex: log, Token: token, Kind: evmdata.Erc20, From: from, To: to, Value: big.NewInt(int64(log + 1))}
	}
	batch := func(i uint16, id int64) evmdata.TokenTransfer {
		tr := nftMove(evmdata.Erc1155, multi, common.Address{}, alice, id, 3, 0)
		tr.BatchIndex = i
		return tr
	}
	creation := evmdata.Tx{From: carol, Status: 1, ContractAddress: &child}
	frames := []evmdata.InternalTx{
		{Index: 1, Type: evmdata.Call, From: token, To: alice, Value: big.NewInt(7)},
		{Index: 3, Type: evmdata.Call, From: bob, To: carol, Value: big.NewInt(8)},
	}
	tokenTx := transferTx(bob, token, erc20(common.Address{}, alice, 0), erc20(alice, bob, 1), erc20(alice, alice, 2))
	tokenTx.Internal = frames
	nftTx := transferTx(carol, multi, batch(0, 5), batch(1, 6), nftMove(evmdata.Erc721, nft, alice, carol, 9, 1, 1))
	nftTx.Internal = []evmdata.InternalTx{{Index: 2, Type: evmdata.SelfDestruct, From: child, To: alice, Value: big.NewInt(1)}}
	applyEVM(t, s,
		c.block(transferTx(alice, bob), creation),
		c.block(tokenTx),
		c.block(nftTx),
		c.block(evmdata.Tx{From: alice, Status: 0}),
	)
	return child
}

func TestAddressNativeTxs(t *testing.T) {
	s := openTest(t, t.TempDir())
	defer s.Close()
	child := typedHistoryChain(t, s)
	ctx := context.Background()
	list := func(q evmdata.AddressTxQuery) []evmdata.TxPos {
		t.Helper()
		txs, err := s.AddressNativeTxs(ctx, evmChain, q)
		require.NoError(t, err)
		out := []evmdata.TxPos{}
		for _, tx := range txs {
			require.Empty(t, tx.Tx.Transfers, "a native entry carries no transfers")
			require.Empty(t, tx.Tx.Internal, "a native entry carries no internal txs")
			require.NotEqual(t, common.Hash{}, tx.Block.Hash, "with its block")
			out = append(out, evmdata.TxPos{Block: tx.Block.Number, Index: tx.Tx.Index})
		}
		return out
	}
	require.Equal(t, []evmdata.TxPos{{Block: 4}, {Block: 1}}, list(evmdata.AddressTxQuery{Address: alice, Desc: true, Limit: 10}),
		"sender of 1 and 4; not in 2 and 3, where only its transfers and frames are")
	require.Equal(t, []evmdata.TxPos{{Block: 1}, {Block: 2}}, list(evmdata.AddressTxQuery{Address: bob, Limit: 10}),
		"recipient of 1, sender of 2")
	require.Equal(t, []evmdata.TxPos{{Block: 1, Index: 1}}, list(evmdata.AddressTxQuery{Address: child, Limit: 10}),
		"the created contract")
	require.Equal(t, []evmdata.TxPos{{Block: 2}}, list(evmdata.AddressTxQuery{Address: token, Limit: 10}))
	require.Equal(t, []evmdata.TxPos{{Block: 1, Index: 1}, {Block: 3}},
		list(evmdata.AddressTxQuery{Address: carol, Limit: 10}), "the sender of a creation")

	// Windows, pinning and positions.
	require.Equal(t, []evmdata.TxPos{{Block: 1}}, list(evmdata.AddressTxQuery{Address: alice, Blocks: evmdata.BlockRange{To: 4}, Limit: 10}))
	require.Equal(t, []evmdata.TxPos{{Block: 4}}, list(evmdata.AddressTxQuery{Address: alice, Blocks: evmdata.BlockRange{From: 2}, Limit: 10}))
	require.Equal(t, []evmdata.TxPos{{Block: 1}}, list(evmdata.AddressTxQuery{Address: alice, Pinned: 3, Desc: true, Limit: 10}))
	require.Equal(t, []evmdata.TxPos{{Block: 1}},
		list(evmdata.AddressTxQuery{Address: alice, Desc: true, After: &evmdata.TxPos{Block: 4}, Limit: 10}))
	require.Equal(t, []evmdata.TxPos{{Block: 4}},
		list(evmdata.AddressTxQuery{Address: alice, After: &evmdata.TxPos{Block: 1}, Limit: 10}))
	require.Equal(t, []evmdata.TxPos{{Block: 4}}, list(evmdata.AddressTxQuery{Address: alice, Desc: true, Limit: 1}))
	require.Equal(t, []evmdata.TxPos{}, list(evmdata.AddressTxQuery{Address: alice, Limit: 0}))
}

func TestAddressTransfers(t *testing.T) {
	s := openTest(t, t.TempDir())
	defer s.Close()
	typedHistoryChain(t, s)
	ctx := context.Background()
	list := func(q evmdata.AddressTransferQuery) []evmdata.TransferPos {
		t.Helper()
		ts, err := s.AddressTransfers(ctx, evmChain, q)
		require.NoError(t, err)
		out := []evmdata.TransferPos{}
		for _, tr := range ts {
			require.Equal(t, q.Kind, tr.Kind)
			require.True(t, tr.Involves(q.Address))
			require.NotEqual(t, common.Hash{}, tr.TxHash)
			require.Equal(t, common.BigToHash(big.NewInt(int64(tr.Block.Number*1000+uint64(tr.TxIndex)))), tr.TxHash)
			require.Equal(t, 1_700_000_000+tr.Block.Number, tr.Block.Timestamp)
			out = append(out, evmdata.TransferPos{Block: tr.Block.Number, LogIndex: tr.LogIndex, BatchIndex: tr.BatchIndex})
		}
		return out
	}
	erc20 := evmdata.AddressTransferQuery{Address: alice, Kind: evmdata.Erc20, Desc: true, Limit: 10}
	require.Equal(t, []evmdata.TransferPos{{Block: 2, LogIndex: 2}, {Block: 2, LogIndex: 1}, {Block: 2}}, list(erc20),
		"the mint to alice, alice's send and her transfer to herself (once)")
	bobs := erc20
	bobs.Address = bob
	require.Equal(t, []evmdata.TransferPos{{Block: 2, LogIndex: 1}}, list(bobs), "a tx's sender has only its own transfers")

	erc1155 := evmdata.AddressTransferQuery{Address: alice, Kind: evmdata.Erc1155, Desc: true, Limit: 10}
	require.Equal(t, []evmdata.TransferPos{{Block: 3, BatchIndex: 1}, {Block: 3}}, list(erc1155), "each batch element")
	erc1155.Desc = false
	require.Equal(t, []evmdata.TransferPos{{Block: 3}, {Block: 3, BatchIndex: 1}}, list(erc1155))
	erc1155.After = &evmdata.TransferPos{Block: 3}
	require.Equal(t, []evmdata.TransferPos{{Block: 3, BatchIndex: 1}}, list(erc1155), "resumes within a batch")

	erc721 := evmdata.AddressTransferQuery{Address: carol, Kind: evmdata.Erc721, Desc: true, Limit: 10}
	require.Equal(t, []evmdata.TransferPos{{Block: 3, LogIndex: 1}}, list(erc721))
	erc721.Blocks = evmdata.BlockRange{From: 1, To: 3}
	require.Equal(t, []evmdata.TransferPos{}, list(erc721), "endBlock is exclusive")
	erc721.Blocks, erc721.Pinned = evmdata.BlockRange{}, 2
	require.Equal(t, []evmdata.TransferPos{}, list(erc721), "nothing above the pinned height")

	// Paging one at a time ends with every transfer once.
	var paged []evmdata.TransferPos
	q := evmdata.AddressTransferQuery{Address: alice, Kind: evmdata.Erc20, Desc: true, Limit: 1}
	for {
		page := list(q)
		if len(page) == 0 {
			break
		}
		paged = append(paged, page...)
		q.After = &page[0]
	}
	require.Equal(t, list(erc20), paged)

	_, err := s.AddressTransfers(ctx, evmChain, evmdata.AddressTransferQuery{Address: alice, Kind: evmdata.ErcUnknown, Limit: 1})
	require.Error(t, err, "no history of an unknown standard")
}

func TestAddressInternalTxs(t *testing.T) {
	s := openTest(t, t.TempDir())
	defer s.Close()
	child := typedHistoryChain(t, s)
	ctx := context.Background()
	list := func(q evmdata.AddressInternalQuery) []evmdata.InternalPos {
		t.Helper()
		its, err := s.AddressInternalTxs(ctx, evmChain, q)
		require.NoError(t, err)
		out := []evmdata.InternalPos{}
		for _, it := range its {
			require.True(t, it.Involves(q.Address))
			require.Equal(t, common.BigToHash(big.NewInt(int64(it.Block.Number*1000+uint64(it.TxIndex)))), it.TxHash)
			require.Equal(t, common.BigToHash(big.NewInt(int64(it.Block.Number))), it.Block.Hash)
			out = append(out, evmdata.InternalPos{Block: it.Block.Number, TxIndex: it.TxIndex, Frame: it.Index})
		}
		return out
	}
	require.Equal(t, []evmdata.InternalPos{{Block: 3, Frame: 2}, {Block: 2, Frame: 1}},
		list(evmdata.AddressInternalQuery{Address: alice, Desc: true, Limit: 10}))
	require.Equal(t, []evmdata.InternalPos{{Block: 2, Frame: 1}, {Block: 3, Frame: 2}},
		list(evmdata.AddressInternalQuery{Address: alice, Limit: 10}))
	require.Equal(t, []evmdata.InternalPos{{Block: 2, Frame: 3}}, list(evmdata.AddressInternalQuery{Address: carol, Limit: 10}))
	require.Equal(t, []evmdata.InternalPos{{Block: 3, Frame: 2}}, list(evmdata.AddressInternalQuery{Address: child, Limit: 10}))
	require.Equal(t, []evmdata.InternalPos{{Block: 2, Frame: 1}},
		list(evmdata.AddressInternalQuery{Address: alice, Desc: true, After: &evmdata.InternalPos{Block: 3, Frame: 2}, Limit: 10}))
	require.Equal(t, []evmdata.InternalPos{{Block: 3, Frame: 2}},
		list(evmdata.AddressInternalQuery{Address: alice, Blocks: evmdata.BlockRange{From: 3}, Limit: 10}))
	require.Equal(t, []evmdata.InternalPos{{Block: 3, Frame: 2}}, list(evmdata.AddressInternalQuery{Address: alice, Desc: true, Limit: 1}))

	its, err := s.AddressInternalTxs(ctx, evmChain, evmdata.AddressInternalQuery{Address: carol, Limit: 1})
	require.NoError(t, err)
	require.Equal(t, evmdata.InternalTx{Index: 3, Type: evmdata.Call, From: bob, To: carol, Value: big.NewInt(8)}, its[0].InternalTx)
}

// BenchmarkAddressTransfersPage reads the newest page of 10 of an address
// with 100 and with 10,000 transfers: a page costs the same whatever the
// length of the history.
func BenchmarkAddressTransfersPage(b *testing.B) {
	for _, blocks := range []int{10, 1000} {
		b.Run(fmt.Sprintf("history=%d", blocks*10), func(b *testing.B) {
			s, err := Open(b.TempDir(), logging.NoLog{})
			require.NoError(b, err)
			defer s.Close()
			var c chainBuilder
			for done := 0; done < blocks; done += 10 {
				var batch []*evmdata.Block
				for range 10 {
					transfers := make([]evmdata.TokenTransfer, 10)
					for i := range transfers {
						transfers[i] = evmdata.TokenTransfer{LogIndex: uint32(i), Token: token, Kind: evmdata.Erc20,
							From: alice, To: bob, Value: big.NewInt(1)}
					}
					batch = append(batch, c.block(transferTx(alice, token, transfers...)))
				}
				require.NoError(b, s.EVMWriter(evmChain).Apply(context.Background(), batch, time.Now()))
			}
			ctx := context.Background()
			b.ResetTimer()
			for range b.N {
				page, err := s.AddressTransfers(ctx, evmChain,
					evmdata.AddressTransferQuery{Address: alice, Kind: evmdata.Erc20, Desc: true, Limit: 11})
				if err != nil || len(page) != 11 {
					b.Fatal(err, len(page))
				}
			}
		})
	}
}
