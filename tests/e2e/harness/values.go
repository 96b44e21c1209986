package harness

import (
	"encoding/json"
	"math/big"
	"slices"
)

// Reversed returns a reversed copy of s.
func Reversed[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// Ptr is a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// Ether is n * 10^18 wei.
func Ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// MustJSON is v as JSON, for failure messages.
func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
