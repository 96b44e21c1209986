package vm

import (
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"
)

func TestParseConfigSpamTokens(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"spamTokens":{"43114":["0x00000000000000000000000000000000000000aa"],"99":[]}}`))
	require.NoError(t, err)
	spam, err := cfg.spamTokens()
	require.NoError(t, err)
	require.True(t, spam[43114][common.HexToAddress("0xaa")])
	require.Empty(t, spam[99])

	for in, want := range map[string]string{
		`{"spamTokens":{"C":["0x00000000000000000000000000000000000000aa"]}}`: `"C" is not an EVM chain id`,
		`{"spamTokens":{"43114":["0x12"]}}`:                                   `spamTokens of chain 43114: "0x12"`,
		`{"spamTokens":["0x00000000000000000000000000000000000000aa"]}`:       "invalid avadata chain config",
	} {
		_, err := ParseConfig([]byte(in))
		require.ErrorContains(t, err, want, in)
	}
}
