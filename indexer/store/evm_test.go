package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

var (
	alice = common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	bob   = common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	carol = common.HexToAddress("0x00000000000000000000000000000000000ca201")
	token = common.HexToAddress("0x00000000000000000000000000000000000070c0")
	nft   = common.HexToAddress("0x0000000000000000000000000000000000000721")
	multi = common.HexToAddress("0x0000000000000000000000000000000000001155")
)

const evmChain = netinfo.FirstRegistered

// chainBuilder makes consecutive blocks of synthetic transactions.
type chainBuilder struct{ next uint64 }

func (c *chainBuilder) block(txs ...evmdata.Tx) *evmdata.Block {
	n := c.next + 1
	c.next = n
	for i := range txs {
		txs[i].Index = uint32(i)
		txs[i].Hash = common.BigToHash(big.NewInt(int64(n*1000 + uint64(i))))
		if txs[i].Value == nil {
			txs[i].Value = new(big.Int)
		}
	}
	return &evmdata.Block{Number: n, Hash: common.BigToHash(big.NewInt(int64(n))), Timestamp: 1_700_000_000 + n,
		BaseFee: big.NewInt(25), Txs: txs, Traced: true}
}

func transferTx(from, to common.Address, transfers ...evmdata.TokenTransfer) evmdata.Tx {
	return evmdata.Tx{From: from, To: &to, Status: 1, Transfers: transfers}
}

func nftMove(kind evmdata.ErcType, contract, from, to common.Address, id, value int64, log uint32) evmdata.TokenTransfer {
	return evmdata.TokenTransfer{LogIndex: log, Token: contract, Kind: kind, From: from, To: to,
		TokenID: big.NewInt(id), Value: big.NewInt(value)}
}

func applyEVM(t *testing.T, s *Store, blocks ...*evmdata.Block) {
	t.Helper()
	require.NoError(t, s.EVMWriter(evmChain).Apply(context.Background(), blocks, time.Now()))
}

func TestEVMAddressTxsPagesBothWaysAndFiltersEntries(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	erc20 := func(from, to common.Address, log uint32) evmdata.TokenTransfer {
		return evmdata.TokenTransfer{LogIndex: log, Token: token, Kind: evmdata.Erc20, From: from, To: to, Value: big.NewInt(5)}
	}
	applyEVM(t, s,
		c.block(transferTx(alice, bob), transferTx(carol, token, erc20(carol, bob, 0), erc20(bob, alice, 1))),
		c.block(transferTx(bob, carol)),
		c.block(evmdata.Tx{From: carol, To: &token, Status: 1, Internal: []evmdata.InternalTx{
			{Index: 2, Type: evmdata.Call, From: token, To: alice, Value: big.NewInt(9)}}}),
	)
	ctx := context.Background()
	all, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: bob, Desc: true, Limit: 10})
	require.NoError(err)
	require.Len(all, 3)
	require.Equal(uint64(2), all[0].Block.Number)
	require.Equal(uint64(1), all[1].Block.Number)
	require.Equal(uint32(1), all[1].Tx.Index)
	require.Len(all[1].Tx.Transfers, 2, "both transfers involve bob")

	alices, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: alice, Limit: 10})
	require.NoError(err)
	require.Len(alices, 3)
	require.Len(alices[1].Tx.Transfers, 1, "only the transfer to alice")
	require.Len(alices[2].Tx.Internal, 1)
	require.Equal(big.NewInt(9), alices[2].Tx.Internal[0].Value)

	// Page by one, ascending and descending, with a pinned height.
	for _, desc := range []bool{false, true} {
		var seen []evmdata.TxPos
		var after *evmdata.TxPos
		for {
			page, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: bob, Desc: desc, After: after, Limit: 1, Pinned: 2})
			require.NoError(err)
			if len(page) == 0 {
				break
			}
			pos := evmdata.TxPos{Block: page[0].Block.Number, Index: page[0].Tx.Index}
			seen = append(seen, pos)
			after = &pos
		}
		require.Len(seen, 3, "desc=%v", desc)
	}
	// Block range: [2, 3).
	ranged, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: bob, Blocks: evmdata.BlockRange{From: 2, To: 3}, Limit: 10})
	require.NoError(err)
	require.Len(ranged, 1)

	byHash, ok, err := s.TxByHash(ctx, evmChain, all[1].Tx.Hash)
	require.NoError(err)
	require.True(ok)
	require.Len(byHash.Tx.Transfers, 2)
	require.True(byHash.Traced)

	transfers, err := s.TokenTransfers(ctx, evmChain, evmdata.TransferQuery{Token: token, Limit: 10})
	require.NoError(err)
	require.Len(transfers, 2)
	require.Equal(uint32(1), transfers[0].LogIndex, "newest first")
	require.Equal(all[1].Tx.Hash, transfers[0].TxHash)

	// An index written before 0x82 left the native parties out has a 0x82
	// row for them too: each tx is still listed once, in order.
	positions := func(addr common.Address, desc bool) []evmdata.TxPos {
		txs, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: addr, Desc: desc, Limit: 10})
		require.NoError(err)
		var out []evmdata.TxPos
		for _, tx := range txs {
			out = append(out, evmdata.TxPos{Block: tx.Block.Number, Index: tx.Tx.Index})
		}
		return out
	}
	parties := []common.Address{alice, bob, carol, token}
	before := map[common.Address][2][]evmdata.TxPos{}
	for _, a := range parties {
		before[a] = [2][]evmdata.TxPos{positions(a, false), positions(a, true)}
	}
	// The old layout: a row per position, and a 0x82 row for each native
	// party's position too.
	toOneRowPerPosition(t, s, []byte{tagEVMAddr, tagEVMToken, tagActivity}, nil, func(k, pos []byte) []byte {
		if k[0] != tagActivity || k[22] != activityNative {
			return nil
		}
		return newKey(tagEVMAddr, evmChain).bytes(k[2:22]).bytes(pos)
	})
	for _, a := range parties {
		require.Equal(before[a], [2][]evmdata.TxPos{positions(a, false), positions(a, true)}, "%s", a)
	}
	for _, a := range parties {
		active, err := s.HasActivity(ctx, evmChain, a)
		require.NoError(err)
		require.True(active)
	}
}

