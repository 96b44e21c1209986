package handlertest

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"
)

func Bech32Of(t *testing.T, a ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32("local", a[:])
	require.NoError(t, err)
	return s
}
