package store

import (
	"context"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

func erc20Move(contract, from, to common.Address, value int64, log uint32) evmdata.TokenTransfer {
	return evmdata.TokenTransfer{LogIndex: log, Token: contract, Kind: evmdata.Erc20, From: from, To: to, Value: big.NewInt(value)}
}

func TestTokensOfListsEveryTokenMovedOfAStandard(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	zero := common.Address{}
	token2 := common.HexToAddress("0x00000000000000000000000000000000000070c1")
	token3 := common.HexToAddress("0x00000000000000000000000000000000000070c2")
	applyEVM(t, s,
		c.block(transferTx(alice, token, erc20Move(token, zero, alice, 5, 0), erc20Move(token3, zero, bob, 5, 1))),
		c.block(transferTx(alice, token2, erc20Move(token2, zero, alice, 5, 0))),
		// alice gives all of token away: still a candidate.
		c.block(transferTx(alice, token, erc20Move(token, alice, carol, 5, 0), nftMove(evmdata.Erc721, nft, zero, alice, 1, 1, 1))),
	)
	ctx := context.Background()
	got, err := s.TokensOf(ctx, evmChain, alice, evmdata.Erc20, nil, 10)
	require.NoError(err)
	require.Equal([]common.Address{token, token2}, got, "by token address, the ERC-721 left out")
	page, err := s.TokensOf(ctx, evmChain, alice, evmdata.Erc20, nil, 1)
	require.NoError(err)
	require.Equal([]common.Address{token}, page)
	rest, err := s.TokensOf(ctx, evmChain, alice, evmdata.Erc20, &page[0], 10)
	require.NoError(err)
	require.Equal([]common.Address{token2}, rest)
	nfts, err := s.TokensOf(ctx, evmChain, alice, evmdata.Erc721, nil, 10)
	require.NoError(err)
	require.Equal([]common.Address{nft}, nfts)
	carols, err := s.TokensOf(ctx, evmChain, carol, evmdata.Erc20, nil, 10)
	require.NoError(err)
	require.Equal([]common.Address{token}, carols, "a receiver has the row too")
	none, err := s.TokensOf(ctx, evmChain, common.Address{9}, evmdata.Erc20, nil, 10)
	require.NoError(err)
	require.Empty(none)
}

func TestNFTCandidatesKeepERC1155IdsGivenAway(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	zero := common.Address{}
	applyEVM(t, s,
		c.block(transferTx(alice, nft, nftMove(evmdata.Erc721, nft, zero, alice, 1, 1, 0), nftMove(evmdata.Erc721, nft, zero, alice, 2, 1, 1))),          // 1
		c.block(transferTx(alice, multi, nftMove(evmdata.Erc1155, multi, zero, alice, 7, 10, 0), nftMove(evmdata.Erc1155, multi, zero, alice, 8, 3, 1))), // 2
		c.block(transferTx(alice, nft, nftMove(evmdata.Erc721, nft, alice, bob, 1, 1, 0))),                                                               // 3
		c.block(transferTx(alice, multi, nftMove(evmdata.Erc1155, multi, alice, bob, 7, 10, 0))),                                                         // 4
		c.block(transferTx(alice, multi, nftMove(evmdata.Erc1155, multi, zero, alice, 9, 1, 0))),                                                         // 5
	)
	ctx := context.Background()
	type cand struct {
		contract common.Address
		id       int64
		kind     evmdata.ErcType
		balance  int64
	}
	list := func(kind evmdata.ErcType, contract *common.Address, after *evmdata.NFTPos, limit int, pinned uint64) []cand {
		got, err := s.NFTCandidates(ctx, evmChain, alice, contract, kind, after, limit, pinned)
		require.NoError(err)
		var out []cand
		for _, n := range got {
			require.Equal(alice, n.Owner)
			out = append(out, cand{n.Contract, n.TokenID.Int64(), n.Kind, n.Balance.Int64()})
		}
		return out
	}
	// nft (0x..0721) sorts before multi (0x..1155).
	require.Equal([]cand{
		{nft, 2, evmdata.Erc721, 1},
		{multi, 7, evmdata.Erc1155, 0}, // given away by block 4: still a candidate
		{multi, 8, evmdata.Erc1155, 3},
		{multi, 9, evmdata.Erc1155, 1},
	}, list(evmdata.ErcUnknown, nil, nil, 10, 5), "token 1 given away is no candidate, ERC-1155 id 7 is")
	require.Equal([]cand{
		{nft, 1, evmdata.Erc721, 1}, {nft, 2, evmdata.Erc721, 1},
		{multi, 7, evmdata.Erc1155, 10}, {multi, 8, evmdata.Erc1155, 3},
	}, list(evmdata.ErcUnknown, nil, nil, 10, 2), "as of block 2: nothing of later blocks")
	require.Equal([]cand{{multi, 7, evmdata.Erc1155, 0}, {multi, 8, evmdata.Erc1155, 3}, {multi, 9, evmdata.Erc1155, 1}},
		list(evmdata.Erc1155, nil, nil, 10, 5))
	require.Equal([]cand{{nft, 2, evmdata.Erc721, 1}}, list(evmdata.Erc721, nil, nil, 10, 5))
	require.Equal([]cand{{multi, 7, evmdata.Erc1155, 0}}, list(evmdata.Erc1155, &multi, nil, 1, 5))
	require.Equal([]cand{{multi, 8, evmdata.Erc1155, 3}, {multi, 9, evmdata.Erc1155, 1}},
		list(evmdata.Erc1155, &multi, &evmdata.NFTPos{Contract: multi, TokenID: big.NewInt(7)}, 10, 5), "paging after id 7")
	require.Empty(list(evmdata.ErcUnknown, &nft, &evmdata.NFTPos{Contract: nft, TokenID: big.NewInt(2)}, 10, 5))
}