func TestEVMNFTOwnershipAndHolders(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	zero := common.Address{}
	applyEVM(t, s,
		c.block(transferTx(alice, nft, nftMove(evmdata.Erc721, nft, zero, alice, 1, 1, 0), nftMove(evmdata.Erc721, nft, zero, alice, 2, 1, 1))),
		c.block(transferTx(alice, nft, nftMove(evmdata.Erc721, nft, alice, bob, 1, 1, 0))),
		c.block(transferTx(bob, nft, nftMove(evmdata.Erc721, nft, bob, zero, 1, 1, 0))),
		c.block(transferTx(alice, multi,
			nftMove(evmdata.Erc1155, multi, zero, alice, 7, 10, 0),
			nftMove(evmdata.Erc1155, multi, alice, bob, 7, 4, 1),
			nftMove(evmdata.Erc1155, multi, alice, carol, 7, 6, 2),
		)),
	)
	ctx := context.Background()
	holders, coll, err := s.Holders(ctx, evmChain, nft, nil, 10, 0)
	require.NoError(err)
	require.Equal(evmdata.Collection{Holders: 1, Tokens: 1}, coll, "token 1 burnt, token 2 with alice")
	require.Equal([]evmdata.Holder{{Address: alice, Tokens: 1}}, holders)

	owner, err := s.NFTOwner(ctx, evmChain, nft, big.NewInt(2))
	require.NoError(err)
	require.Equal(alice, owner)

	nfts, err := s.NFTsOf(ctx, evmChain, alice, nil, nil, 10, 0)
	require.NoError(err)
	require.Len(nfts, 1, "alice gave all her ERC-1155 away")
	require.Equal(evmdata.Erc721, nfts[0].Kind)

	holders, coll, err = s.Holders(ctx, evmChain, multi, nil, 10, 0)
	require.NoError(err)
	require.Equal(evmdata.Collection{Holders: 2, Tokens: 1}, coll)
	require.Len(holders, 2)
	bobs, err := s.NFTsOf(ctx, evmChain, bob, &multi, nil, 10, 0)
	require.NoError(err)
	require.Equal(big.NewInt(4), bobs[0].Balance)

	// As of earlier blocks, from the history rows.
	holders, coll, err = s.Holders(ctx, evmChain, nft, nil, 10, 1)
	require.NoError(err)
	require.Equal(evmdata.Collection{Holders: 1, Tokens: 2}, coll)
	require.Equal([]evmdata.Holder{{Address: alice, Tokens: 2}}, holders)
	holders, coll, err = s.Holders(ctx, evmChain, nft, nil, 10, 2)
	require.NoError(err)
	require.Equal(evmdata.Collection{Holders: 2, Tokens: 2}, coll)
	require.ElementsMatch([]evmdata.Holder{{Address: alice, Tokens: 1}, {Address: bob, Tokens: 1}}, holders)
	for pinned, want := range map[uint64]int{1: 0, 2: 1, 3: 0, 4: 1} {
		got, err := s.NFTsOf(ctx, evmChain, bob, nil, nil, 10, pinned)
		require.NoError(err)
		require.Len(got, want, "bob's NFTs as of block %d", pinned)
	}
	asOf4, coll4, err := s.Holders(ctx, evmChain, multi, nil, 10, 4)
	require.NoError(err)
	now, collNow, err := s.Holders(ctx, evmChain, multi, nil, 10, 0)
	require.NoError(err)
	require.Equal(now, asOf4, "as of the head equals the current state")
	require.Equal(collNow, coll4)
	after, _, err := s.Holders(ctx, evmChain, multi, &asOf4[0].Address, 10, 4)
	require.NoError(err)
	require.Equal(asOf4[1:], after)

	// Paging holders by address.
	first, _, err := s.Holders(ctx, evmChain, multi, nil, 1, 0)
	require.NoError(err)
	rest, _, err := s.Holders(ctx, evmChain, multi, &first[0].Address, 10, 0)
	require.NoError(err)
	require.Len(rest, 1)
	require.NotEqual(first[0].Address, rest[0].Address)

	contract, ok, err := s.Contract(ctx, evmChain, multi)
	require.NoError(err)
	require.True(ok)
	require.Equal(evmdata.Erc1155, contract.Kind)
	pending, err := s.PendingContracts(ctx, evmChain, 10)
	require.NoError(err)
	require.Len(pending, 2, "token contracts queued for their metadata")
	contract.Name = "Multi"
	require.NoError(s.SetContractMetadata(ctx, evmChain, contract))
	pending, err = s.PendingContracts(ctx, evmChain, 10)
	require.NoError(err)
	require.Len(pending, 1)
	described, _, err := s.Contract(ctx, evmChain, multi)
	require.NoError(err)
	require.Equal("Multi", described.Name)
	require.True(described.MetadataRead)
}

