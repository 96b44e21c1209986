package replies

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func reply(status int, body string, header map[string][]string) Reply {
	r := Reply{Status: status, Header: header}
	r.setBody([]byte(body))
	return r
}

func TestCompareRepliesIdentical(t *testing.T) {
	h := map[string][]string{"Content-Type": {"application/json"}}
	a := reply(200, `{"a":1}`, h)
	require.Empty(t, compareReplies(Exchange{}, a, reply(200, `{"a":1}`, h)))
}

func TestCompareRepliesEachField(t *testing.T) {
	e := Exchange{Index: 3, Route: "status", Request: Request{Method: "GET", Target: "/v1/status"}}
	before := reply(200, `{"a":1,"b":[1,2,3]}`, map[string][]string{
		"Content-Type": {"application/json"}, "X-Indexed-Height": {"P=1"},
	})
	after := reply(404, `{"a":1,"b":[1,2,4]}`, map[string][]string{
		"Content-Type": {"text/plain"}, "Allow": {"GET"},
	})
	diffs := compareReplies(e, before, after)
	var fields []string
	for _, d := range diffs {
		fields = append(fields, d.Field)
	}
	require.Equal(t, []string{"status", "header Allow", "header Content-Type", "header X-Indexed-Height", "body"}, fields)
	require.Equal(t, "(absent)", diffs[1].Before)
	require.Equal(t, "GET", diffs[1].After)
	require.Equal(t, "(absent)", diffs[3].After)

	body := diffs[4]
	require.Contains(t, body.Diff, "-    3\n+    4\n")
	report := body.String()
	require.True(t, strings.HasPrefix(report, "#3 GET /v1/status [status]\n  body: before \"19 bytes\", after \"19 bytes\"\n"), report)
}

func TestCompareRepliesError(t *testing.T) {
	diffs := compareReplies(Exchange{}, Reply{Status: 200, Body: "x"}, Reply{Error: "connection refused"})
	require.Equal(t, "error", diffs[0].Field)
	require.Equal(t, "status", diffs[1].Field)
}

func TestBodyBytesKeptExactly(t *testing.T) {
	raw := []byte{0xff, 0x00, 'a'}
	var r Reply
	r.setBody(raw)
	require.Empty(t, r.Body)
	got, err := r.body()
	require.NoError(t, err)
	require.Equal(t, raw, got)

	// Whitespace-only differences are differences, and the report says so.
	d, same := compareBodies(reply(200, `{"a":1}`, nil), reply(200, `{"a": 1}`, nil))
	require.False(t, same)
	require.Contains(t, d.Diff, "differ only in whitespace")
}
