package replies

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormaliserReplacesOnlyPageTokens(t *testing.T) {
	n := NewNormaliser()
	body := []byte(`{"transactions":[{"txHash":"0xab","nextPageToken":"inner"}],"nextPageToken":"AgABc-_9"}`)
	got := n.Body(body, nil)
	require.Equal(t, `{"transactions":[{"txHash":"0xab","nextPageToken":"<page token>"}],"nextPageToken":"<page token>"}`, string(got))

	// Whitespace around the colon is kept as it came.
	got = n.Body([]byte("{\"nextPageToken\" :  \"x\"}"), nil)
	require.Equal(t, "{\"nextPageToken\" :  \"<page token>\"}", string(got))

	// A body without a token is untouched, byte for byte.
	plain := []byte(`{"blocksPerSecond":12.5,"lastProgress":"2026-11-26T19:00:00Z","message":"x\"nextPageToken\""}`)
	require.Equal(t, string(plain), string(n.Body(plain, nil)))
}

func TestNormaliserStatus(t *testing.T) {
	n := NewNormaliser()
	body := []byte(`{"version":"v0.1.0","chains":[` +
		`{"chain":"P","indexedHeight":12,"nodeHeight":12,"lag":0,"blocksPerSecond":3.25,"etaSeconds":4,` +
		`"lastApplied":"2026-11-26T18:59:58.123Z","lastProgress":"2026-11-26T19:00:00.5Z","caughtUp":true},` +
		`{"chain":"X","indexedHeight":3,"blocksPerSecond":0,"lastApplied":"0001-01-01T00:00:00Z","lastProgress":"2026-11-26T19:00:01Z"}]}`)
	want := `{"version":"v0.1.0","chains":[` +
		`{"chain":"P","indexedHeight":12,"nodeHeight":12,"lag":0,"blocksPerSecond":"<rate>","etaSeconds":"<rate>",` +
		`"lastApplied":"2026-11-26T18:59:58.123Z","lastProgress":"<wall clock>","caughtUp":true},` +
		`{"chain":"X","indexedHeight":3,"blocksPerSecond":"<rate>","lastApplied":"0001-01-01T00:00:00Z","lastProgress":"<wall clock>"}]}`
	require.Equal(t, want, string(n.Body(body, []string{normaliserStatus})))

	// Without the status normaliser, a reply keeps these members.
	require.Equal(t, string(body), string(n.Body(body, nil)))

	// tracesAvailable goes, with its comma, wherever it stands but first.
	require.Equal(t, `{"chain":"C","lag":0,"lastApplied":"t"},{"chain":"D","lag":0}`,
		string(n.Body([]byte(`{"chain":"C","lag":0,"tracesAvailable":true,"lastApplied":"t"},{"chain":"D","lag":0 , "tracesAvailable" : false}`),
			[]string{normaliserStatus})))

	// Negative and exponent numbers are rates too.
	require.Equal(t, `{"blocksPerSecond":"<rate>"}`, string(n.Body([]byte(`{"blocksPerSecond":-1.5e-7}`), []string{normaliserStatus})))
}

func TestNormaliserUptime(t *testing.T) {
	n := NewNormaliser()
	body := []byte(`{"validators":[{"amountStaked":"2000","uptimePerformance":99.9944,"stakePercentage":20}]}`)
	require.Equal(t, `{"validators":[{"amountStaked":"2000","uptimePerformance":"<live uptime>","stakePercentage":20}]}`,
		string(n.Body(body, []string{normaliserUptime})))
	require.Equal(t, string(body), string(n.Body(body, []string{normaliserStatus})))
}

func TestRecordedHeadersDropDateAndLength(t *testing.T) {
	h := http.Header{}
	h.Set("Date", "Thu, 26 Nov 2026 19:00:00 GMT")
	h.Set("Content-Length", "12")
	h.Set("Content-Type", "application/json")
	h.Set("X-Indexed-Height", "P=12")
	h.Add("Vary", "Origin")
	h.Add("Vary", "Accept")
	require.Equal(t, map[string][]string{
		"Content-Type":     {"application/json"},
		"X-Indexed-Height": {"P=12"},
		"Vary":             {"Origin", "Accept"},
	}, recordedHeaders(h))
}

func TestTamperTokenChangesTheMiddle(t *testing.T) {
	require.Equal(t, "abAde", tamperToken("abcde"))
	require.Equal(t, "abBde", tamperToken("abAde"))
	require.Empty(t, tamperToken(""))
}
