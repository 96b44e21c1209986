package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/limits"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Chain IDs of the fake local network. The P-chain ID is the same on every
// network (ids.Empty). Besides P, X and C the node follows one subnet-evm
// chain, "dispatch".
var (
	testXChainID      = ids.ID{'x'}
	testCChainID      = ids.ID{'c'}
	testSubnetChainID = ids.ID{'d'}
	testSubnetID      = ids.ID{'s'}
	testAVAXAssetID   = ids.ID{'a', 'v', 'a', 'x'}
)

// testSubnetChain is the store number and EVM chain id of "dispatch".
const (
	testSubnetChain      = netinfo.FirstRegistered
	testSubnetEVMChainID = 779672
)

func localInfo() netinfo.Info {
	chains := netinfo.Primary(constants.LocalID, testXChainID, testCChainID)
	chains = append(chains, netinfo.ChainInfo{
		Chain: testSubnetChain, Kind: netinfo.KindEVM, BlockchainID: testSubnetChainID,
		SubnetID: testSubnetID, Name: "dispatch", EVMChainID: testSubnetEVMChainID,
	})
	return netinfo.Info{NetworkID: constants.LocalID, AVAXAssetID: testAVAXAssetID, Chains: chains}
}

// fakeBackend is an in-memory node view and metrics reader; evm holds the
// EVM readers. Buckets are kept newest first, as the store returns them.
type fakeBackend struct {
	mu       sync.Mutex
	info     netinfo.Info
	statuses []follower.Status
	buckets  map[netinfo.Chain][]store.TPSBucket
	key      []byte
	tpsErr   error
	panicMsg string // Statuses panics with it when set
	tpsCalls []tpsCall
	evm      *fakeEVM
	primary  *fakePrimary
	staking  *fakeStaking
	platform *fakePlatform
	vertices *fakeVertices // nil: no vertex reader
}

// readers is the Backend the handler gets.
func (f *fakeBackend) readers() Backend {
	b := Backend{Node: f, Metrics: f, EVM: f.evm, EVMState: f.evm, Primary: f.primary,
		Staking: f.staking, Platform: f.platform}
	if f.vertices != nil {
		b.Vertices = f.vertices
	}
	return b
}

type tpsCall struct {
	chain  netinfo.Chain
	before int64
	limit  int
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{
		info:     localInfo(),
		buckets:  map[netinfo.Chain][]store.TPSBucket{},
		key:      []byte("test page token key"),
		evm:      newFakeEVM(),
		primary:  newFakePrimary(),
		staking:  newFakeStaking(),
		platform: newFakePlatform(),
	}
}

func (f *fakeBackend) Network() netinfo.Info { return f.info }

func (f *fakeBackend) Statuses() []follower.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.panicMsg != "" {
		panic(f.panicMsg)
	}
	return slices.Clone(f.statuses) // a snapshot, as the node's is: setIndexedHeight writes in place
}

// setIndexedHeight reports chain's follower at height.
func (f *fakeBackend) setIndexedHeight(chain netinfo.Chain, height uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.statuses {
		if f.statuses[i].Chain == chain {
			f.statuses[i].IndexedHeight = height
			return
		}
	}
	f.statuses = append(f.statuses, follower.Status{Chain: chain, ChainName: chain.String(), IndexedHeight: height, Running: true})
}

func (f *fakeBackend) TPSBuckets(ctx context.Context, chain netinfo.Chain, before int64, limit int) ([]store.TPSBucket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tpsCalls = append(f.tpsCalls, tpsCall{chain: chain, before: before, limit: limit})
	if f.tpsErr != nil {
		return nil, f.tpsErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []store.TPSBucket
	for _, b := range f.buckets[chain] {
		if before != 0 && b.Start >= before {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, b)
	}
	return out, nil
}

func (f *fakeBackend) PageTokenKey() []byte { return f.key }

// fakeController records follower commands.
type fakeController struct {
	mu      sync.Mutex
	paused  []netinfo.Chain
	resumed []netinfo.Chain
	err     error
}

func (c *fakeController) PauseFollower(chain netinfo.Chain) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paused = append(c.paused, chain)
	return c.err
}

func (c *fakeController) ResumeFollower(chain netinfo.Chain) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resumed = append(c.resumed, chain)
	return c.err
}

// fakeClock is a settable clock for page tokens and rate limits.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testAPI bundles a handler with its fakes.
type testAPI struct {
	handler http.Handler
	backend *fakeBackend
	clock   *fakeClock
	reg     *prometheus.Registry
}

// testConfig has limits high enough that ordinary tests never hit them.
func testConfig() Config {
	return Config{
		APIKeys: []string{"known-key"},
		Rates:   limits.Rates{AnonymousRPS: 1000, AnonymousBurst: 100_000, KeyRPS: 1000, KeyBurst: 100_000},
		Version: "v-test",
	}
}

func newTestAPI(t *testing.T, cfg Config, backend *fakeBackend, ctrl Controller) *testAPI {
	t.Helper()
	clock := newFakeClock()
	reg := prometheus.NewRegistry()
	h, err := newHandler(cfg, backend.readers(), ctrl, logging.NoLog{}, reg, clock.Now)
	require.NoError(t, err)
	return &testAPI{handler: h, backend: backend, clock: clock, reg: reg}
}

