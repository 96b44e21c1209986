package harness

import (
	"math/big"
	"regexp"
	"strings"
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

// DecimalUnits writes an integer amount of a token with decimals places as
// the explorer shows it: exact, no exponent, trailing fractional zeros and
// a bare point dropped ("1.5", "0.000000001", "12"). Written here from the
// rule, apart from the explorer's code, so tests compare with an
// independent reading of the node's raw value.
func DecimalUnits(amount *big.Int, decimals int) string {
	digits := new(big.Int).Abs(amount).String()
	if decimals > 0 {
		if len(digits) <= decimals {
			digits = strings.Repeat("0", decimals-len(digits)+1) + digits
		}
		whole, frac := digits[:len(digits)-decimals], strings.TrimRight(digits[len(digits)-decimals:], "0")
		digits = whole
		if frac != "" {
			digits += "." + frac
		}
	}
	if amount.Sign() < 0 {
		return "-" + digits
	}
	return digits
}

// DecimalUnitsUint is DecimalUnits of a uint64 amount (nAVAX, an asset's
// smallest unit).
func DecimalUnitsUint(amount uint64, decimals int) string {
	return DecimalUnits(new(big.Int).SetUint64(amount), decimals)
}

// NanoAVAX writes an amount of nAVAX in AVAX (9 decimals), as the
// explorer shows it.
func NanoAVAX(nAVAX uint64) string {
	return DecimalUnitsUint(nAVAX, 9)
}
