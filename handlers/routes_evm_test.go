package handlers

import (
	"net/http"
	"strings"
	"testing"
)

// evmPathCases are the {chainId} and {address} cases every data-service EVM
// route shares; the path is "/v1/chains/{chainId}/{kind}/{address}{suffix}"
// and want is the reply valid paths get (its name and path are filled in).
func evmPathCases(kind, addr, suffix string, want routeCase) []routeCase {
	p := func(chain, addr string) string { return "/v1/chains/" + chain + "/" + kind + "/" + addr + suffix }
	valid := func(name, path string) routeCase {
		c := want
		c.name, c.path = name, path
		return c
	}
	return []routeCase{
		valid("evm chain id", p("43112", addr)),
		valid("c-chain blockchain id", p(testCChainID.String(), addr)),
		valid("c-chain alias", p("c-chain", addr)),
		valid("lower-case address", p("43112", strings.ToLower(addr))),
		valid("0X prefix", p("43112", "0X"+addr[2:])),
		invalid("mainnet chain id", p("43114", addr), "chainId 43114", "mainnet", "43112"),
		invalid("unknown chain id", p("1", addr), "unsupported chainId '1'", "779672"),
		invalid("p-chain id", p(pChainID, addr), "is the p-chain, which is not an EVM chain"),
		invalid("x alias", p("x-chain", addr), "unsupported chainId 'x-chain'"),
		invalid("chain before address", p("1", "nope"), "chainId"),
		invalid("short address", p("43112", "0x1234"), "invalid address '0x1234'", "0x followed by 40 hex digits"),
		invalid("no 0x", p("43112", addr[2:]), "invalid address", "40 hex digits"),
		invalid("not hex", p("43112", "0x"+strings.Repeat("g", 40)), "invalid address"),
		invalid("bech32 address", p("43112", "local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqzqfkz2"), "invalid address"),
	}
}

func TestListEVMAddressTxsRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	cases := evmPathCases("addresses", testEVMAddr, "/transactions", ok("", "", "transactions"))
	p := "/v1/chains/43112/addresses/" + testEVMAddr + "/transactions"
	cases = append(cases,
		ok("all query", p+"?pageSize=100&startBlock=1&endBlock=2&sortOrder=asc&unknown=1", "transactions"),
		ok("pageSize 1", p+"?pageSize=1", "transactions"),
		ok("subnet chain", "/v1/chains/779672/addresses/"+testEVMAddr+"/transactions", "transactions"),
		invalid("pageSize 0", p+"?pageSize=0", "pageSize", "between 1 and 100"),
		invalid("pageSize 101", p+"?pageSize=101", "pageSize", "between 1 and 100"),
		invalid("startBlock", p+"?startBlock=-1", "startBlock"),
		invalid("endBlock", p+"?endBlock=x", "endBlock"),
		invalid("empty block range", p+"?startBlock=5&endBlock=5", "startBlock", "endBlock"),
		invalid("sortOrder", p+"?sortOrder=up", "sortOrder", "'asc' or 'desc'"),
		invalid("pageToken", p+"?pageToken=abc", "invalid pageToken"),
		invalid("path before query", "/v1/chains/43112/addresses/0x1/transactions?pageSize=0", "invalid address"),
	)
	runRouteCases(t, srv, cases)
}

func TestGetDeploymentRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	cases := evmPathCases("contracts", wavax.Hex(), "/transactions:getDeployment", ok("", "", "nativeTransaction"))
	p := "/v1/chains/43112/contracts/" + wavax.Hex() + "/transactions:getDeployment"
	cases = append(cases,
		ok("currency", p+"?currency=EUR", "nativeTransaction"),
		invalid("bad currency", p+"?currency=btc", "currency", "'usd'"),
	)
	runRouteCases(t, srv, cases)
}

func TestListTokenTransfersRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	cases := evmPathCases("tokens", wavax.Hex(), "/transfers", ok("", "", "transfers"))
	p := "/v1/chains/43112/tokens/" + wavax.Hex() + "/transfers"
	cases = append(cases,
		ok("blocks and paging", p+"?startBlock=0&endBlock=10&pageSize=100", "transfers"),
		ok("sortOrder is not a parameter here", p+"?sortOrder=sideways", "transfers"),
		invalid("pageSize", p+"?pageSize=1000", "pageSize", "between 1 and 100"),
		invalid("reversed blocks", p+"?startBlock=9&endBlock=2", "startBlock", "endBlock"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestListErc721BalancesRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	cases := evmPathCases("addresses", testEVMAddr, "/balances:listErc721", ok("", "", "erc721TokenBalances"))
	p := "/v1/chains/43112/addresses/" + testEVMAddr + "/balances:listErc721"
	cases = append(cases,
		ok("pageSize 500", p+"?pageSize=500", "erc721TokenBalances"),
		ok("contract filter", p+"?contractAddress="+testEVMAddr2, "erc721TokenBalances"),
		invalid("pageSize 501", p+"?pageSize=501", "pageSize", "between 1 and 500"),
		invalid("pageSize 0", p+"?pageSize=0", "pageSize", "between 1 and 500"),
		invalid("bad contract", p+"?contractAddress=0xabc", "invalid contractAddress '0xabc'", "40 hex digits"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestGetNativeBalanceRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	cases := evmPathCases("addresses", testEVMAddr, "/balances:getNative", ok("", "", "nativeTokenBalance"))
	p := "/v1/chains/43112/addresses/" + testEVMAddr + "/balances:getNative"
	cases = append(cases,
		ok("currency", p+"?currency=JPY", "nativeTokenBalance"),
		invalid("bad currency", p+"?currency=xyz", "currency"),
		invalid("blockNumber", p+"?blockNumber=5", "blockNumber is not supported", "current"),
	)
	runRouteCases(t, srv, cases)
}

func TestGetContractMetadataRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	runRouteCases(t, srv, evmPathCases("addresses", wavax.Hex(), "", ok("", "", "ercType")))
}

func TestGetTransactionRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	hash := txHashN(3).Hex()
	p := func(chain, hash string) string { return "/v1/chains/" + chain + "/transactions/" + hash }
	runRouteCases(t, srv, []routeCase{
		ok("by evm chain id", p("43112", hash), "nativeTransaction"),
		ok("by alias, upper-case hash", p("c-chain", "0X"+strings.ToUpper(hash[2:])), "nativeTransaction"),
		failing("unknown hash", p("43112", txHashN(99).Hex()), http.StatusNotFound, "is not in the index of chain 43112"),
		failing("other chain", p("779672", hash), http.StatusNotFound, "'dispatch'"),
		invalid("short hash", p("43112", hash[:65]), "invalid txHash", "0x followed by 64 hex digits"),
		invalid("no 0x", p("43112", hash[2:]+"00"), "invalid txHash"),
		invalid("not hex", p("43112", "0x"+strings.Repeat("z", 64)), "invalid txHash"),
		invalid("cb58 id", p("43112", testTxID), "invalid txHash"),
		invalid("bad chain first", p("7", "nope"), "unsupported chainId '7'"),
	})
}

func TestListNFTHoldersRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	p := func(chain, addr, query string) string {
		return "/metrics/v2/chains/" + chain + "/contracts/" + addr + "/nfts:listHolders" + query
	}
	nft := kitties.Hex()
	runRouteCases(t, srv, []routeCase{
		ok("evm chain id", p("43112", nft, ""), "addresses"),
		ok("under the node prefix", "/ext/bc/data"+p("43112", nft, ""), "addresses"),
		ok("pageSize 5000", p("43112", nft, "?pageSize=5000"), "addresses"),
		ok("pageSize 1", p("43112", nft, "?pageSize=1"), "addresses"),
		invalid("blockchain id", p(testCChainID.String(), nft, ""), "invalid chainId", "EVM chain id number", "not a blockchain id"),
		invalid("alias", p("c-chain", nft, ""), "invalid chainId 'c-chain'", "EVM chain id number"),
		invalid("other network", p("43114", nft, ""), "chainId 43114", "mainnet"),
		invalid("unknown number", p("5", nft, ""), "unsupported chainId '5'"),
		invalid("bad address", p("43112", "0xdead", ""), "invalid address '0xdead'"),
		invalid("pageSize 5001", p("43112", nft, "?pageSize=5001"), "pageSize", "between 1 and 5000", "default 1000"),
		invalid("pageSize 0", p("43112", nft, "?pageSize=0"), "pageSize", "between 1 and 5000"),
		invalid("pageToken", p("43112", nft, "?pageToken=nope"), "invalid pageToken"),
		failing("not a contract", p("43112", testEVMAddr, ""), http.StatusNotFound, "is not a contract known to the index"),
		invalid("not an NFT contract", p("43112", wavax.Hex(), ""), "is an ERC-20 contract, not an NFT"),
		invalid("a contract of no standard", p("43112", mystery.Hex(), ""), "is an UNKNOWN contract"),
	})
}
