package handlers

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

const primaryTpl = "/v1/networks/{network}/blockchains/{blockchainId}"

// accepted builds the case of a valid request: served routes answer 200
// with a body that has a key (servedBy), stubs their "not served yet" 404
// (notServed).
type accepted func(name, path string) routeCase

func servedBy(key string) accepted {
	return func(name, path string) routeCase { return ok(name, path, key) }
}

func notServed(tpl string) accepted {
	return func(name, path string) routeCase { return valid(name, path, tpl) }
}

// networkCases are the {network} cases of a stub /v1/networks route with
// template tpl; p builds the path for a network segment.
func networkCases(p func(network string) string, tpl string) []routeCase {
	return networkCasesFor(p, notServed(tpl))
}

// networkCasesFor are the {network} cases of every /v1/networks route.
func networkCasesFor(p func(network string) string, valid accepted) []routeCase {
	return []routeCase{
		valid("local", p("local")),
		valid("network any case", p("LOCAL")),
		invalid("other network", p("mainnet"), "this node serves network 'local'; request was for 'mainnet'"),
		invalid("testnet is fuji", p("testnet"), "serves network 'local'", "'testnet'"),
		invalid("unknown network", p("devnet"), "invalid network 'devnet'", "'mainnet', 'fuji', 'testnet', 'local'"),
	}
}

// blockchainCases checks {blockchainId} of a stub route with template tpl
// against the chains it allows; p builds the path for a network and
// blockchain segment.
func blockchainCases(p func(network, chain string) string, tpl string, allowed []netinfo.Chain) []routeCase {
	return blockchainCasesFor(p, notServed(tpl), allowed)
}

// blockchainCasesFor checks {blockchainId} against the chains a route allows.
func blockchainCasesFor(p func(network, chain string) string, valid accepted, allowed []netinfo.Chain) []routeCase {
	node := localInfo()
	var cases []routeCase
	cases = append(cases, networkCasesFor(func(n string) string { return p(n, allowed[0].DataAPIAlias()) }, valid)...)
	for _, c := range allPrimaryChains() {
		alias, id := c.DataAPIAlias(), node.ChainID(c).String()
		if slices.Contains(allowed, c) {
			cases = append(cases, valid(alias, p("local", alias)), valid(alias+" by id", p("local", id)),
				valid(alias+" upper case", p("local", strings.ToUpper(alias))))
		} else {
			cases = append(cases,
				invalid(alias+" not allowed", p("local", alias), "blockchainId '"+alias+"'", "not supported by this endpoint"),
				invalid(alias+" id not allowed", p("local", id), "blockchainId", "not supported by this endpoint"))
		}
	}
	return append(cases,
		invalid("network before chain", p("mainnet", "nope"), "network"),
		invalid("unknown chain", p("local", "nope"), "invalid blockchainId 'nope'"),
		invalid("node alias", p("local", "X"), "invalid blockchainId 'X'"),
		invalid("mainnet x-chain id", p("local", mainnetXChain), "blockchainId", "x-chain of mainnet", "serves network 'local'"),
		invalid("fuji c-chain id", p("local", fujiCChain), "blockchainId", "c-chain of fuji"),
	)
}

func TestListPrimaryTxsRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	path := func(n, c string) string { return "/v1/networks/" + n + "/blockchains/" + c + "/transactions" }
	cases := blockchainCasesFor(path, servedBy("transactions"), allPrimaryChains())

	addr, addr2 := bech32Addr(t, "local", 1), bech32Addr(t, "local", 2)
	fujiAddr := bech32Addr(t, "fuji", 1)
	validation := ids.ID{5}
	p, c, x := path("local", "p-chain"), path("local", "c-chain"), path("local", "x-chain")
	cases = append(cases,
		ok("addresses", p+"?addresses="+addr+",P-"+addr2+",X-"+addr, "transactions"),
		ok("all filters", p+"?addresses="+addr+"&txTypes=AddValidatorTx&txTypes=AddDelegatorTx,BaseTx"+
			"&startTimestamp=1&endTimestamp=2&pageSize=100&sortOrder=ASC", "transactions"),
		ok("l1ValidationId cb58", p+"?l1ValidationId="+validation.String(), "transactions"),
		ok("l1ValidationId hex with filters", p+"?l1ValidationId=0x"+validation.Hex()+"&txTypes=SetL1ValidatorWeightTx&startTimestamp=5", "transactions"),
		ok("evm address on c-chain", c+"?addresses="+testEVMAddr+","+addr+"&txTypes=ImportTx", "transactions"),
		invalid("evm address on p-chain", p+"?addresses="+testEVMAddr, "invalid addresses", "EVM address", "C-chain"),
		invalid("bad evm address on c-chain", c+"?addresses=0x12", "invalid addresses", "40 hex digits"),
		invalid("other network's address", p+"?addresses="+fujiAddr, "invalid addresses", `"fuji"`, `"local"`),
		invalid("not an address", p+"?addresses=hello", "invalid addresses", "bech32"),
		invalid("bad chain prefix", p+"?addresses=Z-"+addr, "invalid addresses", "chain prefix"),
		invalid("too many addresses", p+"?addresses="+manyAddresses(t, api.MaxListEntries+1), "addresses", "more than 64"),
		ok("at the address limit", p+"?addresses="+manyAddresses(t, api.MaxListEntries), "transactions"),
		invalid("l1ValidationId off the P-chain", x+"?l1ValidationId="+validation.String(), "l1ValidationId", "only supported on the P-chain", "x-chain"),
		invalid("bad l1ValidationId", p+"?l1ValidationId=abc", "invalid l1ValidationId 'abc'"),
		invalid("bad txTypes", p+"?addresses="+addr+"&txTypes=Nope", "invalid txTypes 'Nope'", "'AddValidatorTx'"),
		invalid("bad startTimestamp", p+"?addresses="+addr+"&startTimestamp=-1", "startTimestamp", ">= 0"),
		invalid("bad endTimestamp", p+"?addresses="+addr+"&endTimestamp=soon", "endTimestamp"),
		invalid("reversed timestamps", p+"?addresses="+addr+"&startTimestamp=9&endTimestamp=1", "startTimestamp", "endTimestamp"),
		invalid("pageSize", p+"?pageSize=0", "pageSize", "between 1 and 100"),
		invalid("sortOrder", p+"?sortOrder=newest", "sortOrder"),
		invalid("txTypes without addresses", p+"?txTypes=AddValidatorTx", "txTypes needs an address filter", "addresses", "l1ValidationId"),
		invalid("startTimestamp without addresses", x+"?startTimestamp=1", "startTimestamp needs an address filter"),
		invalid("endTimestamp without addresses", c+"?endTimestamp=1", "endTimestamp needs an address filter"),
		invalid("pageToken", p+"?pageToken=zzz", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func manyAddresses(t *testing.T, n int) string {
	t.Helper()
	addrs := make([]string, n)
	for i := range addrs {
		addrs[i] = bech32Addr(t, "local", byte(i))
	}
	return strings.Join(addrs, ",")
}

func TestGetPrimaryBalancesRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	path := func(n, c string) string { return "/v1/networks/" + n + "/blockchains/" + c + "/balances" }
	cases := blockchainCasesFor(path, servedBy("balances"), allPrimaryChains())
	addr := bech32Addr(t, "local", 3)
	p, c := path("local", "p-chain"), path("local", "c-chain")
	cases = append(cases,
		ok("addresses and time", p+"?addresses="+addr+"&blockTimestamp=1599696000", "balances"),
		ok("blockTimestamp 0", p+"?blockTimestamp=0", "balances"),
		ok("evm address on c-chain", c+"?addresses="+testEVMAddr, "balances"),
		invalid("evm address on p-chain", p+"?addresses="+testEVMAddr, "invalid addresses", "EVM address"),
		invalid("negative blockTimestamp", p+"?blockTimestamp=-1", "blockTimestamp", ">= 0"),
		invalid("float blockTimestamp", p+"?blockTimestamp=1.5", "blockTimestamp"),
		invalid("bad address", p+"?addresses=P-local1nope", "invalid addresses"),
	)
	runRouteCases(t, srv, cases)
}

func TestListVerticesByHeightRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	path := func(n, c string) string {
		return "/v1/networks/" + n + "/blockchains/" + c + "/vertices:listByHeight?vertexHeight=1"
	}
	cases := blockchainCasesFor(path, servedBy("vertices"), xChainOnly())
	x := "/v1/networks/local/blockchains/x-chain/vertices:listByHeight"
	cases = append(cases,
		ok("height 0", x+"?vertexHeight=0&pageSize=100&sortOrder=asc", "vertices"),
		invalid("missing vertexHeight", x, "vertexHeight is required", ">= 0"),
		invalid("empty vertexHeight", x+"?vertexHeight=", "vertexHeight is required"),
		invalid("negative vertexHeight", x+"?vertexHeight=-1", "invalid vertexHeight '-1'", ">= 0"),
		invalid("float vertexHeight", x+"?vertexHeight=1.0", "invalid vertexHeight"),
		invalid("pageSize", x+"?vertexHeight=1&pageSize=101", "pageSize"),
		invalid("sortOrder", x+"?vertexHeight=1&sortOrder=x", "sortOrder"),
		invalid("pageToken", x+"?vertexHeight=1&pageToken=x", "invalid pageToken"),
		invalid("chain before vertexHeight", "/v1/networks/local/blockchains/p-chain/vertices:listByHeight", "blockchainId"),
	)
	runRouteCases(t, srv, cases)
}

func TestListBlocksByNodeRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	path := func(n, c string) string {
		return "/v1/networks/" + n + "/blockchains/" + c + "/nodes/" + testNodeID + "/blocks"
	}
	cases := blockchainCasesFor(path, servedBy("blocks"), allPrimaryChains())
	node := func(id string) string { return "/v1/networks/local/blockchains/p-chain/nodes/" + id + "/blocks" }
	cases = append(cases,
		ok("empty node id", node(ids.EmptyNodeID.String()), "blocks"),
		ok("time and paging", node(testNodeID)+"?startTimestamp=1&endTimestamp=1&pageSize=7", "blocks"),
		invalid("no prefix", node(strings.TrimPrefix(testNodeID, "NodeID-")), "invalid nodeId", "NodeID-"),
		invalid("bad checksum", node(testNodeID[:len(testNodeID)-1]+"z"), "invalid nodeId"),
		invalid("garbage", node("nope"), "invalid nodeId 'nope'"),
		invalid("chain before node", "/v1/networks/local/blockchains/nope/nodes/nope/blocks", "blockchainId"),
		invalid("node before query", node("nope")+"?pageSize=0", "nodeId"),
		invalid("timestamps", node(testNodeID)+"?startTimestamp=2&endTimestamp=1", "startTimestamp"),
		invalid("pageSize", node(testNodeID)+"?pageSize=-1", "pageSize"),
		invalid("pageToken", node(testNodeID)+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestListLatestVerticesRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	path := func(n, c string) string { return "/v1/networks/" + n + "/blockchains/" + c + "/vertices" }
	cases := blockchainCasesFor(path, servedBy("vertices"), xChainOnly())
	x := path("local", "x-chain")
	cases = append(cases,
		ok("pageSize", x+"?pageSize=100", "vertices"),
		invalid("pageSize", x+"?pageSize=101", "pageSize", "between 1 and 100"),
		invalid("pageToken", x+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestParseListPrimaryTxsRequest(t *testing.T) {
	s := newTestPrimaryServer(newFakeBackend().readers())
	addr := bech32Addr(t, "local", 1)
	req, err := http.NewRequest(http.MethodGet, "http://node/?addresses="+addr+"&txTypes=basetx", nil)
	require.NoError(t, err)
	req = muxVars(req, map[string]string{"network": "local", "blockchainId": "x-chain"})
	got, err := s.parseListPrimaryTxsRequest(req, &api.Heights{})
	require.NoError(t, err)
	require.Equal(t, netinfo.X, got.Chain)
	require.Equal(t, []string{addr}, got.Addresses)
	require.Equal(t, []ids.ShortID{shortAddr(1)}, got.AddressIDs)
	require.Equal(t, []string{"BaseTx"}, got.TxTypes)
	require.Equal(t, 10, got.Page.Size)
	require.Equal(t, api.SortDesc, got.Page.Order)
	require.True(t, got.Page.First)
}
