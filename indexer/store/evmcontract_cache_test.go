package store

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// A cached answer never outlives a commit that changes it: an address
// looked up before its deployment, a token before its standard is known.
func TestEVMContractCacheEndsWithWrites(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	var c chainBuilder
	made := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	token := common.HexToAddress("0x00000000000000000000000000000000000000bb")

	_, found, err := s.Contract(ctx, evmChain, made)
	require.NoError(err)
	require.False(found)
	applyEVM(t, s, c.block(evmdata.Tx{From: alice, Status: 1, ContractAddress: &made,
		Creations: []evmdata.ContractCreation{{Address: made, Deployer: alice}}}))
	got, found, err := s.Contract(ctx, evmChain, made)
	require.NoError(err)
	require.True(found, "deployed after the miss was cached")
	require.NotNil(got.Deployment)

	// The answer is the caller's: changing it changes no later answer.
	got.Name, got.Deployment.Deployer = "changed", bob
	again, _, err := s.Contract(ctx, evmChain, made)
	require.NoError(err)
	require.Empty(again.Name)
	require.Equal(alice, again.Deployment.Deployer)

	applyEVM(t, s, c.block(evmdata.Tx{From: alice, To: &made, Status: 1}))
	_, found, err = s.Contract(ctx, evmChain, token)
	require.NoError(err)
	require.False(found)
	applyEVM(t, s, c.block(transferTx(alice, token, evmdata.TokenTransfer{Token: token, Kind: evmdata.Erc20,
		From: alice, To: bob, Value: common.Big1})))
	got, found, err = s.Contract(ctx, evmChain, token)
	require.NoError(err)
	require.True(found, "seen as a token after the miss was cached")
	require.Equal(evmdata.Erc20, got.Kind)
}

// BenchmarkContract looks up an externally owned account (no row) and a
// token with its deployment, as the shaper does for every address it
// shows.
func BenchmarkContract(b *testing.B) {
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	defer s.Close()
	fillStore(b, s, benchTxs())
	token := common.HexToAddress("0x00000000000000000000000000000000000000cc")
	require.NoError(b, s.EVMWriter(evmChain).Apply(context.Background(), []*evmdata.Block{{
		Number: uint64(benchTxs()/20 + 1), Timestamp: 1_800_000_000, Traced: true,
		Txs: []evmdata.Tx{{From: alice, Status: 1, ContractAddress: &token, Value: common.Big0,
			Creations: []evmdata.ContractCreation{{Address: token, Deployer: alice}}}},
	}}, time.Now()))
	ctx := context.Background()
	for name, addr := range map[string]common.Address{"account": alice, "token": token} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, _, err := s.Contract(ctx, evmChain, addr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
