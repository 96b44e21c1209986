package explorer

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

// homeStatus is a /v1/status reply of the fake network: C (EVM 43112), the
// "dispatch" chain (EVM 779672), P and X.
const homeStatus = `{"version":"v1","network":{"name":"local","networkId":12345,"evmChainId":43112,
 "evmChains":[{"name":"C","blockchainId":"cchain","evmChainId":43112},{"name":"dispatch","blockchainId":"dchain","evmChainId":779672}]},
 "chains":[
  {"chain":"P","blockchainId":"11111111111111111111111111111111LpoYY","indexedHeight":90,"historyFrom":1,"nodeHeight":100,"lag":10,"blocksPerSecond":2.5,"etaSeconds":4,"running":true,
   "lastApplied":"2026-11-27T16:14:00.582031539Z"},
  {"chain":"X","blockchainId":"urEroe7rdWijEzEmm4bzf3vu3F5zD34GZjoWSxBiNw3edU47t","indexedHeight":5,"historyFrom":1,"nodeHeight":5,"lag":0,"caughtUp":true,"running":true,"lastApplied":"0001-01-01T00:00:00Z"},
  {"chain":"C","blockchainId":"cchain","indexedHeight":50,"historyFrom":1,"nodeHeight":50,"caughtUp":true,"running":true,
   "backfill":{"target":1,"firstHeight":41,"state":"filling","etaSeconds":20}},
  {"chain":"dispatch","blockchainId":"dchain","indexedHeight":7,"historyFrom":1,"nodeHeight":9,"lag":2,"paused":true,"lastError":"<b>boom</b>"}]}`

func homeAPI(t *testing.T) fakeAPI {
	return fakeAPI{
		"/v1/status":              jsonOf(t, homeStatus),
		"/v1/chains/43112/blocks": jsonOf(t, `{"blocks":[{"blockNumber":"50","blockHash":"0xb50","blockTimestamp":1700000000,"txCount":2}]}`),
		"/v1/chains/43112/transactions": jsonOf(t, `{"transactions":[{"txHash":"0xt1","blockNumber":"50","blockTimestamp":1700000000,
			"from":{"address":"0xfrom"},"to":{"address":"0xto"},"value":"1500000000000000000"}]}`),
		"/v1/chains/779672/blocks":                            &api.Error{Status: http.StatusServiceUnavailable, Message: "dispatch is <not> ready"},
		"/v1/chains/779672/transactions":                      jsonOf(t, `{"transactions":[{"txHash":"0xt2","blockNumber":"3","blockTimestamp":1700000000,"value":"0"}]}`),
		"/v1/networks/local/blockchains/p-chain/blocks":       jsonOf(t, `{"blocks":[{"blockNumber":"90","blockHash":"pblock","blockTimestamp":1700000000,"txCount":1}]}`),
		"/v1/networks/local/blockchains/p-chain/transactions": jsonOf(t, `{"transactions":[{"txHash":"ptx","txType":"AddPermissionlessValidatorTx","blockNumber":"90","blockTimestamp":1700000000}]}`),
		"/v1/networks/local/blockchains/x-chain/blocks":       jsonOf(t, `{"blocks":[]}`),
		"/v1/networks/local/blockchains/x-chain/transactions": jsonOf(t, `{"transactions":[{"txHash":"xtx","txType":"BaseTx","timestamp":1700000000}]}`),
		"/v1/networks/local/blockchains/c-chain/transactions": jsonOf(t, `{"transactions":[{"txHash":"ctx","txType":"ExportTx","timestamp":1700000000}]}`),
		"/metrics/v2/chains/43112/metrics/txCount":            jsonOf(t, `{"results":[{"value":3,"timestamp":1700003600},{"value":1,"timestamp":1700000000}]}`),
		"/metrics/v2/chains/43112/metrics/activeAddresses":    jsonOf(t, `{"results":[]}`),
		"/metrics/v2/chains/43112/metrics/gasUsed":            &api.Error{Status: http.StatusBadRequest, Message: "no gas"},
		"/metrics/v2/chains/779672/metrics/txCount":           jsonOf(t, `{"results":[{"value":9,"timestamp":1700000000}]}`),
		"/metrics/v2/chains/779672/metrics/activeAddresses":   jsonOf(t, `{"results":[]}`),
		"/metrics/v2/chains/779672/metrics/gasUsed":           jsonOf(t, `{"results":[]}`),
	}
}

