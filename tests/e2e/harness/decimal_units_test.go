package harness

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDecimalUnits pins the explorer's amount rule the e2e tests compare
// pages with.
func TestDecimalUnits(t *testing.T) {
	for _, c := range []struct {
		amount   int64
		decimals int
		want     string
	}{
		{0, 18, "0"},
		{0, 0, "0"},
		{12, 0, "12"},
		{1, 9, "0.000000001"},
		{1_500_000_000, 9, "1.5"},
		{2_000_000_000, 9, "2"},
		{123_456_789_012, 9, "123.456789012"},
		{-1_500, 3, "-1.5"},
		{100, 2, "1"},
		{105, 2, "1.05"},
	} {
		require.Equal(t, c.want, DecimalUnits(big.NewInt(c.amount), c.decimals), "%d with %d decimals", c.amount, c.decimals)
	}
	wei, _ := new(big.Int).SetString("1000000000000000001", 10)
	require.Equal(t, "1.000000000000000001", DecimalUnits(wei, 18))
	require.Equal(t, "25.000000001", NanoAVAX(25_000_000_001))
}
