package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

func tokenIDs(tokens []evmdata.CollectionToken) []int64 {
	out := make([]int64, len(tokens))
	for i, t := range tokens {
		out[i] = t.TokenID.Int64()
	}
	return out
}

func TestCollectionTokensFollowOwnershipAndSupply(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	zero := common.Address{}
	applyEVM(t, s,
		c.block(transferTx(alice, nft,
			nftMove(evmdata.Erc721, nft, zero, alice, 3, 1, 0),
			nftMove(evmdata.Erc721, nft, zero, bob, 1, 1, 1),
			nftMove(evmdata.Erc721, nft, zero, alice, 300, 1, 2),
			nftMove(evmdata.Erc1155, multi, zero, alice, 7, 5, 3),
			nftMove(evmdata.Erc1155, multi, zero, bob, 2, 1, 4),
		)),
		c.block(transferTx(alice, nft,
			nftMove(evmdata.Erc721, nft, alice, carol, 3, 1, 0),
			nftMove(evmdata.Erc721, nft, bob, zero, 1, 1, 1),    // burnt
			nftMove(evmdata.Erc1155, multi, bob, zero, 2, 1, 2), // supply back to 0
			nftMove(evmdata.Erc1155, multi, alice, bob, 7, 2, 3),
		)),
	)
	ctx := context.Background()
	meta := evmdata.NFTMetadata{TokenURI: "data:,x", Status: evmdata.IndexStatusIndexed, Name: "three"}
	require.NoError(s.SetNFTMetadata(ctx, evmChain, nft, big.NewInt(3), meta))

	tokens, err := s.CollectionTokens(ctx, evmChain, nft, evmdata.Erc721, nil, 10)
	require.NoError(err)
	require.Equal([]int64{3, 300}, tokenIDs(tokens), "by token id; the burnt token is gone")
	require.Equal(carol, tokens[0].Owner)
	require.Equal(&meta, tokens[0].Metadata)
	require.Nil(tokens[1].Metadata, "not read yet")

	page, err := s.CollectionTokens(ctx, evmChain, nft, evmdata.Erc721, big.NewInt(3), 1)
	require.NoError(err)
	require.Equal([]int64{300}, tokenIDs(page), "resumes after the given id")

	multis, err := s.CollectionTokens(ctx, evmChain, multi, evmdata.Erc1155, nil, 10)
	require.NoError(err)
	require.Equal([]int64{7}, tokenIDs(multis))
	require.Equal(big.NewInt(5), multis[0].Supply, "transfers between holders keep the supply")

	none, err := s.CollectionTokens(ctx, evmChain, nft, evmdata.Erc1155, nil, 10)
	require.NoError(err)
	require.Empty(none, "each standard lists its own rows")

	one, found, err := s.CollectionToken(ctx, evmChain, nft, big.NewInt(300))
	require.NoError(err)
	require.True(found)
	require.Equal(evmdata.Erc721, one.Kind)
	require.Equal(alice, one.Owner)
	one, found, err = s.CollectionToken(ctx, evmChain, multi, big.NewInt(7))
	require.NoError(err)
	require.True(found)
	require.Equal(evmdata.Erc1155, one.Kind)
	require.Equal(big.NewInt(5), one.Supply)
	for _, gone := range []struct {
		contract common.Address
		id       int64
	}{{nft, 1}, {multi, 2}, {nft, 99}, {token, 3}} {
		_, found, err = s.CollectionToken(ctx, evmChain, gone.contract, big.NewInt(gone.id))
		require.NoError(err)
		require.False(found, "%s #%d", gone.contract, gone.id)
	}
}

