package operator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestOperatorReplicasBehindOneProxy runs avadata as two replicas: the
// package's 2-node network, both chain configs holding the same
// pageTokenSecret, behind a round-robin reverse proxy started here. It
// proves what the README promises in "Running replicas":
//
//   - a list paged through the proxy, every page on the other replica than
//     the page before, lists exactly the transactions the node's own eth
//     API has for the address, newest first and oldest first, nothing
//     skipped or repeated, every page saying in X-Indexed-Height the height
//     it reflects;
//   - a replica whose follower is behind the height a token was cut at
//     (paused over the admin JSON-RPC) answers 503 with Retry-After and its
//     own height, never an older page; resumed while a request waits, it
//     serves exactly the page the ahead replica serves.
func TestOperatorReplicasBehindOneProxy(t *testing.T) {
	tn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	uris := tn.Net.URIs()
	chainPath := "/ext/bc/" + tn.Net.ChainID().String()
	bases := []string{uris[0] + chainPath, uris[1] + chainPath}

	proxy := newRoundRobinProxy(t, uris)
	proxyBase := proxy.url + chainPath

	// Activity: C-chain transfers of the EWOQ address, issued on node 1 in
	// rounds, so the list spans several blocks and pages cut inside blocks.
	x := harness.NewTxIssuer(t, ctx, uris[0])
	var issued []string
	for range 4 {
		issued = append(issued, x.IssueC(t, ctx, 3)...)
	}
	head := truth.Height(t, ctx, uris[0], "C")
	for _, base := range bases {
		waitCtx, waitCancel := context.WithTimeout(ctx, time.Minute)
		harness.WaitIndexed(t, waitCtx, base, map[string]uint64{"C": head})
		waitCancel()
	}
	var evmChainID hexutil.Uint64
	require.NoError(t, truth.EthClient(t, ctx, uris[0]).CallContext(ctx, &evmChainID, "eth_chainId"))
	ewoq := genesis.EWOQKey.EthAddress()
	list := "/v1/chains/" + strconv.FormatUint(uint64(evmChainID), 10) + "/addresses/" + ewoq.Hex() + "/transactions"
	onNode := truth.NewEVMChain(truth.EthClient(t, ctx, uris[0]))

	// Paging through the proxy, round robin: every page on the other node.
	for _, order := range []string{"desc", "asc"} {
		pages := pageThroughReplicas(t, ctx, proxyBase+list+"?pageSize=3&sortOrder="+order)
		require.Greater(t, len(pages), 2, "%s: the list spans several pages", order)
		served := map[string]bool{}
		height := pages[0].height
		var got []common.Hash
		for i, p := range pages {
			served[p.replica] = true
			require.Equal(t, height, p.height, "%s page %d: a pinned listing reflects its first page's height", order, i)
			if i > 0 {
				require.NotEqual(t, pages[i-1].replica, p.replica, "%s page %d: round robin", order, i)
			}
			got = append(got, p.hashes...)
		}
		require.Len(t, served, 2, "%s: both replicas served pages", order)
		require.NoError(t, onNode.ScanTo(ctx, height))
		want := truth.EVMHashes(onNode.Involving(ewoq, 0, height+1))
		if order == "asc" {
			want = harness.Reversed(want)
		}
		require.Equal(t, want, got, "%s: the pages, end to end, are the node's transactions of EWOQ up to block %d", order, height)
		for _, h := range issued {
			require.Contains(t, got, common.HexToHash(h), "%s: issued tx %s listed", order, h)
		}
		t.Logf("%s: %d txs in %d pages at C=%d, served by %v", order, len(got), len(pages), height, slices.Sorted(maps.Keys(served)))
	}

	// Node 2's follower stops; node 1 indexes new blocks.
	controlFollowerOK(t, ctx, bases[1], "avadata.pauseFollower", "C")
	t.Cleanup(func() { _ = controlFollower(context.Background(), bases[1], "avadata.resumeFollower", "C") })
	behind := pausedHeight(t, ctx, bases[1], "C")
	x.IssueC(t, ctx, 4)
	head = truth.Height(t, ctx, uris[0], "C")
	require.Greater(t, head, behind)
	waitCtx, waitCancel := context.WithTimeout(ctx, time.Minute)
	harness.WaitIndexed(t, waitCtx, bases[0], map[string]uint64{"C": head})
	waitNodeHeight(t, waitCtx, uris[1], head) // node 2's node has the blocks; only its index lags
	waitCancel()

	firstURL := bases[0] + list + "?pageSize=3"
	first := getPage(t, ctx, firstURL)
	require.GreaterOrEqual(t, first.height, head, "node 1's first page reflects the new blocks")
	require.NotEmpty(t, first.next)
	nextURL := firstURL + "&pageToken=" + url.QueryEscape(first.next)

	// Node 2 waits up to 2s for its paused follower, then says 503.
	r := harness.Get(t, ctx, bases[1]+list+"?pageSize=3&pageToken="+url.QueryEscape(first.next))
	harness.RequireErrorBody(t, r, http.StatusServiceUnavailable, "behind the pageToken")
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	require.NoError(t, err, "Retry-After %q", r.Header.Get("Retry-After"))
	require.True(t, retry >= 1 && retry <= 30, "Retry-After %d", retry)
	require.Equal(t, "C="+strconv.FormatUint(behind, 10), r.Header.Get("X-Indexed-Height"), "the 503 shows node 2's own height")
	t.Logf("behind replica (C=%d, token C=%d): %d, Retry-After %d: %s", behind, first.height, r.Status, retry, r.Body)

	// Resumed while a request waits: node 2 serves exactly node 1's page.
	resumed := make(chan error, 1)
	time.AfterFunc(300*time.Millisecond, func() { resumed <- controlFollower(ctx, bases[1], "avadata.resumeFollower", "C") })
	asked := time.Now()
	second := getPage(t, ctx, bases[1]+list+"?pageSize=3&pageToken="+url.QueryEscape(first.next))
	waited := time.Since(asked)
	require.NoError(t, <-resumed)
	require.GreaterOrEqual(t, waited, 300*time.Millisecond, "node 2 answered only once its follower got there")
	want := getPage(t, ctx, nextURL)
	require.Equal(t, want.hashes, second.hashes, "node 2's page is node 1's")
	require.Equal(t, first.height, second.height, "the page reflects the pinned height")
	t.Logf("node 2 waited %s for its follower, then served the page", waited.Round(time.Millisecond))
}

