package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestOperatorRateLimits runs avadata on a node of its own, first with the chain
// config of a default install (no rateLimit key at all), then with small
// limits, and checks through the node's HTTP server:
//   - what client address reaches the plugin: none on plain HTTP/1.1, the
//     real peer on HTTP/2 (h2c) and on requests with an Upgrade header;
//   - that one client paging every list endpoint to its end, as fast as it
//     can, never gets a 429 on the defaults;
//   - per-client buckets by real address, X-Forwarded-For believed only
//     from a trusted proxy, per-key buckets, and 429 with Retry-After in the
//     spec's error body;
//   - the body bound (413) on REST and JSON-RPC.
//
// The shared network cannot serve: its config raises the limits for the
// suite's thousands of requests.
func TestOperatorRateLimits(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "node")
	start := func(chainConfig map[string]any) *localnet.Network {
		t.Helper()
		net, err := localnet.Start(ctx, localnet.Config{
			AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: dir,
			ChainConfig: chainConfig, ExtraFlags: harness.NodeFlags(), SkipSubnetEVM: true,
		})
		require.NoError(t, err)
		return net
	}

	defaults := start(map[string]any{}) // every limit at its default
	t.Run("ClientAddressThroughTheNode", func(t *testing.T) { clientAddressThroughNode(t, ctx, defaults) })
	t.Run("DefaultsLetOneClientPage", func(t *testing.T) { defaultsLetOneClientPage(t, ctx, defaults) })
	require.NoError(t, defaults.Stop(ctx))

	limited := start(map[string]any{
		"apiKeys": []string{"e2e-key-a", "e2e-key-b"},
		"rateLimit": map[string]any{
			"anonymousRps": 0.2, "anonymousBurst": 3, "keyRps": 0.2, "keyBurst": 3,
			"trustedProxies": []string{"127.0.0.1"},
		},
		"maxRequestBodyBytes": 4096,
	})
	defer func() { require.NoError(t, limited.Stop(context.Background())) }()
	base := limited.BaseURL()
	t.Run("PerClientAddress", func(t *testing.T) { perClientAddress(t, ctx, base) })
	t.Run("TrustedProxy", func(t *testing.T) { trustedProxy(t, ctx, base) })
	t.Run("UnknownPeerSharesOneBucket", func(t *testing.T) { unknownPeerSharesOneBucket(t, ctx, base) })
	t.Run("PerAPIKey", func(t *testing.T) { perAPIKey(t, ctx, base) })
	t.Run("RetryAfterIsHonest", func(t *testing.T) { retryAfterIsHonest(t, ctx, base) })
	t.Run("BodyLimit", func(t *testing.T) { bodyLimit(t, ctx, base) })
}

// limitClient sends requests from a chosen loopback address, over plain
// HTTP/1.1 or HTTP/2 without TLS (h2c, prior knowledge), which the node's
// HTTP server accepts.
type limitClient struct {
	http  *http.Client
	proto string
}

func newLimitClient(localIP string, h2c bool) *limitClient {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(localIP)}, Timeout: 10 * time.Second}
	transport := &http.Transport{DialContext: dialer.DialContext}
	proto := "HTTP/1.1"
	if h2c {
		transport.Protocols = new(http.Protocols)
		transport.Protocols.SetUnencryptedHTTP2(true)
		proto = "HTTP/2.0"
	}
	return &limitClient{http: &http.Client{Transport: transport, Timeout: 30 * time.Second}, proto: proto}
}