func TestDeployedByListsTopLevelAndFactoryCreations(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	factory := common.HexToAddress("0x00000000000000000000000000000000000fac70")
	kid1 := common.HexToAddress("0x0000000000000000000000000000000000000c01")
	kid2 := common.HexToAddress("0x0000000000000000000000000000000000000c02")
	kid3 := common.HexToAddress("0x0000000000000000000000000000000000000c03")
	deploy := evmdata.Tx{From: alice, ContractAddress: &factory, Status: 1,
		Creations: []evmdata.ContractCreation{{Address: factory, Deployer: alice}}}
	create := evmdata.Tx{From: bob, To: &factory, Status: 1, Creations: []evmdata.ContractCreation{
		{Address: kid1, Deployer: bob, DeployerContract: factory},
		{Address: kid2, Deployer: bob, DeployerContract: factory},
	}}
	again := evmdata.Tx{From: alice, To: &factory, Status: 1, Creations: []evmdata.ContractCreation{
		{Address: kid3, Deployer: alice, DeployerContract: factory},
	}}
	applyEVM(t, s, c.block(deploy), c.block(transferTx(carol, bob), create), c.block(again))
	ctx := context.Background()
	addrs := func(list []evmdata.DeployedContract) []common.Address {
		out := make([]common.Address, len(list))
		for i, d := range list {
			out[i] = d.Contract.Address
		}
		return out
	}

	byAlice, err := s.DeployedBy(ctx, evmChain, alice, nil, 10, 0)
	require.NoError(err)
	require.Equal([]common.Address{kid3, factory}, addrs(byAlice), "newest first: its own and the one it had the factory make")
	require.NotNil(byAlice[1].Contract.Deployment)
	require.Equal(alice, byAlice[1].Contract.Deployment.Deployer)

	byFactory, err := s.DeployedBy(ctx, evmChain, factory, nil, 10, 0)
	require.NoError(err)
	require.Equal([]common.Address{kid3, kid2, kid1}, addrs(byFactory))
	require.Equal(evmdata.TxPos{Block: 2, Index: 1}, byFactory[1].Pos.Tx)

	page, err := s.DeployedBy(ctx, evmChain, factory, &byFactory[1].Pos, 10, 0)
	require.NoError(err)
	require.Equal([]common.Address{kid1}, addrs(page), "resumes after a contract of the same tx")
	pinned, err := s.DeployedBy(ctx, evmChain, factory, nil, 10, 2)
	require.NoError(err)
	require.Equal([]common.Address{kid2, kid1}, addrs(pinned), "nothing above the pinned height")
	limited, err := s.DeployedBy(ctx, evmChain, factory, nil, 1, 0)
	require.NoError(err)
	require.Len(limited, 1)
	none, err := s.DeployedBy(ctx, evmChain, carol, nil, 10, 0)
	require.NoError(err)
	require.Empty(none)

	for addr, want := range map[common.Address]bool{alice: true, carol: true, factory: true, token: false} {
		active, err := s.HasActivity(ctx, evmChain, addr)
		require.NoError(err)
		require.Equal(want, active, addr.Hex())
	}
	active, err := s.HasActivity(ctx, evmChain+1, alice)
	require.NoError(err)
	require.False(active, "activity is per chain")
}

func TestRequestNFTReindexIsBounded(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	limits := evmdata.ReindexLimits{Cooldown: time.Hour, MaxQueued: 2}
	ref := func(id int64) evmdata.TokenRef {
		return evmdata.TokenRef{Contract: nft, TokenID: big.NewInt(id), Kind: evmdata.Erc721}
	}
	now := time.Unix(1_700_000_000, 0)
	pending := func() []int64 {
		refs, err := s.PendingTokens(ctx, evmChain, 10)
		require.NoError(err)
		var ids []int64
		for _, r := range refs {
			require.Equal(evmdata.Erc721, r.Kind)
			ids = append(ids, r.TokenID.Int64())
		}
		return ids
	}

	out, err := s.RequestNFTReindex(ctx, evmChain, ref(1), now, limits)
	require.NoError(err)
	require.Equal(evmdata.ReindexOutcome{Queued: true}, out)
	require.Equal([]int64{1}, pending(), "the describer reads it like a new token")

	out, err = s.RequestNFTReindex(ctx, evmChain, ref(1), now.Add(10*time.Minute), limits)
	require.NoError(err)
	require.Equal(evmdata.ReindexOutcome{RetryAfter: 50 * time.Minute}, out, "once per cooldown")

	// The describer reads it; the cooldown still holds.
	require.NoError(s.SetNFTMetadata(ctx, evmChain, nft, big.NewInt(1), evmdata.NFTMetadata{Status: evmdata.IndexStatusIndexed}))
	require.Empty(pending())
	out, err = s.RequestNFTReindex(ctx, evmChain, ref(1), now.Add(59*time.Minute), limits)
	require.NoError(err)
	require.False(out.Queued)

	out, err = s.RequestNFTReindex(ctx, evmChain, ref(2), now, limits)
	require.NoError(err)
	require.True(out.Queued)
	out, err = s.RequestNFTReindex(ctx, evmChain, ref(3), now, limits)
	require.NoError(err)
	require.True(out.Queued)
	out, err = s.RequestNFTReindex(ctx, evmChain, ref(4), now, limits)
	require.NoError(err)
	require.Equal(evmdata.ReindexOutcome{QueueFull: true}, out, "the queue holds at most MaxQueued tokens")
	require.Equal([]int64{2, 3}, pending())

	out, err = s.RequestNFTReindex(ctx, evmChain, ref(1), now.Add(time.Hour), limits)
	require.NoError(err)
	require.Equal(evmdata.ReindexOutcome{QueueFull: true}, out, "past its cooldown, but the queue is full")

	// A refused request does not start a cooldown.
	require.NoError(s.SetNFTMetadata(ctx, evmChain, nft, big.NewInt(2), evmdata.NFTMetadata{}))
	out, err = s.RequestNFTReindex(ctx, evmChain, ref(4), now.Add(time.Second), limits)
	require.NoError(err)
	require.True(out.Queued)
}
