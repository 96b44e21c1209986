package vm

import (
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const testSecretHex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

func TestParseConfigPageTokenSecret(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"pageTokenSecret":"` + testSecretHex + `"}`))
	require.NoError(t, err)
	secret, err := cfg.pageTokenSecret()
	require.NoError(t, err)
	want, _ := hex.DecodeString(testSecretHex)
	require.Equal(t, want, secret)

	upper, err := ParseConfig([]byte(`{"pageTokenSecret":"` + strings.ToUpper(testSecretHex) + `"}`))
	require.NoError(t, err)
	secret, err = upper.pageTokenSecret()
	require.NoError(t, err)
	require.Equal(t, want, secret, "hex digits in any case")

	cfg, err = ParseConfig([]byte(`{}`))
	require.NoError(t, err)
	secret, err = cfg.pageTokenSecret()
	require.NoError(t, err)
	require.Nil(t, secret, "absent: the per-node secret")
}

func TestParseConfigPageTokenSecretErrors(t *testing.T) {
	for name, tc := range map[string]struct{ secret, want string }{
		"short":       {secret: testSecretHex[:62], want: "31 bytes, too short"},
		"not hex":     {secret: strings.Repeat("zz", 32), want: "not hex"},
		"odd":         {secret: testSecretHex + "a", want: "not hex"},
		"placeholder": {secret: strings.Repeat("0", 64), want: "repeats one byte"},
		"base64":      {secret: "ABEiM0RVZneImaq7zN3u/wARIjNEVWZ3iJmqu8zd7v8=", want: "not hex"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig([]byte(`{"pageTokenSecret":"` + tc.secret + `"}`))
			require.ErrorContains(t, err, "invalid avadata chain config: pageTokenSecret")
			require.ErrorContains(t, err, tc.want)
			require.ErrorContains(t, err, "openssl rand -hex 32", "says how to make one")
			require.NotContains(t, err.Error(), tc.secret, "the secret stays out of logs")
		})
	}
	_, err := ParseConfig([]byte(`{"pageTokenSecret":42}`))
	require.ErrorContains(t, err, "pageTokenSecret")
}

// TestPageTokenKeyChoice: a configured secret signs the tokens, so two
// nodes with the same config share their key; without it each node keeps
// its own random key across restarts.
func TestPageTokenKeyChoice(t *testing.T) {
	shared := `{"chains":["P"],"pageTokenSecret":"` + testSecretHex + `"}`
	a, _ := newTestVM(t, shared)
	b, _ := newTestVM(t, shared)
	want, _ := hex.DecodeString(testSecretHex)
	require.Equal(t, want, a.PageTokenKey())
	require.Equal(t, a.PageTokenKey(), b.PageTokenKey())

	c, _ := newTestVM(t, `{"chains":["P"]}`)
	d, _ := newTestVM(t, `{"chains":["P"]}`)
	require.Len(t, c.PageTokenKey(), 32)
	require.NotEqual(t, c.PageTokenKey(), d.PageTokenKey(), "per-node keys differ")
	require.NotEqual(t, want, c.PageTokenKey())
	for _, vm := range []*VM{a, b, c, d} {
		require.NoError(t, vm.Shutdown(context.Background()))
	}
}
