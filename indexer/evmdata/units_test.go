package evmdata

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValueWithDecimals(t *testing.T) {
	for _, tc := range []struct {
		v        int64
		decimals uint8
		want     string
	}{{3331009129, 6, "3331.009129"}, {1_000_000, 6, "1"}, {5, 3, "0.005"}, {0, 18, "0"}, {120, 0, "120"}, {-15, 1, "-1.5"}} {
		require.Equal(t, tc.want, ValueWithDecimals(big.NewInt(tc.v), tc.decimals))
	}
	require.Equal(t, "0", ValueWithDecimals(nil, 18))
}
