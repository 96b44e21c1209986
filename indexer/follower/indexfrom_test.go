package follower

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseIndexFrom(t *testing.T) {
	for raw, want := range map[string]IndexFrom{
		`"genesis"`:            {Genesis: true},
		`"earliest-available"`: EarliestAvailable,
		`1200`:                 {Height: 1200},
		`"1200"`:               {Height: 1200},
		`0`:                    {Height: 1},
	} {
		got, err := ParseIndexFrom(json.RawMessage(raw))
		require.NoError(t, err, raw)
		require.Equal(t, want, got, raw)
	}
	for _, raw := range []string{`"latest"`, `-5`, `true`, `"12x"`} {
		_, err := ParseIndexFrom(json.RawMessage(raw))
		require.ErrorContains(t, err, "genesis", raw)
	}
}

func TestFirstHeight(t *testing.T) {
	h, err := firstHeight("C", EarliestAvailable, 1)
	require.NoError(t, err)
	require.Equal(t, uint64(1), h)
	h, err = firstHeight("C", EarliestAvailable, 700)
	require.NoError(t, err)
	require.Equal(t, uint64(700), h)
	h, err = firstHeight("C", IndexFrom{Height: 900}, 700)
	require.NoError(t, err)
	require.Equal(t, uint64(900), h)
	_, err = firstHeight("C", IndexFrom{Height: 600}, 700)
	require.ErrorContains(t, err, "only from block 700")
	_, err = firstHeight("C", IndexFrom{Genesis: true}, 700)
	require.ErrorContains(t, err, `"earliest-available"`)
	h, err = firstHeight("C", IndexFrom{Genesis: true}, 1)
	require.NoError(t, err)
	require.Equal(t, uint64(1), h)
}
