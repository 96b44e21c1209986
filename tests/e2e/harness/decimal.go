package harness

import (
	"math/big"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// RequireDecimal checks a big number written as a decimal string.
func RequireDecimal(t *testing.T, want *big.Int, got, what string) {
	t.Helper()
	require.Regexp(t, DecimalDigits, got, "%s: want a decimal string", what)
	require.Equal(t, want.String(), got, what)
}

// RequireUintString checks a uint64 written as a decimal string.
func RequireUintString(t *testing.T, want uint64, got, what string) {
	t.Helper()
	RequireDecimal(t, new(big.Int).SetUint64(want), got, what)
}

// DecimalDigits matches a non-negative integer written in decimal.
var DecimalDigits = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
