package evm

import (
	"net/http"
	"strings"
	"testing"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
)

// evmPathCases are the {chainId} and {address} cases every data-service EVM
// route shares; the path is "/v1/chains/{chainId}/{kind}/{address}{suffix}"
// and want is the reply valid paths get (its name and path are filled in).
func evmPathCases(kind, addr, suffix string, want handlertest.RouteCase) []handlertest.RouteCase {
	p := func(chain, addr string) string { return "/v1/chains/" + chain + "/" + kind + "/" + addr + suffix }
	valid := func(name, path string) handlertest.RouteCase {
		c := want
		c.Name, c.Path = name, path
		return c
	}
	return []handlertest.RouteCase{
		valid("evm chain id", p("43112", addr)),
		valid("c-chain blockchain id", p(fakenet.CChainID.String(), addr)),
		valid("c-chain alias", p("c-chain", addr)),
		valid("lower-case address", p("43112", strings.ToLower(addr))),
		valid("0X prefix", p("43112", "0X"+addr[2:])),
		handlertest.Invalid("mainnet chain id", p("43114", addr), "chainId 43114", "mainnet", "43112"),
		handlertest.Invalid("unknown chain id", p("1", addr), "unsupported chainId '1'", "779672"),
		handlertest.Invalid("p-chain id", p(handlertest.PChainID, addr), "is the p-chain, which is not an EVM chain"),
		handlertest.Invalid("x alias", p("x-chain", addr), "unsupported chainId 'x-chain'"),
		handlertest.Invalid("chain before address", p("1", "nope"), "chainId"),
		handlertest.Invalid("short address", p("43112", "0x1234"), "invalid address '0x1234'", "0x followed by 40 hex digits"),
		handlertest.Invalid("no 0x", p("43112", addr[2:]), "invalid address", "40 hex digits"),
		handlertest.Invalid("not hex", p("43112", "0x"+strings.Repeat("g", 40)), "invalid address"),
		handlertest.Invalid("bech32 address", p("43112", "local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqzqfkz2"), "invalid address"),
	}
}

func TestListEVMAddressTxsRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	cases := evmPathCases("addresses", handlertest.EVMAddr, "/transactions", handlertest.OK("", "", "transactions"))
	p := "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/transactions"
	cases = append(cases,
		handlertest.OK("all query", p+"?pageSize=100&startBlock=1&endBlock=2&sortOrder=asc&unknown=1", "transactions"),
		handlertest.OK("pageSize 1", p+"?pageSize=1", "transactions"),
		handlertest.OK("subnet chain", "/v1/chains/779672/addresses/"+handlertest.EVMAddr+"/transactions", "transactions"),
		handlertest.Invalid("pageSize 0", p+"?pageSize=0", "pageSize", "between 1 and 100"),
		handlertest.Invalid("pageSize 101", p+"?pageSize=101", "pageSize", "between 1 and 100"),
		handlertest.Invalid("startBlock", p+"?startBlock=-1", "startBlock"),
		handlertest.Invalid("endBlock", p+"?endBlock=x", "endBlock"),
		handlertest.Invalid("empty block range", p+"?startBlock=5&endBlock=5", "startBlock", "endBlock"),
		handlertest.Invalid("sortOrder", p+"?sortOrder=up", "sortOrder", "'asc' or 'desc'"),
		handlertest.Invalid("pageToken", p+"?pageToken=abc", "invalid pageToken"),
		handlertest.Invalid("path before query", "/v1/chains/43112/addresses/0x1/transactions?pageSize=0", "invalid address"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestGetDeploymentRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	cases := evmPathCases("contracts", handlertest.Wavax.Hex(), "/transactions:getDeployment", handlertest.OK("", "", "nativeTransaction"))
	p := "/v1/chains/43112/contracts/" + handlertest.Wavax.Hex() + "/transactions:getDeployment"
	cases = append(cases,
		handlertest.OK("currency", p+"?currency=EUR", "nativeTransaction"),
		handlertest.Invalid("bad currency", p+"?currency=btc", "currency", "'usd'"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListTokenTransfersRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	cases := evmPathCases("tokens", handlertest.Wavax.Hex(), "/transfers", handlertest.OK("", "", "transfers"))
	p := "/v1/chains/43112/tokens/" + handlertest.Wavax.Hex() + "/transfers"
	cases = append(cases,
		handlertest.OK("blocks and paging", p+"?startBlock=0&endBlock=10&pageSize=100", "transfers"),
		handlertest.OK("sortOrder is not a parameter here", p+"?sortOrder=sideways", "transfers"),
		handlertest.Invalid("pageSize", p+"?pageSize=1000", "pageSize", "between 1 and 100"),
		handlertest.Invalid("reversed blocks", p+"?startBlock=9&endBlock=2", "startBlock", "endBlock"),
		handlertest.Invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListErc721BalancesRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	cases := evmPathCases("addresses", handlertest.EVMAddr, "/balances:listErc721", handlertest.OK("", "", "erc721TokenBalances"))
	p := "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/balances:listErc721"
	cases = append(cases,
		handlertest.OK("pageSize 500", p+"?pageSize=500", "erc721TokenBalances"),
		handlertest.OK("contract filter", p+"?contractAddress="+handlertest.EVMAddr2, "erc721TokenBalances"),
		handlertest.Invalid("pageSize 501", p+"?pageSize=501", "pageSize", "between 1 and 500"),
		handlertest.Invalid("pageSize 0", p+"?pageSize=0", "pageSize", "between 1 and 500"),
		handlertest.Invalid("bad contract", p+"?contractAddress=0xabc", "invalid contractAddress '0xabc'", "40 hex digits"),
		handlertest.Invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestGetNativeBalanceRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	cases := evmPathCases("addresses", handlertest.EVMAddr, "/balances:getNative", handlertest.OK("", "", "nativeTokenBalance"))
	p := "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/balances:getNative"
	cases = append(cases,
		handlertest.OK("currency", p+"?currency=JPY", "nativeTokenBalance"),
		handlertest.Invalid("bad currency", p+"?currency=xyz", "currency"),
		handlertest.Invalid("blockNumber", p+"?blockNumber=latest", "invalid blockNumber", "non-negative integer"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestGetContractMetadataRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	handlertest.RunRouteCases(t, srv, evmPathCases("addresses", handlertest.Wavax.Hex(), "", handlertest.OK("", "", "ercType")))
}

func TestGetTransactionRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	hash := handlertest.TxHashN(3).Hex()
	p := func(chain, hash string) string { return "/v1/chains/" + chain + "/transactions/" + hash }
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.OK("by evm chain id", p("43112", hash), "nativeTransaction"),
		handlertest.OK("by alias, upper-case hash", p("c-chain", "0X"+strings.ToUpper(hash[2:])), "nativeTransaction"),
		handlertest.Failing("unknown hash", p("43112", handlertest.TxHashN(99).Hex()), http.StatusNotFound, "is not in the index of chain 43112"),
		handlertest.Failing("other chain", p("779672", hash), http.StatusNotFound, "'dispatch'"),
		handlertest.Invalid("short hash", p("43112", hash[:65]), "invalid txHash", "0x followed by 64 hex digits"),
		handlertest.Invalid("no 0x", p("43112", hash[2:]+"00"), "invalid txHash"),
		handlertest.Invalid("not hex", p("43112", "0x"+strings.Repeat("z", 64)), "invalid txHash"),
		handlertest.Invalid("cb58 id", p("43112", handlertest.TxID), "invalid txHash"),
		handlertest.Invalid("bad chain first", p("7", "nope"), "unsupported chainId '7'"),
	})
}

func TestListNFTHoldersRoute(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	p := func(chain, addr, query string) string {
		return "/metrics/v2/chains/" + chain + "/contracts/" + addr + "/nfts:listHolders" + query
	}
	nft := handlertest.Kitties.Hex()
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.OK("evm chain id", p("43112", nft, ""), "addresses"),
		handlertest.OK("under the node prefix", "/ext/bc/data"+p("43112", nft, ""), "addresses"),
		handlertest.OK("pageSize 5000", p("43112", nft, "?pageSize=5000"), "addresses"),
		handlertest.OK("pageSize 1", p("43112", nft, "?pageSize=1"), "addresses"),
		handlertest.Invalid("blockchain id", p(fakenet.CChainID.String(), nft, ""), "invalid chainId", "EVM chain id number", "not a blockchain id"),
		handlertest.Invalid("alias", p("c-chain", nft, ""), "invalid chainId 'c-chain'", "EVM chain id number"),
		handlertest.Invalid("other network", p("43114", nft, ""), "chainId 43114", "mainnet"),
		handlertest.Invalid("unknown number", p("5", nft, ""), "unsupported chainId '5'"),
		handlertest.Invalid("bad address", p("43112", "0xdead", ""), "invalid address '0xdead'"),
		handlertest.Invalid("pageSize 5001", p("43112", nft, "?pageSize=5001"), "pageSize", "between 1 and 5000", "default 1000"),
		handlertest.Invalid("pageSize 0", p("43112", nft, "?pageSize=0"), "pageSize", "between 1 and 5000"),
		handlertest.Invalid("pageToken", p("43112", nft, "?pageToken=nope"), "invalid pageToken"),
		handlertest.Failing("not a contract", p("43112", handlertest.EVMAddr, ""), http.StatusNotFound, "is not a contract known to the index"),
		handlertest.Invalid("not an NFT contract", p("43112", handlertest.Wavax.Hex(), ""), "is an ERC-20 contract, not an NFT"),
		handlertest.Invalid("a contract of no standard", p("43112", handlertest.Mystery.Hex(), ""), "is an UNKNOWN contract"),
	})
}