// roundRobinProxy is a reverse proxy that sends each request to the next
// node in turn, as a load balancer would, and names the node that served a
// reply in X-Test-Replica.
type roundRobinProxy struct {
	url string
}

const replicaHeader = "X-Test-Replica"

func newRoundRobinProxy(t *testing.T, uris []string) *roundRobinProxy {
	t.Helper()
	targets := make([]*url.URL, len(uris))
	for i, u := range uris {
		var err error
		targets[i], err = url.Parse(u)
		require.NoError(t, err)
	}
	var mu sync.Mutex
	turn := 0
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			mu.Lock()
			target := targets[turn%len(targets)]
			turn++
			mu.Unlock()
			pr.SetURL(target)
			pr.SetXForwarded()
		},
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Set(replicaHeader, resp.Request.URL.Host)
			return nil
		},
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return &roundRobinProxy{url: srv.URL}
}

// replicaPage is one page of the address transactions listing.
type replicaPage struct {
	hashes  []common.Hash
	next    string
	height  uint64 // from X-Indexed-Height
	replica string // X-Test-Replica, through the proxy
}

func getPage(t *testing.T, ctx context.Context, u string) replicaPage {
	t.Helper()
	r := harness.Get(t, ctx, u)
	require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
	var body struct {
		Transactions  []dataapi.TxDetails `json:"transactions"`
		NextPageToken string              `json:"nextPageToken"`
	}
	r.Decode(t, &body)
	return replicaPage{
		hashes:  dataapi.TxHashes(body.Transactions),
		next:    body.NextPageToken,
		height:  indexedHeightOf(t, r.Header.Get("X-Indexed-Height"), "C"),
		replica: r.Header.Get(replicaHeader),
	}
}

// pageThroughReplicas follows nextPageToken from u to the end.
func pageThroughReplicas(t *testing.T, ctx context.Context, u string) []replicaPage {
	t.Helper()
	var pages []replicaPage
	next := ""
	for {
		require.Less(t, len(pages), 1000, "GET %s: paging does not end", u)
		pageURL := u
		if next != "" {
			pageURL = harness.WithQuery(u, "pageToken", next)
		}
		p := getPage(t, ctx, pageURL)
		pages = append(pages, p)
		if p.next == "" {
			return pages
		}
		next = p.next
	}
}

// indexedHeightOf reads stream's height from an X-Indexed-Height value
// ("C=12" or "X=7, X-vertices=0").
func indexedHeightOf(t *testing.T, header, stream string) uint64 {
	t.Helper()
	for _, part := range strings.Split(header, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok && name == stream {
			h, err := strconv.ParseUint(value, 10, 64)
			require.NoError(t, err, "X-Indexed-Height %q", header)
			return h
		}
	}
	t.Fatalf("X-Indexed-Height %q has no %s", header, stream)
	return 0
}

// controlFollower calls an avadata follower control; safe off the test goroutine.
func controlFollower(ctx context.Context, base, method, chain string) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": map[string]string{"chain": chain}})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/rpc", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := harness.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var reply struct {
		Error any `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if resp.StatusCode != http.StatusOK || reply.Error != nil {
		return fmt.Errorf("%s: status %d, error %v", method, resp.StatusCode, reply.Error)
	}
	return nil
}

func controlFollowerOK(t *testing.T, ctx context.Context, base, method, chain string) {
	t.Helper()
	require.NoError(t, controlFollower(ctx, base, method, chain))
}

// pausedHeight waits until chain's follower reports paused and its height
// holds still (a pause takes effect after the batch in flight).
func pausedHeight(t *testing.T, ctx context.Context, base, chain string) uint64 {
	t.Helper()
	var last uint64
	stable := 0
	for stable < 3 {
		st := harness.AvadataStatus(t, ctx, base)[chain]
		switch {
		case !st.Paused:
			stable = 0
		case st.IndexedHeight == last:
			stable++
		default:
			last, stable = st.IndexedHeight, 0
		}
		select {
		case <-ctx.Done():
			t.Fatalf("follower %s never paused: %v", chain, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	return last
}

// waitNodeHeight waits until the node at uri has accepted C-chain block h.
func waitNodeHeight(t *testing.T, ctx context.Context, uri string, h uint64) {
	t.Helper()
	for truth.Height(t, ctx, uri, "C") < h {
		select {
		case <-ctx.Done():
			t.Fatalf("node %s did not reach C-chain block %d", uri, h)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
