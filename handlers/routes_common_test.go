package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/gorilla/mux"
	"github.com/stretchr/testify/require"
)

// Fixtures of the route tests (local network, see localInfo).
var (
	testNodeID   = ids.BuildTestNodeID([]byte{1, 2, 3}).String()
	testNodeID2  = ids.BuildTestNodeID([]byte{4, 5, 6}).String()
	testTxID     = ids.ID{'t', 'x'}.String()
	testEVMAddr  = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
	testEVMAddr2 = "0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e"
)

// bech32Addr returns a bech32 X/P address with prefix hrp.
func bech32Addr(t *testing.T, hrp string, seed byte) string {
	t.Helper()
	addr := make([]byte, 20)
	for i := range addr {
		addr[i] = seed + byte(i)
	}
	s, err := address.FormatBech32(hrp, addr)
	require.NoError(t, err)
	return s
}

// routeCase is one request against the router and the reply it must get:
// a 400 (or other error) whose message contains every fragment; with status
// 404 and notServed set, the "not served yet" reply of template; with status
// 200, a JSON body without nulls that has bodyKey.
type routeCase struct {
	name      string
	method    string // GET when empty
	path      string
	body      string
	status    int
	fragments []string
	notServed string // the route template of a valid request
	bodyKey   string // a member the 200 body has
}

// ok is a case for a request served with 200 and a body that has key.
func ok(name, path, key string) routeCase {
	return routeCase{name: name, path: path, status: http.StatusOK, bodyKey: key}
}

// failing is a case for valid input that gets an error status.
func failing(name, path string, status int, fragments ...string) routeCase {
	return routeCase{name: name, path: path, status: status, fragments: fragments}
}

// valid is a case for valid input of the route with template tpl.
func valid(name, path, tpl string) routeCase {
	return routeCase{name: name, path: path, status: http.StatusNotFound, notServed: tpl}
}

// invalid is a case for input rejected with a 400 naming the fragments.
func invalid(name, path string, fragments ...string) routeCase {
	return routeCase{name: name, path: path, status: http.StatusBadRequest, fragments: fragments}
}

// muxVars sets the path variables of a request built outside the router.
func muxVars(r *http.Request, vars map[string]string) *http.Request { return mux.SetURLVars(r, vars) }

func runRouteCases(t *testing.T, srv *testAPI, cases []routeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			rec := srv.request(t, method, tc.path, tc.body)
			if tc.status == http.StatusOK {
				var body map[string]any
				requireJSON(t, rec, http.StatusOK, &body)
				requireNoNulls(t, body)
				require.Contains(t, body, tc.bodyKey)
				return
			}
			fragments := tc.fragments
			if tc.notServed != "" {
				fragments = append(fragments, method+" "+tc.notServed+" is not served by avadata v-test yet")
			}
			u, err := url.Parse(tc.path)
			require.NoError(t, err)
			if api.IsMetricsPath(api.StripChainPrefix(u.Path)) {
				requireMetricsError(t, rec, tc.status, fragments...)
			} else {
				requireDataError(t, rec, tc.status, fragments...)
			}
		})
	}
}

func TestNotServedYetMessage(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	rec := srv.get(t, "/ext/bc/data/v1/signatureAggregator/local/aggregateSignatures/"+testTxID)
	msg := requireDataError(t, rec, http.StatusNotFound)
	require.Equal(t, "GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash} is not served by avadata v-test yet", msg)
}