func (c *limitClient) do(t *testing.T, ctx context.Context, method, u string, body io.Reader, header ...string) harness.Reply {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	require.NoError(t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.http.Do(req)
	require.NoError(t, err, "%s %s", method, u)
	defer resp.Body.Close()
	require.Equal(t, c.proto, resp.Proto, "the request went over %s", c.proto)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return harness.Reply{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

func (c *limitClient) get(t *testing.T, ctx context.Context, u string, header ...string) harness.Reply {
	t.Helper()
	return c.do(t, ctx, http.MethodGet, u, nil, header...)
}

// clientSourceCounts reads avadata's api_requests_by_client_source_total
// from the node's /ext/metrics, by source.
func clientSourceCounts(t *testing.T, ctx context.Context, uri string) map[string]float64 {
	t.Helper()
	r := harness.Get(t, ctx, uri+"/ext/metrics")
	require.Equal(t, http.StatusOK, r.Status)
	re := regexp.MustCompile(`api_requests_by_client_source_total\{[^}]*source="([a-z_]+)"[^}]*\} (\S+)`)
	counts := map[string]float64{}
	for _, m := range re.FindAllStringSubmatch(string(r.Body), -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		require.NoError(t, err)
		counts[m[1]] += v
	}
	return counts
}

// clientAddressThroughNode proves what the plugin sees of the client. The
// node (avalanchego v1.14.2, vms/rpcchainvm/ghttp/http_client.go) passes a
// plain HTTP/1.1 request as HandleSimpleHTTPRequest, which has no field for
// the peer's address, and only HTTP/2 requests and requests with an Upgrade
// header through the full Handle call, which copies RemoteAddr. The
// client_source metric says which bucket each request went to.
func clientAddressThroughNode(t *testing.T, ctx context.Context, n *localnet.Network) {
	status := n.BaseURL() + "/v1/status"
	const each = 5
	cases := []struct {
		name   string
		client *limitClient
		header []string
		source string
	}{
		{"HTTP/1.1: no address", newLimitClient("127.0.0.2", false), nil, "unknown_peer"},
		{"HTTP/1.1 with Upgrade header: the peer", newLimitClient("127.0.0.2", false), []string{"Upgrade", "avadata-e2e"}, "peer"},
		{"HTTP/2: the peer", newLimitClient("127.0.0.2", true), nil, "peer"},
		// Loopback is a trusted proxy by default: its X-Forwarded-For counts.
		{"HTTP/2 from loopback proxy: forwarded", newLimitClient("127.0.0.1", true), []string{"X-Forwarded-For", "198.51.100.1"}, "forwarded"},
		// 127.0.0.2 is loopback too (127.0.0.0/8).
		{"HTTP/1.1 with X-Forwarded-For: still no address", newLimitClient("127.0.0.2", false), []string{"X-Forwarded-For", "198.51.100.1"}, "unknown_peer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := clientSourceCounts(t, ctx, n.URI())
			for range each {
				r := tc.client.get(t, ctx, status, tc.header...)
				require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
			}
			after := clientSourceCounts(t, ctx, n.URI())
			require.InDelta(t, float64(each), after[tc.source]-before[tc.source], 0, "before %v, after %v", before, after)
		})
	}
}

// ewoq is the local network's pre-funded address, in bech32 without chain.
const ewoqBech32 = "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"

// listEndpoints are the list endpoints a client pages, relative to the base
// URL, each with the smallest page size so that paging makes the most
// requests. NFT holders is left out: it is a 404 for an address that is no
// contract, and this network has none.
func listEndpoints(node string) []string {
	const ewoqC = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"
	return []string{
		"/v1/chains/43112/addresses/" + ewoqC + "/transactions?pageSize=1",
		"/v1/chains/43112/tokens/" + ewoqC + "/transfers?pageSize=1",
		"/v1/chains/43112/addresses/" + ewoqC + "/balances:listErc721?pageSize=1",
		"/v1/networks/local/blockchains/p-chain/transactions?pageSize=1&addresses=P-" + ewoqBech32,
		"/v1/networks/local/blockchains/x-chain/transactions?pageSize=1&addresses=X-" + ewoqBech32,
		"/v1/networks/local/blockchains/c-chain/transactions?pageSize=1&addresses=C-" + ewoqBech32,
		"/v1/networks/local/blockchains/p-chain/transactions:listStaking?pageSize=1&addresses=P-" + ewoqBech32,
		"/v1/networks/local/blockchains/p-chain/nodes/" + node + "/blocks?pageSize=1",
		"/v1/networks/local/blockchains/x-chain/vertices?pageSize=1",
		"/v1/networks/local/rewards?pageSize=1&addresses=P-" + ewoqBech32,
		"/v1/networks/local/validators/" + node + "?pageSize=1",
		"/v1/networks/local/delegators?pageSize=1",
		"/metrics/v1/avg_tps/p-chain?pageSize=1",
		"/metrics/v1/avg_tps/x-chain?pageSize=1",
		"/metrics/v1/avg_tps/43112?pageSize=1",
	}
}

// defaultsLetOneClientPage pages every list endpoint to its end, one
// request after the other as fast as this client goes, for a while, over
// plain HTTP/1.1 as the official SDK does. On the defaults no request may
// get a 429. It reports the rate reached, the figure the defaults are
// sized against (limits.DefaultAnonymousRPS, in handlers/limits).
func defaultsLetOneClientPage(t *testing.T, ctx context.Context, n *localnet.Network) {
	issuer := harness.NewTxIssuer(t, ctx, n.URI())
	issuer.IssueX(t, ctx, 10)
	issuer.IssueC(t, ctx, 5)
	heights := map[string]uint64{"X": truth.Height(t, ctx, n.URI(), "X"), "C": truth.Height(t, ctx, n.URI(), "C")}
	harness.WaitIndexed(t, ctx, n.ChainURL(), heights)

	var reply struct {
		NodeID string `json:"nodeID"`
	}
	require.NoError(t, truth.Call(ctx, n.URI()+"/ext/info", "info.getNodeID", struct{}{}, &reply))
	client := newLimitClient("127.0.0.1", false)
	base := n.BaseURL()
	const sweepFor = 15 * time.Second
	var requests, sweeps int
	statuses := map[int]int{}
	began := time.Now()
	for time.Since(began) < sweepFor {
		for _, list := range listEndpoints(reply.NodeID) {
			pages := 0
			for next := ""; pages == 0 || next != ""; pages++ {
				u := base + list
				if next != "" {
					u += "&pageToken=" + url.QueryEscape(next)
				}
				r := client.get(t, ctx, u)
				requests++
				statuses[r.Status]++
				require.NotEqual(t, http.StatusTooManyRequests, r.Status, "request %d (%s) got a 429 on the defaults: %s", requests, list, r.Body)
				require.Equal(t, http.StatusOK, r.Status, "%s: %s", u, r.Body)
				var page struct {
					NextPageToken string `json:"nextPageToken"`
				}
				r.Decode(t, &page)
				next = page.NextPageToken
				require.Less(t, pages, 10_000, "%s never ends", list)
			}
		}
		sweeps++
	}
	elapsed := time.Since(began)
	t.Logf("%d requests in %s (%d sweeps of %d list endpoints, paging each to its end): %.0f requests/s, statuses %v",
		requests, elapsed.Round(time.Millisecond), sweeps, len(listEndpoints(reply.NodeID)), float64(requests)/elapsed.Seconds(), statuses)

	// The floor: the cheapest request, one after the other.
	cheap, began := 0, time.Now()
	for ; time.Since(began) < 2*time.Second; cheap++ {
		r := client.get(t, ctx, base+"/v1/status")
		require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	}
	t.Logf("GET /v1/status one after the other: %.0f requests/s", float64(cheap)/time.Since(began).Seconds())
}

// requireLimited sends GETs from c until one gets a 429 (at most burst+1
// are needed) and checks that reply: the spec's error body naming the
// client, and Retry-After in whole seconds.
func requireLimited(t *testing.T, ctx context.Context, c *limitClient, u string, burst int, names string, header ...string) harness.Reply {
	t.Helper()
	for i := 0; i <= burst; i++ {
		r := c.get(t, ctx, u, header...)
		if r.Status != http.StatusTooManyRequests {
			require.Less(t, r.Status, 500, "body: %s", r.Body)
			continue
		}
		harness.RequireErrorBody(t, r, http.StatusTooManyRequests, "rate limit exceeded for "+names)
		seconds, err := strconv.Atoi(r.Header.Get("Retry-After"))
		require.NoError(t, err, "Retry-After %q", r.Header.Get("Retry-After"))
		require.GreaterOrEqual(t, seconds, 1)
		return r
	}
	t.Fatalf("%d requests from %s got no 429", burst+1, names)
	return harness.Reply{}
}

// requireAdmitted checks that a request passes the rate limiter.
func requireAdmitted(t *testing.T, ctx context.Context, c *limitClient, u string, header ...string) {
	t.Helper()
	r := c.get(t, ctx, u, header...)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
}

const limitedBurst = 3

// anonymousBurst and keyBurst of the limited config

// perClientAddress: over HTTP/2 the node passes the real peer address, and
// each address has its own bucket; an untrusted peer's X-Forwarded-For is
// ignored (127.0.0.2 is not in trustedProxies, only 127.0.0.1 is).
func perClientAddress(t *testing.T, ctx context.Context, base string) {
	status := base + "/v1/status"
	a, b := newLimitClient("127.0.0.2", true), newLimitClient("127.0.0.3", true)
	requireLimited(t, ctx, a, status, limitedBurst, "client 127.0.0.2;", "X-Forwarded-For", "198.51.100.20")
	// Another forwarded address from the same untrusted peer changes nothing.
	requireLimited(t, ctx, a, status, 0, "client 127.0.0.2;", "X-Forwarded-For", "198.51.100.21")
	requireAdmitted(t, ctx, b, status)
}

// trustedProxy: from the trusted proxy (127.0.0.1), each forwarded client
// has its own bucket, and the entries a client writes itself (left of what
// the proxy appended) do not pick the bucket.
func trustedProxy(t *testing.T, ctx context.Context, base string) {
	status := base + "/v1/status"
	proxy := newLimitClient("127.0.0.1", true)
	requireLimited(t, ctx, proxy, status, limitedBurst, "client 198.51.100.1;", "X-Forwarded-For", "198.51.100.1")
	requireAdmitted(t, ctx, proxy, status, "X-Forwarded-For", "198.51.100.2")
	requireLimited(t, ctx, proxy, status, 0, "client 198.51.100.1;", "X-Forwarded-For", "203.0.113.9, 198.51.100.1")
}

// unknownPeerSharesOneBucket: plain HTTP/1.1 requests carry no address
// through the node, so requests from two source addresses, with different
// X-Forwarded-For, share one bucket (the header is not believed: the peer
// that sent it is unknown).
func unknownPeerSharesOneBucket(t *testing.T, ctx context.Context, base string) {
	status := base + "/v1/status"
	const unknown = "clients whose address the node does not pass on"
	requireLimited(t, ctx, newLimitClient("127.0.0.4", false), status, limitedBurst, unknown, "X-Forwarded-For", "198.51.100.30")
	requireLimited(t, ctx, newLimitClient("127.0.0.5", false), status, 0, unknown, "X-Forwarded-For", "198.51.100.31")
}

// perAPIKey: each key has its own bucket, whatever the address; the SDK's
// header counts like the spec's.
func perAPIKey(t *testing.T, ctx context.Context, base string) {
	status := base + "/v1/status"
	c := newLimitClient("127.0.0.6", false)
	requireLimited(t, ctx, c, status, limitedBurst, "this API key", "x-data-api-key", "e2e-key-a")
	requireLimited(t, ctx, c, status, 0, "this API key", "x-glacier-api-key", "e2e-key-a")
	requireAdmitted(t, ctx, c, status, "x-glacier-api-key", "e2e-key-b")
	r := c.get(t, ctx, status, "x-data-api-key", "not-a-key")
	harness.RequireErrorBody(t, r, http.StatusUnauthorized, "invalid API key")
}

// retryAfterIsHonest: after waiting Retry-After seconds the client gets
// through; the metrics service answers a 429 in its own body (message is
// an array).
func retryAfterIsHonest(t *testing.T, ctx context.Context, base string) {
	c := newLimitClient("127.0.0.7", true)
	u := base + "/metrics/v1/avg_tps/p-chain"
	r := requireLimited(t, ctx, c, u, limitedBurst, "client 127.0.0.7;")
	var body struct {
		Message []string `json:"message"`
	}
	r.Decode(t, &body)
	require.Len(t, body.Message, 1, "the metrics service's message is an array: %s", r.Body)
	seconds, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	require.Equal(t, 5, seconds, "one token at 0.2/s")
	time.Sleep(time.Duration(seconds) * time.Second)
	requireAdmitted(t, ctx, c, u)
}

// bodyLimit: maxRequestBodyBytes (4096 here) holds on every route, with a
// 413 in the spec's error body, whether the body comes with a length
// (HTTP/1.1: the node has read it whole) or streams (HTTP/2, no length).
func bodyLimit(t *testing.T, ctx context.Context, base string) {
	big := `{"jsonrpc":"2.0","method":"avadata.status","id":1,"pad":"` + strings.Repeat("x", 5000) + `"}`
	for i, tc := range []struct {
		name, method, path string
		h2c, streamed      bool
	}{
		{"JSON-RPC", http.MethodPost, "/rpc", false, false},
		{"JSON-RPC over HTTP/2", http.MethodPost, "/rpc", true, false},
		{"JSON-RPC streamed", http.MethodPost, "/rpc", true, true},
		{"REST POST", http.MethodPost, "/v1/signatureAggregator/local/aggregateSignatures", false, false},
		{"REST POST streamed", http.MethodPost, "/v1/signatureAggregator/local/aggregateSignatures", true, true},
		{"REST GET with a body", http.MethodGet, "/v1/status", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// HTTP/2 clients get a bucket each by address; the HTTP/1.1
			// ones, which all share one anonymous bucket, use the key
			// left with tokens.
			c := newLimitClient(fmt.Sprintf("127.0.1.%d", i+1), tc.h2c)
			header := []string{"Content-Type", "application/json"}
			if !tc.h2c {
				header = append(header, "x-data-api-key", "e2e-key-b")
			}
			var body io.Reader = strings.NewReader(big)
			if tc.streamed {
				body = io.MultiReader(strings.NewReader(big)) // no length: sent without Content-Length
			}
			r := c.do(t, ctx, tc.method, base+tc.path, body, header...)
			harness.RequireErrorBody(t, r, http.StatusRequestEntityTooLarge, "request body too large: the limit is 4096 bytes (4 KiB)")
		})
	}
	// Under the bound JSON-RPC answers as usual.
	c := newLimitClient("127.0.1.9", true)
	r := c.do(t, ctx, http.MethodPost, base+"/rpc", strings.NewReader(`{"jsonrpc":"2.0","method":"avadata.status","id":1}`),
		"Content-Type", "application/json")
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var rpcReply map[string]json.RawMessage
	r.Decode(t, &rpcReply)
	require.Contains(t, rpcReply, "result")
}