func TestEVMDeploymentsOnlyFromSuccessfulTxs(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	made := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	child := common.HexToAddress("0x00000000000000000000000000000000000000bb")
	failed := common.HexToAddress("0x00000000000000000000000000000000000000cc")
	applyEVM(t, s, c.block(
		evmdata.Tx{From: alice, Status: 1, ContractAddress: &made, Creations: []evmdata.ContractCreation{
			{Address: made, Deployer: alice}, {Address: child, Deployer: alice, DeployerContract: made}}},
		evmdata.Tx{From: alice, Status: 0, Creations: []evmdata.ContractCreation{{Address: failed, Deployer: alice}}},
	))
	ctx := context.Background()
	got, ok, err := s.Contract(ctx, evmChain, child)
	require.NoError(err)
	require.True(ok)
	require.True(got.Deployment.Factory)
	require.Equal(made, got.Deployment.DeployerContract)
	_, ok, err = s.Contract(ctx, evmChain, failed)
	require.NoError(err)
	require.False(ok)
}

// A batch larger than one Badger transaction is committed in several, each
// with whole blocks and the cursor.
func TestEVMBatchLargerThanATransactionIsSplit(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	input := make([]byte, 900)
	var blocks []*evmdata.Block
	for range 40 {
		txs := make([]evmdata.Tx, 500)
		for i := range txs {
			txs[i] = transferTx(alice, bob)
			txs[i].Input = input
		}
		blocks = append(blocks, c.block(txs...))
	}
	applyEVM(t, s, blocks...)
	cursor, err := s.Cursor(context.Background(), evmChain, StreamBlocks)
	require.NoError(err)
	require.Equal(uint64(41), cursor.NextHeight)
	buckets, err := s.TPSBuckets(context.Background(), evmChain, 0, 1)
	require.NoError(err)
	require.Equal(uint64(40*500), buckets[0].TxCount)
}

func TestRegisterChainIsStable(t *testing.T) {
	require := require.New(t)
	dir := t.TempDir()
	s := openTest(t, dir)
	ctx := context.Background()
	a, err := s.RegisterChain(ctx, [32]byte{1})
	require.NoError(err)
	b, err := s.RegisterChain(ctx, [32]byte{2})
	require.NoError(err)
	require.Equal(netinfo.FirstRegistered, a)
	require.Equal(netinfo.FirstRegistered+1, b)
	require.NoError(s.Close())
	s = openTest(t, dir)
	defer s.Close()
	again, err := s.RegisterChain(ctx, [32]byte{2})
	require.NoError(err)
	require.Equal(b, again)
}
