package store

import (
	"context"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// The token search finds contracts by a case-folded part of their name or
// symbol, on their chain only, stops at its limit and at its scan bound,
// and never matches a contract whose metadata was not read (no name yet).
func TestSearchContracts(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	addr := func(i int) common.Address { return common.BigToAddress(big.NewInt(int64(0xc0000 + i))) }
	named := []struct{ name, symbol string }{
		{"Wrapped AVAX", "WAVAX"}, {"Tether USD", "USDt"}, {"USD Coin", "USDC"}, {"<script>x</script>", "EVIL"}, {"", ""},
	}
	var c chainBuilder
	var txs []evmdata.Tx
	for i := range named {
		a := addr(i)
		txs = append(txs, evmdata.Tx{From: alice, Status: 1, ContractAddress: &a,
			Creations: []evmdata.ContractCreation{{Address: a, Deployer: alice}}})
	}
	applyEVM(t, s, c.block(txs...))
	for i, n := range named[:4] {
		require.NoError(s.SetContractMetadata(ctx, evmChain, evmdata.Contract{Address: addr(i), Kind: evmdata.Erc20,
			Name: n.name, Symbol: n.symbol, Decimals: 6, HasDecimal: true}))
	}

	names := func(cs []evmdata.Contract) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	got, err := s.SearchContracts(ctx, evmChain, "usd", 10)
	require.NoError(err)
	require.Equal([]string{"Tether USD", "USD Coin"}, names(got), "name or symbol, case folded, in address order")
	require.Equal(evmdata.Erc20, got[0].Kind)
	require.Equal(addr(1), got[0].Address)

	got, err = s.SearchContracts(ctx, evmChain, " wavax ", 10)
	require.NoError(err)
	require.Equal([]string{"Wrapped AVAX"}, names(got), "by symbol, the query trimmed")

	got, err = s.SearchContracts(ctx, evmChain, "USD", 1)
	require.NoError(err)
	require.Equal([]string{"Tether USD"}, names(got), "the limit")

	got, err = s.SearchContracts(ctx, evmChain, "<script>", 10)
	require.NoError(err)
	require.Len(got, 1, "any text is a plain substring")

	got, err = s.searchContracts(ctx, evmChain, "usd", 10, 2)
	require.NoError(err)
	require.Equal([]string{"Tether USD"}, names(got), "the scan bound: only the first two records are read")

	for _, q := range []string{"", "  ", "nothing like it"} {
		got, err = s.SearchContracts(ctx, evmChain, q, 10)
		require.NoError(err)
		require.Empty(got, "%q", q)
	}
	got, err = s.SearchContracts(ctx, evmChain+1, "usd", 10)
	require.NoError(err)
	require.Empty(got, "another chain's contracts")
}
