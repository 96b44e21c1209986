package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

func TestListStakingTxsRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	path := func(n, c string) string {
		return "/v1/networks/" + n + "/blockchains/" + c + "/transactions:listStaking"
	}
	cases := blockchainCasesFor(path, servedBy("transactions"), []netinfo.Chain{netinfo.P})
	addr := bech32Addr(t, "local", 4)
	p := path("local", "p-chain")
	cases = append(cases,
		ok("p-chain id", path("local", pChainID), "transactions"),
		ok("no filters", p, "transactions"),
		ok("all filters", p+"?addresses=P-"+addr+"&txTypes=AddPermissionlessValidatorTx,AddPermissionlessDelegatorTx"+
			"&startTimestamp=1&endTimestamp=3&pageSize=1&sortOrder=desc", "transactions"),
		ok("txTypes without addresses", p+"?txTypes=AddValidatorTx", "transactions"),
		invalid("evm address", p+"?addresses="+testEVMAddr, "invalid addresses", "EVM address"),
		invalid("bad address", p+"?addresses=avax1xyz", "invalid addresses"),
		invalid("bad txTypes", p+"?txTypes=AddValidatorTx,Stake", "invalid txTypes 'Stake'"),
		invalid("bad timestamp", p+"?startTimestamp=x", "startTimestamp"),
		invalid("reversed timestamps", p+"?startTimestamp=5&endTimestamp=4", "startTimestamp", "endTimestamp"),
		invalid("pageSize", p+"?pageSize=500", "pageSize", "between 1 and 100"),
		invalid("sortOrder", p+"?sortOrder=1", "sortOrder"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestListRewardsRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	addr := bech32Addr(t, "local", 5)
	path := func(n string) string { return "/v1/networks/" + n + "/rewards?addresses=" + addr }
	cases := networkCasesFor(path, servedBy("historicalRewards"))
	p := "/v1/networks/local/rewards"
	cases = append(cases,
		ok("nodeIds only", p+"?nodeIds="+testNodeID+","+testNodeID2, "historicalRewards"),
		ok("repeated nodeIds", p+"?nodeIds="+testNodeID+"&nodeIds="+testNodeID2, "historicalRewards"),
		ok("both and all query", p+"?addresses=P-"+addr+"&nodeIds="+testNodeID+
			"&pageSize=100&sortOrder=asc&currency=jpy", "historicalRewards"),
		invalid("neither", p, "addresses or nodeIds is required"),
		invalid("neither with other query", p+"?pageSize=5&currency=usd", "addresses or nodeIds is required"),
		invalid("blank lists", p+"?addresses=,&nodeIds=", "addresses or nodeIds is required"),
		invalid("bad address", p+"?addresses=nope", "invalid addresses", `"nope"`),
		invalid("evm address", p+"?addresses="+testEVMAddr, "invalid addresses", "EVM address"),
		invalid("bad nodeId", p+"?nodeIds="+testNodeID+",NodeID-xyz", "invalid nodeIds", "NodeID-xyz"),
		invalid("nodeId without prefix", p+"?nodeIds="+strings.TrimPrefix(testNodeID, "NodeID-"), "invalid nodeIds", "NodeID-"),
		invalid("too many nodeIds", p+"?nodeIds="+manyNodeIDs(api.MaxListEntries+1), "nodeIds", "more than 64"),
		invalid("pageSize", p+"?addresses="+addr+"&pageSize=0", "pageSize"),
		invalid("sortOrder", p+"?addresses="+addr+"&sortOrder=z", "sortOrder"),
		invalid("currency", p+"?addresses="+addr+"&currency=avax", "currency", "'usd'"),
		invalid("pageToken", p+"?addresses="+addr+"&pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func manyNodeIDs(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = ids.BuildTestNodeID([]byte{byte(i), 1}).String()
	}
	return strings.Join(out, ",")
}

func TestGetValidatorRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	cases := networkCasesFor(func(n string) string { return "/v1/networks/" + n + "/validators/" + testNodeID }, servedBy("validators"))
	p := "/v1/networks/local/validators/" + testNodeID
	cases = append(cases,
		ok("hosted example", "/v1/networks/local/validators/NodeID-111111111111111111116DBWJs", "validators"),
		ok("all query", p+"?pageSize=100&validationStatus=removed&sortOrder=asc", "validators"),
		ok("status any case", p+"?validationStatus=Active", "validators"),
		invalid("network before nodeId", "/v1/networks/fuji/validators/nope", "network"),
		invalid("bad nodeId", "/v1/networks/local/validators/nope", "invalid nodeId 'nope'", "NodeID-"),
		invalid("nodeId before query", "/v1/networks/local/validators/nope?pageSize=0", "nodeId"),
		invalid("bad validationStatus", p+"?validationStatus=slashed", "invalid validationStatus 'slashed'",
			"'completed', 'active', 'pending', 'removed'"),
		invalid("pageSize", p+"?pageSize=101", "pageSize"),
		invalid("sortOrder", p+"?sortOrder=x", "sortOrder"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestListDelegatorsRoute(t *testing.T) {
	srv := newTestAPI(t, testConfig(), newFakeBackend(), nil)
	cases := networkCasesFor(func(n string) string { return "/v1/networks/" + n + "/delegators" }, servedBy("delegators"))
	addr := bech32Addr(t, "local", 6)
	p := "/v1/networks/local/delegators"
	cases = append(cases,
		ok("all query", p+"?pageSize=2&rewardAddresses=P-"+addr+","+addr+"&sortOrder=asc&delegationStatus=pending&nodeIds="+testNodeID, "delegators"),
		ok("status any case", p+"?delegationStatus=COMPLETED", "delegators"),
		invalid("removed is a validation status only", p+"?delegationStatus=removed", "invalid delegationStatus 'removed'",
			"'completed', 'active', 'pending'"),
		invalid("bad rewardAddresses", p+"?rewardAddresses=P-fuji1abc", "invalid rewardAddresses"),
		invalid("other network's rewardAddresses", p+"?rewardAddresses="+bech32Addr(t, "avax", 1), "invalid rewardAddresses", `"avax"`),
		invalid("bad nodeIds", p+"?nodeIds=NodeID-", "invalid nodeIds"),
		invalid("pageSize", p+"?pageSize=x", "pageSize"),
		invalid("sortOrder", p+"?sortOrder=x", "sortOrder"),
		invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	runRouteCases(t, srv, cases)
}

func TestParseListRewardsRequest(t *testing.T) {
	s := newTestPrimaryServer(newFakeBackend().readers())
	req, err := http.NewRequest(http.MethodGet, "http://node/?nodeIds="+testNodeID+","+testNodeID+"&currency=EUR", nil)
	require.NoError(t, err)
	req = muxVars(req, map[string]string{"network": "local"})
	got, err := s.parseListRewardsRequest(req, &api.Heights{})
	require.NoError(t, err)
	nodeID, err := ids.NodeIDFromString(testNodeID)
	require.NoError(t, err)
	require.Equal(t, []ids.NodeID{nodeID}, got.NodeIDs)
	require.Empty(t, got.Addresses)
	require.Equal(t, "eur", got.Currency)
	require.Equal(t, 10, got.Page.Size)
	require.Equal(t, api.SortDesc, got.Page.Order)
}
