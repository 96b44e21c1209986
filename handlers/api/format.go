package api

import (
	"math/big"
	"strconv"
)

// Decimal renders a big number as decimal digits; nil is "0".
func Decimal(n *big.Int) string {
	if n == nil {
		return "0"
	}
	return n.String()
}

func FormatUint(n uint64) string { return strconv.FormatUint(n, 10) }