func TestHomeShowsChainsLatestAndCharts(t *testing.T) {
	h := newTestExplorer(t, Config{}, homeAPI(t), nil)
	rec := getPage(t, h, "/")
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	// The followers, with progress, state and escaped errors.
	require.Contains(t, body, `<progress max="100" value="90"`)
	require.Contains(t, body, "90.0%")
	require.Contains(t, body, "ETA 4s")
	require.Contains(t, body, "back-fill filling to block 1")
	require.Contains(t, body, `<span class="badge ">paused</span>`)
	require.Contains(t, body, "&lt;b&gt;boom&lt;/b&gt;")
	// P and X, known by their blockchain IDs, link to their pages.
	require.Contains(t, body, `<tr data-chain="P">
<td><a href="/ext/bc/data/explorer/p-chain">P</a></td>`)
	require.Contains(t, body, `<tr data-chain="X">
<td><a href="/ext/bc/data/explorer/x-chain">X</a></td>`)
	// The boxes, named by the primary chains' labels.
	require.Contains(t, body, `<a href="/ext/bc/data/explorer/evm/43112">C-Chain (EVM chain 43112)</a>`)
	require.Contains(t, body, `<a href="/ext/bc/data/explorer/p-chain">P-Chain</a>`)
	require.Contains(t, body, `<a href="/ext/bc/data/explorer/x-chain">X-Chain</a>`)
	require.Contains(t, body, `<a href="/ext/bc/data/explorer/c-chain">C-Chain atomic transactions</a>`)
	// The latest blocks and transactions, linked by the URL scheme.
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/block/50"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/tx/0xt1"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/address/0xfrom"`)
	require.Contains(t, body, ">1.5<")
	require.Contains(t, body, `href="/ext/bc/data/explorer/p-chain/block/90"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/p-chain/tx/ptx"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/x-chain/tx/xtx"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/c-chain/tx/ctx"`)
	// A transaction without a sender links no address page.
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/779672/tx/0xt2"`)
	require.NotContains(t, body, `href="/ext/bc/data/explorer/evm/779672/address/"`)
	// One chain failing shows in its box; the page stands.
	require.Contains(t, body, "dispatch is &lt;not&gt; ready")
	// The charts: the C-chain's by default, per hour, oldest bar first.
	require.Contains(t, body, `data-chart-chain="43112" data-interval="hour"`)
	require.Contains(t, body, `<svg class="chart" data-metric="txCount"`)
	first := strings.Index(body, `data-timestamp="1700000000" data-value="1"`)
	second := strings.Index(body, `data-timestamp="1700003600" data-value="3"`)
	require.True(t, first > 0 && second > first, "bars oldest first")
	require.Contains(t, body, "<title>2023-11-14 22:13 UTC: 1</title>")
	require.Contains(t, body, "no data yet")
	require.Contains(t, body, "no gas")
	require.Contains(t, body, `href="/ext/bc/data/explorer/?chart=779672"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/?interval=day"`)
	require.NotContains(t, body, "style=")
	// The nav's C-Chain is the C-chain's EVM page.
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112">C-Chain</a>`)
}

func TestHomeChartsFollowTheQuery(t *testing.T) {
	h := newTestExplorer(t, Config{}, homeAPI(t), nil)
	rec := getPage(t, h, "/?chart=779672&interval=day")
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), `data-chart-chain="779672" data-interval="day"`)
	require.Contains(t, rec.Body.String(), "<title>2023-11-14: 9</title>")

	// chart= names a followed EVM chain, by its EVM chain id.
	for _, chart := range []string{"1", "c-chain", "43112/../1", "<b>"} {
		rec = getPage(t, h, "/?chart="+url.QueryEscape(chart))
		require.Equal(t, http.StatusBadRequest, rec.Code, chart)
		require.Contains(t, rec.Body.String(), "invalid chart &#39;"+template.HTMLEscapeString(chart)+"&#39;", chart)
		require.Contains(t, rec.Body.String(), "this node follows (43112, 779672)")
	}

	rec = getPage(t, h, "/?interval=<week>")
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, rec.Body.String(), "invalid interval &#39;&lt;week&gt;&#39;")
}

func TestExplorerWithoutSlashRedirects(t *testing.T) {
	h := newTestExplorer(t, Config{}, homeAPI(t), nil)
	rec := httptestGet(h, "http://node/ext/bc/data/explorer")
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "/ext/bc/data/explorer/", rec.Header().Get("Location"))
}
