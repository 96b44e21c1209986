package primary

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

const primaryTpl = "/v1/networks/{network}/blockchains/{blockchainId}"

// accepted builds the case of a valid request: served routes answer 200
// with a body that has a key (servedBy), stubs their "not served yet" 404
// (notServed).
type accepted func(name, path string) handlertest.RouteCase

func servedBy(key string) accepted {
	return func(name, path string) handlertest.RouteCase { return handlertest.OK(name, path, key) }
}

func notServed(tpl string) accepted {
	return func(name, path string) handlertest.RouteCase { return handlertest.Valid(name, path, tpl) }
}

// networkCases are the {network} cases of a stub /v1/networks route with
// template tpl; p builds the path for a network segment.
func networkCases(p func(network string) string, tpl string) []handlertest.RouteCase {
	return networkCasesFor(p, notServed(tpl))
}

// networkCasesFor are the {network} cases of every /v1/networks route.
func networkCasesFor(p func(network string) string, valid accepted) []handlertest.RouteCase {
	return []handlertest.RouteCase{
		valid("local", p("local")),
		valid("network any case", p("LOCAL")),
		handlertest.Invalid("other network", p("mainnet"), "this node serves network 'local'; request was for 'mainnet'"),
		valid("testnet names a local network", p("testnet")),
		handlertest.Invalid("fuji is not local", p("fuji"), "serves network 'local'", "'fuji'"),
		handlertest.Invalid("unknown network", p("devnet"), "invalid network 'devnet'", "'mainnet', 'fuji', 'testnet', 'local'"),
	}
}

// blockchainCases checks {blockchainId} of a stub route with template tpl
// against the chains it allows; p builds the path for a network and
// blockchain segment.
func blockchainCases(p func(network, chain string) string, tpl string, allowed []netinfo.Chain) []handlertest.RouteCase {
	return blockchainCasesFor(p, notServed(tpl), allowed)
}

// blockchainCasesFor checks {blockchainId} against the chains a route allows.
func blockchainCasesFor(p func(network, chain string) string, valid accepted, allowed []netinfo.Chain) []handlertest.RouteCase {
	node := fakenet.Info()
	var cases []handlertest.RouteCase
	cases = append(cases, networkCasesFor(func(n string) string { return p(n, allowed[0].DataAPIAlias()) }, valid)...)
	for _, c := range allPrimaryChains() {
		alias, id := c.DataAPIAlias(), node.ChainID(c).String()
		if slices.Contains(allowed, c) {
			cases = append(cases, valid(alias, p("local", alias)), valid(alias+" by id", p("local", id)),
				valid(alias+" upper case", p("local", strings.ToUpper(alias))))
		} else {
			cases = append(cases,
				handlertest.Invalid(alias+" not allowed", p("local", alias), "blockchainId '"+alias+"'", "not supported by this endpoint"),
				handlertest.Invalid(alias+" id not allowed", p("local", id), "blockchainId", "not supported by this endpoint"))
		}
	}
	return append(cases,
		handlertest.Invalid("network before chain", p("mainnet", "nope"), "network"),
		handlertest.Invalid("unknown chain", p("local", "nope"), "invalid blockchainId 'nope'"),
		handlertest.Invalid("node alias", p("local", "X"), "invalid blockchainId 'X'"),
		handlertest.Invalid("mainnet x-chain id", p("local", handlertest.MainnetXChain), "blockchainId", "x-chain of mainnet", "serves network 'local'"),
		handlertest.Invalid("fuji c-chain id", p("local", handlertest.FujiCChain), "blockchainId", "c-chain of fuji"),
	)
}

func TestListPrimaryTxsRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	path := func(n, c string) string { return "/v1/networks/" + n + "/blockchains/" + c + "/transactions" }
	cases := blockchainCasesFor(path, servedBy("transactions"), allPrimaryChains())

	addr, addr2 := handlertest.Bech32Addr(t, "local", 1), handlertest.Bech32Addr(t, "local", 2)
	fujiAddr := handlertest.Bech32Addr(t, "fuji", 1)
	validation := ids.ID{5}
	p, c, x := path("local", "p-chain"), path("local", "c-chain"), path("local", "x-chain")
	cases = append(cases,
		handlertest.OK("addresses", p+"?addresses="+addr+",P-"+addr2+",X-"+addr, "transactions"),
		handlertest.OK("all filters", p+"?addresses="+addr+"&txTypes=AddValidatorTx&txTypes=AddDelegatorTx,BaseTx"+
			"&startTimestamp=1&endTimestamp=2&pageSize=100&sortOrder=ASC", "transactions"),
		handlertest.OK("l1ValidationId cb58", p+"?l1ValidationId="+validation.String(), "transactions"),
		handlertest.OK("l1ValidationId hex with filters", p+"?l1ValidationId=0x"+validation.Hex()+"&txTypes=SetL1ValidatorWeightTx&startTimestamp=5", "transactions"),
		handlertest.OK("evm address on c-chain", c+"?addresses="+handlertest.EVMAddr+","+addr+"&txTypes=ImportTx", "transactions"),
		handlertest.Invalid("evm address on p-chain", p+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address", "C-chain"),
		handlertest.Invalid("bad evm address on c-chain", c+"?addresses=0x12", "invalid addresses", "40 hex digits"),
		handlertest.Invalid("other network's address", p+"?addresses="+fujiAddr, "invalid addresses", `"fuji"`, `"local"`),
		handlertest.Invalid("not an address", p+"?addresses=hello", "invalid addresses", "bech32"),
		handlertest.Invalid("bad chain prefix", p+"?addresses=Z-"+addr, "invalid addresses", "chain prefix"),
		handlertest.Invalid("too many addresses", p+"?addresses="+manyAddresses(t, api.MaxListEntries+1), "addresses", "more than 64"),
		handlertest.OK("at the address limit", p+"?addresses="+manyAddresses(t, api.MaxListEntries), "transactions"),
		handlertest.Invalid("l1ValidationId off the P-chain", x+"?l1ValidationId="+validation.String(), "l1ValidationId", "only supported on the P-chain", "x-chain"),
		handlertest.Invalid("bad l1ValidationId", p+"?l1ValidationId=abc", "invalid l1ValidationId 'abc'"),
		handlertest.Invalid("bad txTypes", p+"?addresses="+addr+"&txTypes=Nope", "invalid txTypes 'Nope'", "'AddValidatorTx'"),
		handlertest.Invalid("bad startTimestamp", p+"?addresses="+addr+"&startTimestamp=-1", "startTimestamp", ">= 0"),
		handlertest.Invalid("bad endTimestamp", p+"?addresses="+addr+"&endTimestamp=soon", "endTimestamp"),
		handlertest.Invalid("reversed timestamps", p+"?addresses="+addr+"&startTimestamp=9&endTimestamp=1", "startTimestamp", "endTimestamp"),
		handlertest.Invalid("pageSize", p+"?pageSize=0", "pageSize", "between 1 and 100"),
		handlertest.Invalid("sortOrder", p+"?sortOrder=newest", "sortOrder"),
		handlertest.Invalid("txTypes without addresses", p+"?txTypes=AddValidatorTx", "txTypes needs an address filter", "addresses", "l1ValidationId"),
		handlertest.Invalid("startTimestamp without addresses", x+"?startTimestamp=1", "startTimestamp needs an address filter"),
		handlertest.Invalid("endTimestamp without addresses", c+"?endTimestamp=1", "endTimestamp needs an address filter"),
		handlertest.Invalid("pageToken", p+"?pageToken=zzz", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func manyAddresses(t *testing.T, n int) string {
	t.Helper()
	addrs := make([]string, n)
	for i := range addrs {
		addrs[i] = handlertest.Bech32Addr(t, "local", byte(i))
	}
	return strings.Join(addrs, ",")
}

func TestGetPrimaryBalancesRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	path := func(n, c string) string { return "/v1/networks/" + n + "/blockchains/" + c + "/balances" }
	cases := blockchainCasesFor(path, servedBy("balances"), allPrimaryChains())
	addr := handlertest.Bech32Addr(t, "local", 3)
	p, c := path("local", "p-chain"), path("local", "c-chain")
	cases = append(cases,
		handlertest.OK("addresses and time", p+"?addresses="+addr+"&blockTimestamp=1599696000", "balances"),
		handlertest.OK("blockTimestamp 0", p+"?blockTimestamp=0", "balances"),
		handlertest.OK("evm address on c-chain", c+"?addresses="+handlertest.EVMAddr, "balances"),
		handlertest.Invalid("evm address on p-chain", p+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Invalid("negative blockTimestamp", p+"?blockTimestamp=-1", "blockTimestamp", ">= 0"),
		handlertest.Invalid("float blockTimestamp", p+"?blockTimestamp=1.5", "blockTimestamp"),
		handlertest.Invalid("bad address", p+"?addresses=P-local1nope", "invalid addresses"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListVerticesByHeightRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	path := func(n, c string) string {
		return "/v1/networks/" + n + "/blockchains/" + c + "/vertices:listByHeight?vertexHeight=1"
	}
	cases := blockchainCasesFor(path, servedBy("vertices"), xChainOnly())
	x := "/v1/networks/local/blockchains/x-chain/vertices:listByHeight"
	cases = append(cases,
		handlertest.OK("height 0", x+"?vertexHeight=0&pageSize=100&sortOrder=asc", "vertices"),
		handlertest.Invalid("missing vertexHeight", x, "vertexHeight is required", ">= 0"),
		handlertest.Invalid("empty vertexHeight", x+"?vertexHeight=", "vertexHeight is required"),
		handlertest.Invalid("negative vertexHeight", x+"?vertexHeight=-1", "invalid vertexHeight '-1'", ">= 0"),
		handlertest.Invalid("float vertexHeight", x+"?vertexHeight=1.0", "invalid vertexHeight"),
		handlertest.Invalid("pageSize", x+"?vertexHeight=1&pageSize=101", "pageSize"),
		handlertest.Invalid("sortOrder", x+"?vertexHeight=1&sortOrder=x", "sortOrder"),
		handlertest.Invalid("pageToken", x+"?vertexHeight=1&pageToken=x", "invalid pageToken"),
		handlertest.Invalid("chain before vertexHeight", "/v1/networks/local/blockchains/p-chain/vertices:listByHeight", "blockchainId"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListBlocksByNodeRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	path := func(n, c string) string {
		return "/v1/networks/" + n + "/blockchains/" + c + "/nodes/" + handlertest.NodeID + "/blocks"
	}
	cases := blockchainCasesFor(path, servedBy("blocks"), allPrimaryChains())
	node := func(id string) string { return "/v1/networks/local/blockchains/p-chain/nodes/" + id + "/blocks" }
	cases = append(cases,
		handlertest.OK("empty node id", node(ids.EmptyNodeID.String()), "blocks"),
		handlertest.OK("time and paging", node(handlertest.NodeID)+"?startTimestamp=1&endTimestamp=1&pageSize=7", "blocks"),
		handlertest.Invalid("no prefix", node(strings.TrimPrefix(handlertest.NodeID, "NodeID-")), "invalid nodeId", "NodeID-"),
		handlertest.Invalid("bad checksum", node(handlertest.NodeID[:len(handlertest.NodeID)-1]+"z"), "invalid nodeId"),
		handlertest.Invalid("garbage", node("nope"), "invalid nodeId 'nope'"),
		handlertest.Invalid("chain before node", "/v1/networks/local/blockchains/nope/nodes/nope/blocks", "blockchainId"),
		handlertest.Invalid("node before query", node("nope")+"?pageSize=0", "nodeId"),
		handlertest.Invalid("timestamps", node(handlertest.NodeID)+"?startTimestamp=2&endTimestamp=1", "startTimestamp"),
		handlertest.Invalid("pageSize", node(handlertest.NodeID)+"?pageSize=-1", "pageSize"),
		handlertest.Invalid("pageToken", node(handlertest.NodeID)+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListLatestVerticesRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	path := func(n, c string) string { return "/v1/networks/" + n + "/blockchains/" + c + "/vertices" }
	cases := blockchainCasesFor(path, servedBy("vertices"), xChainOnly())
	x := path("local", "x-chain")
	cases = append(cases,
		handlertest.OK("pageSize", x+"?pageSize=100", "vertices"),
		handlertest.Invalid("pageSize", x+"?pageSize=101", "pageSize", "between 1 and 100"),
		handlertest.Invalid("pageToken", x+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestParseListPrimaryTxsRequest(t *testing.T) {
	s := newTestServer(handlertest.NewCore(handlertest.NewFakes()), handlertest.NewFakes())
	addr := handlertest.Bech32Addr(t, "local", 1)
	req, err := http.NewRequest(http.MethodGet, "http://node/?addresses="+addr+"&txTypes=basetx", nil)
	require.NoError(t, err)
	req = handlertest.MuxVars(req, map[string]string{"network": "local", "blockchainId": "x-chain"})
	got, err := s.parseListLatestPrimaryNetworkTransactionsRequest(req, &api.Heights{})
	require.NoError(t, err)
	require.Equal(t, netinfo.X, got.Chain)
	require.Equal(t, []string{addr}, got.Addresses)
	require.Equal(t, []ids.ShortID{handlertest.ShortAddr(1)}, got.AddressIDs)
	require.Equal(t, []string{"BaseTx"}, got.TxTypes)
	require.Equal(t, 10, got.Page.Size)
	require.Equal(t, api.SortDesc, got.Page.Order)
	require.True(t, got.Page.First)
}
