package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// evmPathCases are the {chainId} and {address} cases every data-service EVM
// route shares; suffix completes "/v1/chains/{chainId}/{kind}/{address}".
func evmPathCases(kind, suffix, tpl string) []routeCase {
	p := func(chain, addr string) string { return "/v1/chains/" + chain + "/" + kind + "/" + addr + suffix }
	return []routeCase{
		valid("evm chain id", p("43112", testEVMAddr), tpl),
		valid("c-chain blockchain id", p(testCChainID.String(), testEVMAddr), tpl),
		valid("lower-case address", p("43112", strings.ToLower(testEVMAddr)), tpl),
		valid("0X prefix", p("43112", "0X"+testEVMAddr[2:]), tpl),
		invalid("mainnet chain id", p("43114", testEVMAddr), "chainId 43114", "mainnet", "43112"),
		invalid("unknown chain id", p("1", testEVMAddr), "unsupported chainId '1'"),
		invalid("p-chain id", p(pChainID, testEVMAddr), "unsupported chainId", "C-chain only"),
		invalid("alias", p("c-chain", testEVMAddr), "unsupported chainId 'c-chain'"),
		invalid("chain before address", p("1", "nope"), "chainId"),
		invalid("short address", p("43112", "0x1234"), "invalid address '0x1234'", "0x followed by 40 hex digits"),
		invalid("no 0x", p("43112", testEVMAddr[2:]), "invalid address", "40 hex digits"),
		invalid("not hex", p("43112", "0x"+strings.Repeat("g", 40)), "invalid address"),
		invalid("bech32 address", p("43112", "local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqzqfkz2"), "invalid address"),
	}
}

func TestListEVMAddressTxsRoute(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	const tpl = "/v1/chains/{chainId}/addresses/{address}/transactions"
	cases := evmPathCases("addresses", "/transactions", tpl)
	p := "/v1/chains/43112/addresses/" + testEVMAddr + "/transactions"
	cases = append(cases,
		valid("all query", p+"?pageSize=100&startBlock=1&endBlock=2&sortOrder=asc&unknown=1", tpl),
		valid("pageSize 1", p+"?pageSize=1", tpl),
		invalid("pageSize 0", p+"?pageSize=0", "pageSize", "between 1 and 100"),
		invalid("pageSize 101", p+"?pageSize=101", "pageSize", "between 1 and 100"),
		invalid("startBlock", p+"?startBlock=-1", "startBlock"),
		invalid("endBlock", p+"?endBlock=x", "endBlock"),
		invalid("empty block range", p+"?startBlock=5&endBlock=5", "startBlock", "endBlock"),
		invalid("sortOrder", p+"?sortOrder=up", "sortOrder", "'asc' or 'desc'"),
		invalid("pageToken", p+"?pageToken=abc", "invalid pageToken"),
		invalid("path before query", "/v1/chains/43112/addresses/0x1/transactions?pageSize=0", "invalid address"),
	)
	runRouteCases(t, api, cases)
}

func TestGetDeploymentRoute(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	const tpl = "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment"
	cases := evmPathCases("contracts", "/transactions:getDeployment", tpl)
	p := "/v1/chains/43112/contracts/" + testEVMAddr + "/transactions:getDeployment"
	cases = append(cases,
		valid("currency", p+"?currency=EUR", tpl),
		invalid("bad currency", p+"?currency=btc", "currency", "'usd'"),
	)
	runRouteCases(t, api, cases)
}

func TestListTokenTransfersRoute(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	const tpl = "/v1/chains/{chainId}/tokens/{address}/transfers"
	cases := evmPathCases("tokens", "/transfers", tpl)
	p := "/v1/chains/43112/tokens/" + testEVMAddr + "/transfers"
	cases = append(cases,
		valid("blocks and paging", p+"?startBlock=0&endBlock=10&pageSize=100", tpl),
		valid("sortOrder is not a parameter here", p+"?sortOrder=sideways", tpl),
		invalid("pageSize", p+"?pageSize=1000", "pageSize", "between 1 and 100"),
		invalid("reversed blocks", p+"?startBlock=9&endBlock=2", "startBlock", "endBlock"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, api, cases)
}

func TestListErc721BalancesRoute(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	const tpl = "/v1/chains/{chainId}/addresses/{address}/balances:listErc721"
	cases := evmPathCases("addresses", "/balances:listErc721", tpl)
	p := "/v1/chains/43112/addresses/" + testEVMAddr + "/balances:listErc721"
	cases = append(cases,
		valid("pageSize 500", p+"?pageSize=500", tpl),
		valid("contract filter", p+"?contractAddress="+testEVMAddr2, tpl),
		invalid("pageSize 501", p+"?pageSize=501", "pageSize", "between 1 and 500"),
		invalid("pageSize 0", p+"?pageSize=0", "pageSize", "between 1 and 500"),
		invalid("bad contract", p+"?contractAddress=0xabc", "invalid contractAddress '0xabc'", "40 hex digits"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, api, cases)
}

func TestGetContractMetadataRoute(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	const tpl = "/v1/chains/{chainId}/addresses/{address}"
	runRouteCases(t, api, evmPathCases("addresses", "", tpl))
}

func TestListNFTHoldersRoute(t *testing.T) {
	api := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	const tpl = "/metrics/v2/chains/{chainId}/contracts/{address}/nfts:listHolders"
	p := func(chain, addr, query string) string {
		return "/metrics/v2/chains/" + chain + "/contracts/" + addr + "/nfts:listHolders" + query
	}
	runRouteCases(t, api, []routeCase{
		valid("evm chain id", p("43112", testEVMAddr, ""), tpl),
		valid("under the node prefix", "/ext/bc/data"+p("43112", testEVMAddr, ""), tpl),
		valid("pageSize 5000", p("43112", testEVMAddr, "?pageSize=5000"), tpl),
		valid("pageSize 1", p("43112", testEVMAddr, "?pageSize=1"), tpl),
		invalid("blockchain id", p(testCChainID.String(), testEVMAddr, ""), "invalid chainId", "EVM chain id number", "not a blockchain id"),
		invalid("alias", p("c-chain", testEVMAddr, ""), "invalid chainId 'c-chain'", "EVM chain id number"),
		invalid("other network", p("43114", testEVMAddr, ""), "chainId 43114", "mainnet"),
		invalid("unknown number", p("5", testEVMAddr, ""), "unsupported chainId '5'"),
		invalid("bad address", p("43112", "0xdead", ""), "invalid address '0xdead'"),
		invalid("pageSize 5001", p("43112", testEVMAddr, "?pageSize=5001"), "pageSize", "between 1 and 5000", "default 1000"),
		invalid("pageSize 0", p("43112", testEVMAddr, "?pageSize=0"), "pageSize", "between 1 and 5000"),
		invalid("pageToken", p("43112", testEVMAddr, "?pageToken=nope"), "invalid pageToken"),
	})
}

func TestParseListNFTHoldersDefaults(t *testing.T) {
	s := &server{backend: newFakeBackend()}
	req, err := http.NewRequest(http.MethodGet, "http://node/metrics/v2/chains/43112/contracts/x/nfts:listHolders", nil)
	require.NoError(t, err)
	req = muxVars(req, map[string]string{"chainId": "43112", "address": testEVMAddr})
	got, err := s.parseListNFTHoldersRequest(req)
	require.NoError(t, err)
	require.Equal(t, 1000, got.PageSize)
	require.Equal(t, strings.ToLower(testEVMAddr), got.Address, "addresses are normalized to lower case")
}
