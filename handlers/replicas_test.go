package handlers

import (
	"context"
	"encoding/base64"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Listings the replica tests page through.
var (
	aliceTxsPath = "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/transactions"
	pTxsPath     = "/v1/networks/local/blockchains/p-chain/transactions"
)

// Replicas: several avadata nodes behind one load balancer, sharing the
// page-token key. Each test builds two APIs over two fake backends with the
// same fixtures (the same chain, indexed by two nodes) and the same key.

// replicaPair returns two replicas at the fixtures' heights with one key;
// cfgB configures the second.
func replicaPair(t *testing.T, cfgB serve.Config) (a, b *handlertest.API) {
	t.Helper()
	a = newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()), nil)
	backendB := handlertest.WithFixtures(t, handlertest.NewFakes())
	backendB.Key = a.Fakes.Key
	b = newTestAPI(t, cfgB, backendB, nil)
	return a, b
}

// tokenHeights decodes the heights a page's token carries.
func tokenHeights(t *testing.T, srv *handlertest.API, body map[string]any) []api.StreamHeight {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(body["nextPageToken"].(string))
	require.NoError(t, err)
	tok, err := api.ParsePageTokenPayload(raw[:len(raw)-api.PageTokenMACLen])
	require.NoError(t, err)
	return tok.Heights
}

func TestIndexedHeightHeader(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	backend.SetIndexedHeight(netinfo.P, 40)
	backend.SetIndexedHeight(netinfo.X, 7)
	backend.Mu.Lock()
	backend.FollowerStatuses = append(backend.FollowerStatuses, follower.Status{Chain: netinfo.X, ChainName: api.VertexStream, IndexedHeight: 3})
	backend.Mu.Unlock()
	backend.Vertices = handlertest.FixtureVertices()
	srv := newTestAPI(t, handlertest.Config(), backend, nil)

	subnet := fakenet.SubnetChainID.String()
	for path, want := range map[string]string{
		aliceTxsPath: "C=15",
		"/v1/chains/779672/addresses/" + handlertest.EVMAddr + "/transactions":      subnet + "=3",
		"/v1/chains/43112/transactions/" + handlertest.TxHashN(12).Hex():            "C=15",
		"/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/balances:getNative": "C=15",
		pTxsPath: "P=40",
		"/v1/networks/local/blockchains/x-chain/transactions":                                                   "X=7, X-vertices=3",
		"/v1/networks/local/blockchains/x-chain/vertices":                                                       "X-vertices=3",
		"/v1/networks/local/blockchains/c-chain/transactions":                                                   "C=15",
		"/v1/networks/local/delegators":                                                                         "P=40",
		"/metrics/v1/avg_tps/c-chain":                                                                           "C=15",
		"/v1/chains/43112/transactions/0x" + "00000000000000000000000000000000000000000000000000000000000000ff": "C=15",
	} {
		rec := srv.Get(t, path)
		require.Less(t, rec.Code, 500, "%s: %s", path, rec.Body.String())
		require.Equal(t, want, rec.Header().Get(api.HeaderIndexedHeight), "%s (status %d)", path, rec.Code)
	}

	// Replies that read no index carry none.
	for _, path := range []string{"/v1/status", "/", "/v1/chains", "/v1/nowhere"} {
		require.Empty(t, srv.Get(t, path).Header().Values(api.HeaderIndexedHeight), path)
	}
}

// TestPinnedPagesReflectThePin: the pages of a pinned listing show exactly
// the first page's height, in the header and in the token, however far the
// index has gone since.
func TestPinnedPagesReflectThePin(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, handlertest.Config(), backend, nil)
	first := srv.Get(t, aliceTxsPath+"?pageSize=2")
	require.Equal(t, "C=15", first.Header().Get(api.HeaderIndexedHeight))
	var body map[string]any
	handlertest.RequireJSON(t, first, http.StatusOK, &body)
	require.Equal(t, []api.StreamHeight{{Stream: "C", Height: 15}}, tokenHeights(t, srv, body))

	handlertest.Arrive(backend, 20)
	second := srv.Get(t, handlertest.WithToken(aliceTxsPath+"?pageSize=2", body))
	require.Equal(t, "C=15", second.Header().Get(api.HeaderIndexedHeight))
	handlertest.RequireJSON(t, second, http.StatusOK, &body)
	require.Equal(t, []string{"13", "12"}, handlertest.TxBlocks(t, body))
	require.Equal(t, []api.StreamHeight{{Stream: "C", Height: 15}}, tokenHeights(t, srv, body))
}

// TestUnpinnedTokensCarryTheHeightAtTheCut: a listing resumed by position
// records the height indexed when the page was cut, and at least the height
// of the last item it read.
func TestUnpinnedTokensCarryTheHeightAtTheCut(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	backend.SetIndexedHeight(netinfo.P, 12) // the status lags the rows
	srv := newTestAPI(t, handlertest.Config(), backend, nil)
	path := pTxsPath + "?sortOrder=asc&pageSize=5&addresses=" + handlertest.Bech32Of(t, handlertest.PBob)
	rec := srv.Get(t, path)
	var body map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	heights := handlertest.TxHeights(t, body)
	last, err := strconv.ParseUint(heights[len(heights)-1], 10, 64)
	require.NoError(t, err)
	require.Equal(t, []api.StreamHeight{{Stream: "P", Height: last}}, tokenHeights(t, srv, body))
	require.Equal(t, "P="+strconv.FormatUint(last, 10), rec.Header().Get(api.HeaderIndexedHeight))
}