// TestLiteralSuffixRoutes checks that the routes whose last segment carries
// a literal ":suffix" and their plain siblings each match exactly their own
// paths: each request is answered by the route its template names.
func TestLiteralSuffixRoutes(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	const (
		pBase = "/v1/networks/local/blockchains/p-chain"
		xBase = "/v1/networks/local/blockchains/x-chain"
		txs   = "/v1/networks/{network}/blockchains/{blockchainId}/transactions"
		verts = "/v1/networks/{network}/blockchains/{blockchainId}/vertices"
		evm   = "/v1/chains/{chainId}/addresses/{address}"
	)
	runRouteCases(t, srv, []routeCase{
		ok("transactions", pBase+"/transactions", "transactions"),
		ok("transactions:listStaking", pBase+"/transactions:listStaking", "transactions"),
		ok("encoded colon", pBase+"/transactions%3AlistStaking", "transactions"),
		// The X-chain is fine for /transactions but not for :listStaking, so
		// each reply shows which route answered.
		ok("x-chain transactions", xBase+"/transactions", "transactions"),
		invalid("x-chain listStaking", xBase+"/transactions:listStaking", "blockchainId", "not supported by this endpoint"),
		ok("vertices", xBase+"/vertices", "vertices"),
		ok("vertices:listByHeight", xBase+"/vertices:listByHeight?vertexHeight=0", "vertices"),
		invalid("listByHeight needs vertexHeight", xBase+"/vertices:listByHeight", "vertexHeight is required"),
		ok("contract metadata", "/v1/chains/43112/addresses/"+wavax.Hex(), "ercType"),
		ok("address transactions", "/v1/chains/43112/addresses/"+testEVMAddr+"/transactions", "transactions"),
		ok("erc721 balances", "/v1/chains/43112/addresses/"+testEVMAddr+"/balances:listErc721", "erc721TokenBalances"),
		ok("native balance", "/v1/chains/43112/addresses/"+testEVMAddr+"/balances:getNative", "nativeTokenBalance"),
		ok("getDeployment", "/v1/chains/43112/contracts/"+wavax.Hex()+"/transactions:getDeployment", "networkTokenDetails"),
		ok("nfts:listHolders", "/metrics/v2/chains/43112/contracts/"+kitties.Hex()+"/nfts:listHolders", "totalHolders"),
		ok("chain", "/v1/chains/43112", "rpcUrl"),
		ok("chains", "/v1/chains", "chains"),
		{name: "unknown suffix", path: pBase + "/transactions:listFoo", status: http.StatusNotFound, fragments: []string{"no route"}},
		{name: "suffix without colon", path: pBase + "/transactionslistStaking", status: http.StatusNotFound, fragments: []string{"no route"}},
		{name: "colon alone", path: pBase + "/transactions:", status: http.StatusNotFound, fragments: []string{"no route"}},
		{name: "trailing slash", path: pBase + "/transactions/", status: http.StatusNotFound, fragments: []string{"no route"}},
		{name: "unknown balances suffix", path: "/v1/chains/43112/addresses/" + testEVMAddr + "/balances:listErc20",
			status: http.StatusNotFound, fragments: []string{"no route"}},
		{name: "getDeployment on addresses", path: "/v1/chains/43112/addresses/" + testEVMAddr + "/transactions:getDeployment",
			status: http.StatusNotFound, fragments: []string{"no route"}},
	})
}

func TestMethodNotAllowedHasAllowHeader(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	tests := []struct {
		method, path, allow string
		metrics             bool
	}{
		{http.MethodGet, "/v1/signatureAggregator/local/aggregateSignatures", "POST", false},
		{http.MethodPost, "/v1/signatureAggregator/local/aggregateSignatures/" + testTxID, "GET", false},
		{http.MethodPut, "/v1/signatureAggregator/local/aggregateSignatures", "POST", false},
		{http.MethodPost, "/v1/networks/local/blockchains/p-chain/transactions:listStaking", "GET", false},
		{http.MethodDelete, "/v1/networks/local/rewards", "GET", false},
		{http.MethodPost, "/v1/status", "GET", false},
		{http.MethodGet, "/rpc", "POST", false},
		{http.MethodPost, "/metrics/v2/chains/43112/contracts/" + testEVMAddr + "/nfts:listHolders", "GET", true},
		{http.MethodDelete, "/metrics/v1/avg_tps/43112", "GET", true},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rec := srv.request(t, tt.method, tt.path, "")
			if tt.metrics {
				requireMetricsError(t, rec, http.StatusMethodNotAllowed, tt.method, "allowed: "+tt.allow)
			} else {
				requireDataError(t, rec, http.StatusMethodNotAllowed, tt.method, "allowed: "+tt.allow)
			}
			require.Equal(t, tt.allow, rec.Header().Get("Allow"))
		})
	}
}

func TestIndexListsDataRoutes(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	var body indexResponse
	requireJSON(t, srv.get(t, "/"), http.StatusOK, &body)
	paths := make(map[string]string)
	for _, e := range body.Endpoints {
		paths[e.Method+" "+e.Path] = e.Summary
	}
	require.Len(t, paths, 5+17+4)
	require.NotContains(t, paths["GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}"], "not served yet")
	require.NotContains(t, paths["POST /v1/signatureAggregator/{network}/aggregateSignatures"], "not served yet")
	require.NotContains(t, paths["GET /metrics/v2/chains/{chainId}/contracts/{address}/nfts:listHolders"], "not served yet")
}

