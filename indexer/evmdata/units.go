package evmdata

import (
	"math/big"
	"strings"
)

// ValueWithDecimals writes v, an amount counted in units of 10^-decimals
// (a token's smallest unit), as a decimal number without trailing
// fractional zeros: 3331009129 with 6 decimals is "3331.009129", 10^18 with
// 18 is "1". The webhooks' payloads and the explorer's pages both write
// amounts with it.
func ValueWithDecimals(v *big.Int, decimals uint8) string {
	if v == nil {
		return "0"
	}
	digits := new(big.Int).Abs(v).String()
	sign := ""
	if v.Sign() < 0 {
		sign = "-"
	}
	d := int(decimals)
	if d == 0 {
		return sign + digits
	}
	if len(digits) <= d {
		digits = strings.Repeat("0", d-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-d], strings.TrimRight(digits[len(digits)-d:], "0")
	if frac == "" {
		return sign + whole
	}
	return sign + whole + "." + frac
}