func TestReplicasShareTokens(t *testing.T) {
	a, b := replicaPair(t, handlertest.Config())
	path := aliceTxsPath + "?pageSize=2"
	var pages [][]string
	body := a.GetBody(t, path)
	for turn := 1; ; turn++ {
		pages = append(pages, handlertest.TxBlocks(t, body))
		if _, more := body["nextPageToken"]; !more {
			break
		}
		replica := []*handlertest.API{a, b}[turn%2]
		body = replica.GetBody(t, handlertest.WithToken(path, body))
	}
	require.Equal(t, [][]string{{"15", "14"}, {"13", "12"}, {"11", "10"}}, pages, "round robin: nothing skipped or repeated")

	// Without the shared key the other replica cannot verify the token.
	other := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()), nil)
	other.Fakes.Key = []byte("another node's own key")
	first := a.GetBody(t, path)
	handlertest.RequireDataError(t, other.Get(t, handlertest.WithToken(path, first)), http.StatusBadRequest, "signature mismatch", "pageTokenSecret")
}

// TestReplicaBehindAnswers503: a replica whose follower has not reached the
// token's height waits (bounded by half the request's time) and then
// answers 503 with Retry-After and its own height, never an older page.
func TestReplicaBehindAnswers503(t *testing.T) {
	cfg := handlertest.Config()
	cfg.RequestTimeout = 200 * time.Millisecond // the wait gets 100ms
	a, b := replicaPair(t, cfg)
	handlertest.Arrive(a.Fakes, 20) // a is ahead
	path := aliceTxsPath + "?pageSize=2"
	first := a.GetBody(t, path)
	require.Equal(t, []string{"20", "15"}, handlertest.TxBlocks(t, first))

	began := time.Now()
	rec := b.Get(t, handlertest.WithToken(path, first))
	waited := time.Since(began)
	msg := handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable, "behind the pageToken", "C is indexed to height 15, the token was cut at 20")
	require.Contains(t, msg, "another replica")
	require.Equal(t, strconv.Itoa(api.DefaultRetryAfter), rec.Header().Get("Retry-After"), "no rate to estimate from")
	require.Equal(t, "C=15", rec.Header().Get(api.HeaderIndexedHeight), "the 503 says how far this replica is")
	require.GreaterOrEqual(t, waited, 90*time.Millisecond, "it waited for its follower first")
	require.Less(t, waited, time.Second)

	// The metrics service answers in its own error body.
	tps := "/metrics/v1/avg_tps/c-chain"
	b.Fakes.Buckets[netinfo.C] = handlertest.DailyBuckets(3, 1_700_000_000/handlertest.Day*handlertest.Day, 0)
	a.Fakes.Buckets[netinfo.C] = handlertest.DailyBuckets(3, 1_700_000_000/handlertest.Day*handlertest.Day, 0)
	firstTPS := a.GetBody(t, tps+"?pageSize=1")
	handlertest.RequireMetricsError(t, b.Get(t, handlertest.WithToken(tps+"?pageSize=1", firstTPS)), http.StatusServiceUnavailable, "behind the pageToken")

	// Once caught up, the replica serves exactly the next page.
	handlertest.Arrive(b.Fakes, 20)
	require.Equal(t, []string{"14", "13"}, handlertest.TxBlocks(t, b.GetBody(t, handlertest.WithToken(path, first))))
}

// TestReplicaBehindWaitsForItsFollower: a replica a moment behind serves
// the page as soon as its follower gets there.
func TestReplicaBehindWaitsForItsFollower(t *testing.T) {
	a, b := replicaPair(t, handlertest.Config())
	handlertest.Arrive(a.Fakes, 20)
	path := aliceTxsPath + "?pageSize=2"
	first := a.GetBody(t, path)

	go func() {
		time.Sleep(100 * time.Millisecond)
		handlertest.Arrive(b.Fakes, 20)
	}()
	began := time.Now()
	rec := b.Get(t, handlertest.WithToken(path, first))
	var body map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	require.GreaterOrEqual(t, time.Since(began), 90*time.Millisecond)
	require.Equal(t, []string{"14", "13"}, handlertest.TxBlocks(t, body))
	require.Equal(t, "C=20", rec.Header().Get(api.HeaderIndexedHeight), "the page shows the pinned height")
}

func TestReplicaWaitHonoursCancellation(t *testing.T) {
	a, b := replicaPair(t, handlertest.Config())
	handlertest.Arrive(a.Fakes, 20)
	path := aliceTxsPath + "?pageSize=2"
	first := a.GetBody(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://node"+handlertest.WithToken(path, first), nil)
	require.NoError(t, err)
	time.AfterFunc(50*time.Millisecond, cancel)
	began := time.Now()
	rec := b.Serve(req)
	require.Less(t, time.Since(began), time.Second, "the wait ends with the request")
	handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable, "cancelled")
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
