package store

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// The parties of a token: every sender and receiver but the zero address,
// of blocks the follower wrote and blocks a back-fill wrote below them,
// each once however often it moved the token.
func TestTokenPartiesListsSendersAndReceiversOfFollowedAndBackfilledBlocks(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	var c chainBuilder
	zero := common.Address{}
	dave := common.HexToAddress("0xd00d")
	chain := []*evmdata.Block{
		c.block(transferTx(alice, token, erc20Move(token, zero, alice, 5, 0))), // back-filled
		c.block(transferTx(alice, token, erc20Move(token, alice, dave, 1, 0))), // back-filled
		c.block(transferTx(alice, token, erc20Move(token, alice, bob, 2, 0), // the same sender twice,
			erc20Move(token, alice, bob, 1, 1), nftMove(evmdata.Erc721, token, carol, carol, 1, 1, 2))), // a self-transfer of another standard
		c.block(transferTx(bob, token, erc20Move(token, bob, zero, 1, 0))), // a burn
	}
	for i := 1; i < len(chain); i++ {
		chain[i].ParentHash = chain[i-1].Hash
	}
	w := s.EVMWriter(evmChain)
	require.NoError(w.Start(ctx, 3))
	require.NoError(w.Apply(ctx, chain[2:], time.Now()))
	got, err := s.TokenParties(ctx, evmChain, token, evmdata.Erc20, nil, 10)
	require.NoError(err)
	require.Equal([]common.Address{bob, alice}, got, "followed blocks only, by address, no zero address")
	require.NoError(w.Backfill(ctx, chain[:2]))

	got, err = s.TokenParties(ctx, evmChain, token, evmdata.Erc20, nil, 10)
	require.NoError(err)
	want := []common.Address{bob, dave, alice} // by address
	require.Equal(want, got, "the back-fill adds its parties")
	page, err := s.TokenParties(ctx, evmChain, token, evmdata.Erc20, nil, 2)
	require.NoError(err)
	require.Equal(want[:2], page)
	rest, err := s.TokenParties(ctx, evmChain, token, evmdata.Erc20, &page[1], 2)
	require.NoError(err)
	require.Equal(want[2:], rest)
	nfts, err := s.TokenParties(ctx, evmChain, token, evmdata.Erc721, nil, 10)
	require.NoError(err)
	require.Equal([]common.Address{carol}, nfts, "one row for a transfer to oneself")
	none, err := s.TokenParties(ctx, evmChain, common.Address{9}, evmdata.Erc20, nil, 10)
	require.NoError(err)
	require.Empty(none)

	// The same blocks written again (a second store from genesis) hold the
	// same rows: the sets are blind.
	again := openTest(t, t.TempDir())
	defer again.Close()
	require.NoError(again.EVMWriter(evmChain).Apply(ctx, chain, time.Now()))
	got, err = again.TokenParties(ctx, evmChain, token, evmdata.Erc20, nil, 10)
	require.NoError(err)
	require.Equal(want, got)
}
