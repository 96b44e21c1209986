package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestNotServedYetMessage(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	rec := srv.Get(t, "/ext/bc/data/v1/signatureAggregator/local/aggregateSignatures/"+handlertest.TxID)
	msg := handlertest.RequireDataError(t, rec, http.StatusNotFound)
	require.Equal(t, "GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash} is not served by avadata v-test yet", msg)
}

// TestLiteralSuffixRoutes checks that the routes whose last segment carries
// a literal ":suffix" and their plain siblings each match exactly their own
// paths: each request is answered by the route its template names.
func TestLiteralSuffixRoutes(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()), nil)
	const (
		pBase = "/v1/networks/local/blockchains/p-chain"
		xBase = "/v1/networks/local/blockchains/x-chain"
		txs   = "/v1/networks/{network}/blockchains/{blockchainId}/transactions"
		verts = "/v1/networks/{network}/blockchains/{blockchainId}/vertices"
		evm   = "/v1/chains/{chainId}/addresses/{address}"
	)
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.OK("transactions", pBase+"/transactions", "transactions"),
		handlertest.OK("transactions:listStaking", pBase+"/transactions:listStaking", "transactions"),
		handlertest.OK("encoded colon", pBase+"/transactions%3AlistStaking", "transactions"),
		// The X-chain is fine for /transactions but not for :listStaking, so
		// each reply shows which route answered.
		handlertest.OK("x-chain transactions", xBase+"/transactions", "transactions"),
		handlertest.Invalid("x-chain listStaking", xBase+"/transactions:listStaking", "blockchainId", "not supported by this endpoint"),
		handlertest.OK("vertices", xBase+"/vertices", "vertices"),
		handlertest.OK("vertices:listByHeight", xBase+"/vertices:listByHeight?vertexHeight=0", "vertices"),
		handlertest.Invalid("listByHeight needs vertexHeight", xBase+"/vertices:listByHeight", "vertexHeight is required"),
		handlertest.OK("contract metadata", "/v1/chains/43112/addresses/"+handlertest.Wavax.Hex(), "ercType"),
		handlertest.OK("address transactions", "/v1/chains/43112/addresses/"+handlertest.EVMAddr+"/transactions", "transactions"),
		handlertest.OK("erc721 balances", "/v1/chains/43112/addresses/"+handlertest.EVMAddr+"/balances:listErc721", "erc721TokenBalances"),
		handlertest.OK("erc20 balances", "/v1/chains/43112/addresses/"+handlertest.EVMAddr+"/balances:listErc20", "erc20TokenBalances"),
		handlertest.OK("erc1155 balances", "/v1/chains/43112/addresses/"+handlertest.EVMAddr+"/balances:listErc1155", "erc1155TokenBalances"),
		handlertest.OK("collectible balances", "/v1/chains/43112/addresses/"+handlertest.EVMAddr+"/balances:listCollectibles", "collectibleBalances"),
		handlertest.OK("native balance", "/v1/chains/43112/addresses/"+handlertest.EVMAddr+"/balances:getNative", "nativeTokenBalance"),
		handlertest.OK("getDeployment", "/v1/chains/43112/contracts/"+handlertest.Wavax.Hex()+"/transactions:getDeployment", "networkTokenDetails"),
		handlertest.OK("nfts:listHolders", "/metrics/v2/chains/43112/contracts/"+handlertest.Kitties.Hex()+"/nfts:listHolders", "totalHolders"),
		handlertest.OK("chain", "/v1/chains/43112", "rpcUrl"),
		handlertest.OK("chains", "/v1/chains", "chains"),
		{Name: "unknown suffix", Path: pBase + "/transactions:listFoo", Status: http.StatusNotFound, Fragments: []string{"no route"}},
		{Name: "suffix without colon", Path: pBase + "/transactionslistStaking", Status: http.StatusNotFound, Fragments: []string{"no route"}},
		{Name: "colon alone", Path: pBase + "/transactions:", Status: http.StatusNotFound, Fragments: []string{"no route"}},
		{Name: "trailing slash", Path: pBase + "/transactions/", Status: http.StatusNotFound, Fragments: []string{"no route"}},
		{Name: "unknown balances suffix", Path: "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/balances:listErc404",
			Status: http.StatusNotFound, Fragments: []string{"no route"}},
		{Name: "getDeployment on addresses", Path: "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/transactions:getDeployment",
			Status: http.StatusNotFound, Fragments: []string{"no route"}},
	})
}

func TestMethodNotAllowedHasAllowHeader(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	tests := []struct {
		method, path, allow string
		metrics             bool
	}{
		{http.MethodGet, "/v1/signatureAggregator/local/aggregateSignatures", "POST", false},
		{http.MethodPost, "/v1/signatureAggregator/local/aggregateSignatures/" + handlertest.TxID, "GET", false},
		{http.MethodPut, "/v1/signatureAggregator/local/aggregateSignatures", "POST", false},
		{http.MethodPost, "/v1/networks/local/blockchains/p-chain/transactions:listStaking", "GET", false},
		{http.MethodDelete, "/v1/networks/local/rewards", "GET", false},
		{http.MethodPost, "/v1/status", "GET", false},
		{http.MethodGet, "/rpc", "POST", false},
		{http.MethodPost, "/metrics/v2/chains/43112/contracts/" + handlertest.EVMAddr + "/nfts:listHolders", "GET", true},
		{http.MethodDelete, "/metrics/v1/avg_tps/43112", "GET", true},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			rec := srv.Request(t, tt.method, tt.path, "")
			if tt.metrics {
				handlertest.RequireMetricsError(t, rec, http.StatusMethodNotAllowed, tt.method, "allowed: "+tt.allow)
			} else {
				handlertest.RequireDataError(t, rec, http.StatusMethodNotAllowed, tt.method, "allowed: "+tt.allow)
			}
			require.Equal(t, tt.allow, rec.Header().Get("Allow"))
		})
	}
}

func TestIndexListsDataRoutes(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	var body indexResponse
	handlertest.RequireJSON(t, srv.Get(t, "/"), http.StatusOK, &body)
	paths := make(map[string]string)
	for _, e := range body.Endpoints {
		if strings.HasPrefix(e.Path, "/explorer") {
			continue // the explorer's pages, for people
		}
		paths[e.Method+" "+e.Path] = e.Summary
	}
	require.Len(t, paths, 5+17+4+8+6+2+6+3+3+3+4+3+1+5+4+1+5+4+2+10) // blocks and latest txs, typed histories, health checks, NFTs/deployments/address chains, token balances, exports, primary blocks and vertex by ID, subnets and blockchains, tx by hash and assets, AVAX supply, UTXOs and address activity, validators; getEvmChainMetrics; metrics chains, rolling windows and health checks; L1 validator fee metrics; staking metrics and validators:getAddresses; webhooks
	require.NotContains(t, paths["GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}"], "not served yet")
	require.NotContains(t, paths["POST /v1/signatureAggregator/{network}/aggregateSignatures"], "not served yet")
	require.NotContains(t, paths["GET /metrics/v2/chains/{chainId}/contracts/{address}/nfts:listHolders"], "not served yet")
}
