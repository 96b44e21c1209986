package metrics

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// A ratio is written as the float64 nearest it: at 115/2051 a quotient
// rounded twice (big.Float, then float64) lands an ulp away.
func TestRatioValueIsTheNearestFloat(t *testing.T) {
	require.Equal(t, "0.0560702096538274", ratioValue(big.NewRat(115, 2051)).String())
}
