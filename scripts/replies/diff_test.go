package replies

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnifiedDiff(t *testing.T) {
	a := strings.Split("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", " ")
	b := strings.Split("1 2 3 4 5 six 7 8 9 10 11 12 13 15 16", " ")
	want := `--- before
+++ after
@@ -3,7 +3,7 @@
 3
 4
 5
-6
+six
 7
 8
 9
@@ -11,5 +11,5 @@
 11
 12
 13
-14
 15
+16
`
	require.Equal(t, want, unifiedDiff(a, b))
	require.Empty(t, unifiedDiff(a, a))
}

func TestUnifiedDiffAddedToEmpty(t *testing.T) {
	require.Equal(t, "--- before\n+++ after\n@@ -0,0 +1,2 @@\n+a\n+b\n", unifiedDiff(nil, []string{"a", "b"}))
}

func TestBodyDiffIndentsJSON(t *testing.T) {
	d := bodyDiff([]byte(`{"a":1,"b":2}`), []byte(`{"a":1,"b":3}`))
	require.Contains(t, d, "-  \"b\": 2\n+  \"b\": 3\n")
}