func TestStubPageTokens(t *testing.T) {
	backend := newFakeBackend()
	srv := newTestAPI(t, testConfig(), backend, nil)
	// A token issued by another endpoint (avg TPS) is rejected by name.
	s := newTestServer(backend.readers(), srv.clock.Now)
	tpsPage := firstPage(t, s, routeAvgTPS, "P")
	token, err := s.NextPageToken(tpsPage, 1, nil)
	require.NoError(t, err)
	path := "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=1&pageToken="
	requireDataError(t, srv.get(t, path+token), http.StatusBadRequest, "invalid pageToken", "another endpoint")
	requireDataError(t, srv.get(t, path+"garbage"), http.StatusBadRequest, "invalid pageToken")

	// A token of the same route and filters passes validation.
	q := url.Values{}
	verticesPage := firstPage(t, s, routeListVerticesByHeight, "1", "desc")
	token, err = s.NextPageToken(verticesPage, 7, encodeBlockHeight(7))
	require.NoError(t, err)
	q.Set("pageToken", token)
	const vertices = "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=1&"
	requireJSON(t, srv.get(t, vertices+q.Encode()), http.StatusOK, &map[string]any{})
	// ... but not with other filters.
	requireDataError(t, srv.get(t, vertices+"sortOrder=asc&"+q.Encode()),
		http.StatusBadRequest, "invalid pageToken", "other parameters")
}

func TestParseTxTypes(t *testing.T) {
	tests := []struct {
		query   string
		want    []string
		wantErr []string
	}{
		{query: ""},
		{query: "txTypes=AddValidatorTx", want: []string{"AddValidatorTx"}},
		{query: "txTypes=AddValidatorTx&txTypes=AddDelegatorTx", want: []string{"AddValidatorTx", "AddDelegatorTx"}},
		{query: "txTypes=AddValidatorTx,%20ImportTx,,", want: []string{"AddValidatorTx", "ImportTx"}},
		{query: "txTypes=importtx&txTypes=ImportTx,unknown", want: []string{"ImportTx", "UNKNOWN"}},
		{query: "txTypes=AddValidatorTx&txTypes=Bogus", wantErr: []string{"txTypes", "'Bogus'", "'AddValidatorTx'", "'OperationTx'"}},
		{query: "txTypes=AddValidator", wantErr: []string{"txTypes", "'AddValidator'"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := parseTxTypes(query(t, tt.query))
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	require.Len(t, primaryNetworkTxTypes(), 23)
}

func TestParseIDs(t *testing.T) {
	_, err := api.ParseNodeID("nodeId", testNodeID)
	require.NoError(t, err)
	for _, bad := range []string{"", "NodeID-", "NodeID-abc", "111111111111111111116DBWJs", "nodeid-111111111111111111116DBWJs",
		"NodeID-" + strings.Repeat("1", 200)} {
		_, err := api.ParseNodeID("nodeId", bad)
		requireBadRequest(t, err, "invalid nodeId", "NodeID-")
	}

	id := ids.ID{1, 2, 3}
	for _, good := range []string{id.String(), id.Hex(), "0x" + id.Hex(), strings.ToUpper(id.Hex())} {
		got, err := api.ParseHexOrCB58ID("signingSubnetId", good)
		require.NoError(t, err, good)
		require.Equal(t, id, got, good)
	}
	for _, bad := range []string{"zz", "0x" + id.Hex()[2:], id.Hex() + "00", "0x" + id.String(), strings.Repeat("2", 500)} {
		_, err := api.ParseHexOrCB58ID("signingSubnetId", bad)
		requireBadRequest(t, err, "invalid signingSubnetId", "cb58", "hex")
	}

	got, err := api.ParseCB58ID("txHash", testTxID)
	require.NoError(t, err)
	require.Equal(t, ids.ID{'t', 'x'}, got)
	for _, bad := range []string{"abc", id.Hex(), strings.Repeat("3", 5000)} {
		_, err := api.ParseCB58ID("txHash", bad)
		requireBadRequest(t, err, "invalid txHash", "cb58")
	}
}

func TestParseEnumAndRequiredUint(t *testing.T) {
	got, err := api.ParseEnum(query(t, "validationStatus=Active"), "validationStatus", validationStatuses())
	require.NoError(t, err)
	require.Equal(t, "active", got)
	got, err = api.ParseEnum(query(t, ""), "validationStatus", validationStatuses())
	require.NoError(t, err)
	require.Empty(t, got)
	_, err = api.ParseEnum(query(t, "delegationStatus=removed"), "delegationStatus", delegationStatuses())
	requireBadRequest(t, err, "invalid delegationStatus 'removed'", "'completed', 'active', 'pending'")

	n, err := api.ParseRequiredUint(query(t, "vertexHeight=18446744073709551615"), "vertexHeight")
	require.NoError(t, err)
	require.Equal(t, uint64(18446744073709551615), n)
	_, err = api.ParseRequiredUint(query(t, ""), "vertexHeight")
	requireBadRequest(t, err, "vertexHeight is required")
	for _, bad := range []string{"-1", "1.5", "x", "18446744073709551616"} {
		_, err = api.ParseRequiredUint(query(t, "vertexHeight="+bad), "vertexHeight")
		requireBadRequest(t, err, "invalid vertexHeight", ">= 0")
	}
}
