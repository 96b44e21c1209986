package handlers

import (
	"context"
	"encoding/base64"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/avadata/avadata/handlers/api"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Replicas: several avadata nodes behind one load balancer, sharing the
// page-token key. Each test builds two APIs over two fake backends with the
// same fixtures (the same chain, indexed by two nodes) and the same key.

// replicaPair returns two replicas at the fixtures' heights with one key;
// cfgB configures the second.
func replicaPair(t *testing.T, cfgB Config) (a, b *testAPI) {
	t.Helper()
	a = newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	backendB := withFixtures(t, newFakeBackend())
	backendB.key = a.backend.key
	b = newTestAPI(t, cfgB, backendB, nil)
	return a, b
}

// tokenHeights decodes the heights a page's token carries.
func tokenHeights(t *testing.T, srv *testAPI, body map[string]any) []api.StreamHeight {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(body["nextPageToken"].(string))
	require.NoError(t, err)
	tok, err := api.ParsePageTokenPayload(raw[:len(raw)-api.PageTokenMACLen])
	require.NoError(t, err)
	return tok.Heights
}

func TestIndexedHeightHeader(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	backend.setIndexedHeight(netinfo.P, 40)
	backend.setIndexedHeight(netinfo.X, 7)
	backend.mu.Lock()
	backend.statuses = append(backend.statuses, follower.Status{Chain: netinfo.X, ChainName: api.VertexStream, IndexedHeight: 3})
	backend.mu.Unlock()
	backend.vertices = testVertices()
	srv := newTestAPI(t, testConfig(), backend, nil)

	subnet := testSubnetChainID.String()
	for path, want := range map[string]string{
		aliceTxsPath: "C=15",
		"/v1/chains/779672/addresses/" + testEVMAddr + "/transactions":      subnet + "=3",
		"/v1/chains/43112/transactions/" + txHashN(12).Hex():                "C=15",
		"/v1/chains/43112/addresses/" + testEVMAddr + "/balances:getNative": "C=15",
		pTxsPath: "P=40",
		"/v1/networks/local/blockchains/x-chain/transactions":                                                   "X=7, X-vertices=3",
		"/v1/networks/local/blockchains/x-chain/vertices":                                                       "X-vertices=3",
		"/v1/networks/local/blockchains/c-chain/transactions":                                                   "C=15",
		"/v1/networks/local/delegators":                                                                         "P=40",
		"/metrics/v1/avg_tps/c-chain":                                                                           "C=15",
		"/v1/chains/43112/transactions/0x" + "00000000000000000000000000000000000000000000000000000000000000ff": "C=15",
	} {
		rec := srv.get(t, path)
		require.Less(t, rec.Code, 500, "%s: %s", path, rec.Body.String())
		require.Equal(t, want, rec.Header().Get(api.HeaderIndexedHeight), "%s (status %d)", path, rec.Code)
	}

	// Replies that read no index carry none.
	for _, path := range []string{"/v1/status", "/", "/v1/chains", "/v1/nowhere"} {
		require.Empty(t, srv.get(t, path).Header().Values(api.HeaderIndexedHeight), path)
	}
}

// TestPinnedPagesReflectThePin: the pages of a pinned listing show exactly
// the first page's height, in the header and in the token, however far the
// index has gone since.
func TestPinnedPagesReflectThePin(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	first := srv.get(t, aliceTxsPath+"?pageSize=2")
	require.Equal(t, "C=15", first.Header().Get(api.HeaderIndexedHeight))
	var body map[string]any
	requireJSON(t, first, http.StatusOK, &body)
	require.Equal(t, []api.StreamHeight{{Stream: "C", Height: 15}}, tokenHeights(t, srv, body))

	arrive(backend, 20)
	second := srv.get(t, withToken(aliceTxsPath+"?pageSize=2", body))
	require.Equal(t, "C=15", second.Header().Get(api.HeaderIndexedHeight))
	requireJSON(t, second, http.StatusOK, &body)
	require.Equal(t, []string{"13", "12"}, txBlocks(t, body))
	require.Equal(t, []api.StreamHeight{{Stream: "C", Height: 15}}, tokenHeights(t, srv, body))
}

// TestUnpinnedTokensCarryTheHeightAtTheCut: a listing resumed by position
// records the height indexed when the page was cut, and at least the height
// of the last item it read.
func TestUnpinnedTokensCarryTheHeightAtTheCut(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	backend.setIndexedHeight(netinfo.P, 12) // the status lags the rows
	srv := newTestAPI(t, testConfig(), backend, nil)
	path := pTxsPath + "?sortOrder=asc&pageSize=5&addresses=" + bech32Of(t, pBob)
	rec := srv.get(t, path)
	var body map[string]any
	requireJSON(t, rec, http.StatusOK, &body)
	heights := txHeights(t, body)
	last, err := strconv.ParseUint(heights[len(heights)-1], 10, 64)
	require.NoError(t, err)
	require.Equal(t, []api.StreamHeight{{Stream: "P", Height: last}}, tokenHeights(t, srv, body))
	require.Equal(t, "P="+strconv.FormatUint(last, 10), rec.Header().Get(api.HeaderIndexedHeight))
}

func TestReplicasShareTokens(t *testing.T) {
	a, b := replicaPair(t, testConfig())
	path := aliceTxsPath + "?pageSize=2"
	var pages [][]string
	body := getBody(t, a, path)
	for turn := 1; ; turn++ {
		pages = append(pages, txBlocks(t, body))
		if _, more := body["nextPageToken"]; !more {
			break
		}
		replica := []*testAPI{a, b}[turn%2]
		body = getBody(t, replica, withToken(path, body))
	}
	require.Equal(t, [][]string{{"15", "14"}, {"13", "12"}, {"11", "10"}}, pages, "round robin: nothing skipped or repeated")

	// Without the shared key the other replica cannot verify the token.
	other := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	other.backend.key = []byte("another node's own key")
	first := getBody(t, a, path)
	requireDataError(t, other.get(t, withToken(path, first)), http.StatusBadRequest, "signature mismatch", "pageTokenSecret")
}

// TestReplicaBehindAnswers503: a replica whose follower has not reached the
// token's height waits (bounded by half the request's time) and then
// answers 503 with Retry-After and its own height, never an older page.
func TestReplicaBehindAnswers503(t *testing.T) {
	cfg := testConfig()
	cfg.RequestTimeout = 200 * time.Millisecond // the wait gets 100ms
	a, b := replicaPair(t, cfg)
	arrive(a.backend, 20) // a is ahead
	path := aliceTxsPath + "?pageSize=2"
	first := getBody(t, a, path)
	require.Equal(t, []string{"20", "15"}, txBlocks(t, first))

	began := time.Now()
	rec := b.get(t, withToken(path, first))
	waited := time.Since(began)
	msg := requireDataError(t, rec, http.StatusServiceUnavailable, "behind the pageToken", "C is indexed to height 15, the token was cut at 20")
	require.Contains(t, msg, "another replica")
	require.Equal(t, strconv.Itoa(api.DefaultRetryAfter), rec.Header().Get("Retry-After"), "no rate to estimate from")
	require.Equal(t, "C=15", rec.Header().Get(api.HeaderIndexedHeight), "the 503 says how far this replica is")
	require.GreaterOrEqual(t, waited, 90*time.Millisecond, "it waited for its follower first")
	require.Less(t, waited, time.Second)

	// The metrics service answers in its own error body.
	tps := "/metrics/v1/avg_tps/c-chain"
	b.backend.buckets[netinfo.C] = dailyBuckets(3, 1_700_000_000/day*day, 0)
	a.backend.buckets[netinfo.C] = dailyBuckets(3, 1_700_000_000/day*day, 0)
	firstTPS := getBody(t, a, tps+"?pageSize=1")
	requireMetricsError(t, b.get(t, withToken(tps+"?pageSize=1", firstTPS)), http.StatusServiceUnavailable, "behind the pageToken")

	// Once caught up, the replica serves exactly the next page.
	arrive(b.backend, 20)
	require.Equal(t, []string{"14", "13"}, txBlocks(t, getBody(t, b, withToken(path, first))))
}

// TestReplicaBehindWaitsForItsFollower: a replica a moment behind serves
// the page as soon as its follower gets there.
func TestReplicaBehindWaitsForItsFollower(t *testing.T) {
	a, b := replicaPair(t, testConfig())
	arrive(a.backend, 20)
	path := aliceTxsPath + "?pageSize=2"
	first := getBody(t, a, path)

	go func() {
		time.Sleep(100 * time.Millisecond)
		arrive(b.backend, 20)
	}()
	began := time.Now()
	rec := b.get(t, withToken(path, first))
	var body map[string]any
	requireJSON(t, rec, http.StatusOK, &body)
	require.GreaterOrEqual(t, time.Since(began), 90*time.Millisecond)
	require.Equal(t, []string{"14", "13"}, txBlocks(t, body))
	require.Equal(t, "C=20", rec.Header().Get(api.HeaderIndexedHeight), "the page shows the pinned height")
}

func TestReplicaWaitHonoursCancellation(t *testing.T) {
	a, b := replicaPair(t, testConfig())
	arrive(a.backend, 20)
	path := aliceTxsPath + "?pageSize=2"
	first := getBody(t, a, path)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://node"+withToken(path, first), nil)
	require.NoError(t, err)
	time.AfterFunc(50*time.Millisecond, cancel)
	began := time.Now()
	rec := newRecorderFor(b, req)
	require.Less(t, time.Since(began), time.Second, "the wait ends with the request")
	requireDataError(t, rec, http.StatusServiceUnavailable, "cancelled")
}

func TestRetryAfterEstimate(t *testing.T) {
	require.Equal(t, api.DefaultRetryAfter, api.RetryAfterFor(10, api.StreamStatus{}))
	require.Equal(t, api.DefaultRetryAfter, api.RetryAfterFor(10, api.StreamStatus{BlocksPerSecond: 5, Paused: true}))
	require.Equal(t, 2, api.RetryAfterFor(10, api.StreamStatus{BlocksPerSecond: 5}))
	require.Equal(t, api.MinRetryAfter, api.RetryAfterFor(1, api.StreamStatus{BlocksPerSecond: 500}))
	require.Equal(t, api.MaxRetryAfter, api.RetryAfterFor(1_000_000, api.StreamStatus{BlocksPerSecond: 1}))
}

func TestIndexedHeightsFormat(t *testing.T) {
	require.Equal(t, "C=12", api.FormatHeights([]api.StreamHeight{{Stream: "C", Height: 12}}))
	var v api.Heights
	v.Note("X-vertices", 3)
	v.Note("X", 7)
	v.Note("X", 9) // the first record stays
	require.Equal(t, "X=7, X-vertices=3", api.FormatHeights(v.Sorted()))
	v.AtLeast("X", 8)
	v.Pin("X-vertices", 2)
	v.AtLeast("X-vertices", 5) // a pin is exact
	require.Equal(t, []api.StreamHeight{{Stream: "X", Height: 8}, {Stream: "X-vertices", Height: 2}}, v.Sorted())
}
