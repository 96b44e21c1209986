package explorer

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// short cuts characters, not bytes: a name in any script stays valid text.
func TestShortCutsCharacters(t *testing.T) {
	require.Equal(t, "0x12345678…abcdef", short("0x1234567890000000000000000000abcdef"))
	twenty := strings.Repeat("é", 20)
	require.Equal(t, twenty, short(twenty))
	got := short(strings.Repeat("名", 12) + strings.Repeat("é", 12))
	require.True(t, utf8.ValidString(got))
	require.Equal(t, strings.Repeat("名", 10)+"…"+strings.Repeat("é", 6), got)
}
