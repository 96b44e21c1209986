package localnet

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseNodeFlags(t *testing.T) {
	got, err := ParseNodeFlags("  --min-stake-duration=1m --log-level=debug\t--index-allow-incomplete --x=a=b ")
	require.NoError(t, err)
	require.Equal(t, map[string]string{
		"min-stake-duration": "1m", "log-level": "debug", "index-allow-incomplete": "true", "x": "a=b",
	}, got)
	empty, err := ParseNodeFlags("")
	require.NoError(t, err)
	require.Empty(t, empty)
	for _, bad := range []string{"min-stake-duration=1m", "-x=1", "---x=1", "--=1", "--a=1 --a=2", "--"} {
		_, err := ParseNodeFlags(bad)
		require.Error(t, err, bad)
	}
}