// request performs one request; headers are name/value pairs.
func (a *testAPI) request(t *testing.T, method, path, body string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, "http://node"+path, reader)
	// A plain HTTP/1.1 request through the node carries neither the
	// client's address nor its Host (see clientaddr.go).
	req.RemoteAddr = ""
	req.Host = ""
	require.Zero(t, len(headers)%2, "headers must be name/value pairs")
	for i := 0; i < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	a.handler.ServeHTTP(rec, req)
	return rec
}

// newRecorderFor serves an already built request.
func newRecorderFor(a *testAPI, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	a.handler.ServeHTTP(rec, req)
	return rec
}

func (a *testAPI) get(t *testing.T, path string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	return a.request(t, http.MethodGet, path, "", headers...)
}

// requireJSON checks status and content type and decodes the body into v.
func requireJSON(t *testing.T, rec *httptest.ResponseRecorder, status int, v any) {
	t.Helper()
	require.Equal(t, status, rec.Code, "body: %s", rec.Body.String())
	require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json"),
		"content type %q", rec.Header().Get("Content-Type"))
	if v != nil {
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), v), "body: %s", rec.Body.String())
	}
}

// requireDataError checks a data-service error body (message is a string)
// and that the message contains every fragment.
func requireDataError(t *testing.T, rec *httptest.ResponseRecorder, status int, fragments ...string) string {
	t.Helper()
	var body map[string]any
	requireJSON(t, rec, status, &body)
	require.Len(t, body, 3, "body: %s", rec.Body.String())
	require.Equal(t, http.StatusText(status), body["error"])
	require.InDelta(t, float64(status), body["statusCode"], 0)
	message, ok := body["message"].(string)
	require.True(t, ok, "message should be a string: %s", rec.Body.String())
	for _, f := range fragments {
		require.Contains(t, message, f)
	}
	return message
}

// requireMetricsError checks a metrics-service error body (message is an
// array of strings).
func requireMetricsError(t *testing.T, rec *httptest.ResponseRecorder, status int, fragments ...string) string {
	t.Helper()
	var body struct {
		Message    []string `json:"message"`
		Error      string   `json:"error"`
		StatusCode int      `json:"statusCode"`
	}
	requireJSON(t, rec, status, &body)
	require.Len(t, body.Message, 1, "body: %s", rec.Body.String())
	require.Equal(t, http.StatusText(status), body.Error)
	require.Equal(t, status, body.StatusCode)
	for _, f := range fragments {
		require.Contains(t, body.Message[0], f)
	}
	return body.Message[0]
}

// requireNoNulls walks a decoded JSON value and fails on any null: optional
// fields are omitted, never null.
func requireNoNulls(t *testing.T, v any) {
	t.Helper()
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case nil:
			t.Fatalf("null at %s", path)
		case map[string]any:
			for k, child := range v {
				walk(path+"."+k, child)
			}
		case []any:
			for i, child := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), child)
			}
		}
	}
	walk("$", v)
}

// getBody fetches path and decodes a 200 JSON body without nulls.
func getBody(t *testing.T, srv *testAPI, path string) map[string]any {
	t.Helper()
	var body map[string]any
	requireJSON(t, srv.get(t, path), http.StatusOK, &body)
	requireNoNulls(t, body)
	return body
}

// decodeJSON decodes a JSON document for comparison with a decoded body.
func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v), s)
	return v
}

// followerStatus is a follower's status as the node reports it.
func followerStatus(chain netinfo.Chain, running, paused bool) follower.Status {
	return follower.Status{Chain: chain, ChainName: chain.String(), Running: running, Paused: paused}
}

// newTestServer is a server for tests that call its methods directly; now
// may be nil (the wall clock).
func newTestServer(backend Backend, now func() time.Time) *server {
	return &server{Core: api.NewCore(backend.Node, nil, now, DefaultVersion, DefaultRequestTimeout), cfg: testConfig().withDefaults(), backend: backend}
}

func query(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	require.NoError(t, err)
	return q
}

// Chain IDs of the public networks.
const (
	pChainID      = "11111111111111111111111111111111LpoYY"
	fujiXChain    = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"
	fujiCChain    = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp"
	mainnetXChain = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
)

// firstPage is the first page of a listing of route whose filters are
// filters, for tests that mint page tokens.
func firstPage(t *testing.T, s *server, route string, filters ...string) api.Page {
	t.Helper()
	pg, err := s.ParsePage(context.Background(), &api.Heights{}, url.Values{}, api.DataPaging(route, false), filters...)
	require.NoError(t, err)
	return pg
}

// requireBadRequest checks that err is a 400 api.Error mentioning every
// fragment.
func requireBadRequest(t *testing.T, err error, fragments ...string) {
	t.Helper()
	var apiErr *api.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.Status)
	for _, f := range fragments {
		require.Contains(t, apiErr.Message, f)
	}
}

// newTestPrimaryServer is the primary network's server over backend, for
// tests that call its methods directly.
func newTestPrimaryServer(backend Backend) *primaryServer {
	return &primaryServer{Core: newTestServer(backend, nil).Core, reader: backend.Primary, staking: backend.Staking,
		platform: backend.Platform, vertices: backend.Vertices}
}

// newTestSigAggServer is signature aggregation's server over backend.
func newTestSigAggServer(backend Backend) *sigAggServer {
	return &sigAggServer{Core: newTestServer(backend, nil).Core, aggregator: backend.SigAgg}
}
