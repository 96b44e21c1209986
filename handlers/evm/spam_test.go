package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

func TestLooksLikeSpam(t *testing.T) {
	for _, c := range []struct {
		name, symbol string
		spam         bool
	}{
		{"Wrapped AVAX", "WAVAX", false},
		{"USD Coin", "USDC", false},
		{"Token 2.0", "TKN2.0", false},
		{"Pangolin", "PNG", false},
		{"Ether.fi Staked ETH", "eETH", false},
		{"Staked AVAX Rewards", "sAVAX", false},
		{"Visit usdc-gift.com to claim", "USDC", true},
		{"USDT", "www.usdt.gift", true},
		{"$ CLAIM REWARDS", "CLAIM", true},
		{"AVAX Airdrop", "AVAX", true},
		{"https://t.me/x", "X", true},
		{"go to site.xyz", "X", true},
		{"US\u200bDC", "USDC", true},
		{"", "", true},
		{"  ", "", true},
		{"", "SYM", false},
	} {
		got := looksLikeSpam(evmdata.Contract{Name: c.name, Symbol: c.symbol, MetadataRead: true})
		require.Equal(t, c.spam, got, "%q / %q", c.name, c.symbol)
	}
	require.False(t, looksLikeSpam(evmdata.Contract{}), "metadata not read yet: not judged")
}
