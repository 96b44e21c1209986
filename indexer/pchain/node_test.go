package pchain

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// A removed L1 validation is gone from the P-chain: getL1Validator's "not
// found" means no refund owner can be read, not a failure to retry.
func TestL1ValidatorNotFound(t *testing.T) {
	require.True(t, isL1ValidatorNotFound(errors.New(`failed to decode client response: fetching L1 validator "21i6ddowSh4jDKr7Z4ezPq7qQ7EBjc2ni1hDjcqvRbhQMAi4i4" failed: not found`)))
	require.False(t, isL1ValidatorNotFound(errors.New("context deadline exceeded")))
	require.False(t, isL1ValidatorNotFound(nil))
}
