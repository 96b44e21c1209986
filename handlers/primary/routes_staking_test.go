package primary

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

func TestListStakingTxsRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	path := func(n, c string) string {
		return "/v1/networks/" + n + "/blockchains/" + c + "/transactions:listStaking"
	}
	cases := blockchainCasesFor(path, servedBy("transactions"), []netinfo.Chain{netinfo.P})
	addr := handlertest.Bech32Addr(t, "local", 4)
	p := path("local", "p-chain")
	cases = append(cases,
		handlertest.OK("p-chain id", path("local", handlertest.PChainID), "transactions"),
		handlertest.OK("no filters", p, "transactions"),
		handlertest.OK("all filters", p+"?addresses=P-"+addr+"&txTypes=AddPermissionlessValidatorTx,AddPermissionlessDelegatorTx"+
			"&startTimestamp=1&endTimestamp=3&pageSize=1&sortOrder=desc", "transactions"),
		handlertest.OK("txTypes without addresses", p+"?txTypes=AddValidatorTx", "transactions"),
		handlertest.Invalid("evm address", p+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Invalid("bad address", p+"?addresses=avax1xyz", "invalid addresses"),
		handlertest.Invalid("bad txTypes", p+"?txTypes=AddValidatorTx,Stake", "invalid txTypes 'Stake'"),
		handlertest.Invalid("bad timestamp", p+"?startTimestamp=x", "startTimestamp"),
		handlertest.Invalid("reversed timestamps", p+"?startTimestamp=5&endTimestamp=4", "startTimestamp", "endTimestamp"),
		handlertest.Invalid("pageSize", p+"?pageSize=500", "pageSize", "between 1 and 100"),
		handlertest.Invalid("sortOrder", p+"?sortOrder=1", "sortOrder"),
		handlertest.Invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListRewardsRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	addr := handlertest.Bech32Addr(t, "local", 5)
	path := func(n string) string { return "/v1/networks/" + n + "/rewards?addresses=" + addr }
	cases := networkCasesFor(path, servedBy("historicalRewards"))
	p := "/v1/networks/local/rewards"
	cases = append(cases,
		handlertest.OK("nodeIds only", p+"?nodeIds="+handlertest.NodeID+","+handlertest.NodeID2, "historicalRewards"),
		handlertest.OK("repeated nodeIds", p+"?nodeIds="+handlertest.NodeID+"&nodeIds="+handlertest.NodeID2, "historicalRewards"),
		handlertest.OK("both and all query", p+"?addresses=P-"+addr+"&nodeIds="+handlertest.NodeID+
			"&pageSize=100&sortOrder=asc&currency=jpy", "historicalRewards"),
		handlertest.Invalid("neither", p, "addresses or nodeIds is required"),
		handlertest.Invalid("neither with other query", p+"?pageSize=5&currency=usd", "addresses or nodeIds is required"),
		handlertest.Invalid("blank lists", p+"?addresses=,&nodeIds=", "addresses or nodeIds is required"),
		handlertest.Invalid("bad address", p+"?addresses=nope", "invalid addresses", `"nope"`),
		handlertest.Invalid("evm address", p+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Invalid("bad nodeId", p+"?nodeIds="+handlertest.NodeID+",NodeID-xyz", "invalid nodeIds", "NodeID-xyz"),
		handlertest.Invalid("nodeId without prefix", p+"?nodeIds="+strings.TrimPrefix(handlertest.NodeID, "NodeID-"), "invalid nodeIds", "NodeID-"),
		handlertest.Invalid("too many nodeIds", p+"?nodeIds="+manyNodeIDs(api.MaxListEntries+1), "nodeIds", "more than 64"),
		handlertest.Invalid("pageSize", p+"?addresses="+addr+"&pageSize=0", "pageSize"),
		handlertest.Invalid("sortOrder", p+"?addresses="+addr+"&sortOrder=z", "sortOrder"),
		handlertest.Invalid("currency", p+"?addresses="+addr+"&currency=avax", "currency", "'usd'"),
		handlertest.Invalid("pageToken", p+"?addresses="+addr+"&pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func manyNodeIDs(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = ids.BuildTestNodeID([]byte{byte(i), 1}).String()
	}
	return strings.Join(out, ",")
}

func TestGetValidatorRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	cases := networkCasesFor(func(n string) string { return "/v1/networks/" + n + "/validators/" + handlertest.NodeID }, servedBy("validators"))
	p := "/v1/networks/local/validators/" + handlertest.NodeID
	cases = append(cases,
		handlertest.OK("hosted example", "/v1/networks/local/validators/NodeID-111111111111111111116DBWJs", "validators"),
		handlertest.OK("all query", p+"?pageSize=100&validationStatus=removed&sortOrder=asc", "validators"),
		handlertest.OK("status any case", p+"?validationStatus=Active", "validators"),
		handlertest.Invalid("network before nodeId", "/v1/networks/fuji/validators/nope", "network"),
		handlertest.Invalid("bad nodeId", "/v1/networks/local/validators/nope", "invalid nodeId 'nope'", "NodeID-"),
		handlertest.Invalid("nodeId before query", "/v1/networks/local/validators/nope?pageSize=0", "nodeId"),
		handlertest.Invalid("bad validationStatus", p+"?validationStatus=slashed", "invalid validationStatus 'slashed'",
			"'completed', 'active', 'pending', 'removed'"),
		handlertest.Invalid("pageSize", p+"?pageSize=101", "pageSize"),
		handlertest.Invalid("sortOrder", p+"?sortOrder=x", "sortOrder"),
		handlertest.Invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestListDelegatorsRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	cases := networkCasesFor(func(n string) string { return "/v1/networks/" + n + "/delegators" }, servedBy("delegators"))
	addr := handlertest.Bech32Addr(t, "local", 6)
	p := "/v1/networks/local/delegators"
	cases = append(cases,
		handlertest.OK("all query", p+"?pageSize=2&rewardAddresses=P-"+addr+","+addr+"&sortOrder=asc&delegationStatus=pending&nodeIds="+handlertest.NodeID, "delegators"),
		handlertest.OK("status any case", p+"?delegationStatus=COMPLETED", "delegators"),
		handlertest.Invalid("removed is a validation status only", p+"?delegationStatus=removed", "invalid delegationStatus 'removed'",
			"'completed', 'active', 'pending'"),
		handlertest.Invalid("bad rewardAddresses", p+"?rewardAddresses=P-fuji1abc", "invalid rewardAddresses"),
		handlertest.Invalid("other network's rewardAddresses", p+"?rewardAddresses="+handlertest.Bech32Addr(t, "avax", 1), "invalid rewardAddresses", `"avax"`),
		handlertest.Invalid("bad nodeIds", p+"?nodeIds=NodeID-", "invalid nodeIds"),
		handlertest.Invalid("pageSize", p+"?pageSize=x", "pageSize"),
		handlertest.Invalid("sortOrder", p+"?sortOrder=x", "sortOrder"),
		handlertest.Invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestParseListRewardsRequest(t *testing.T) {
	s := newTestServer(handlertest.NewCore(handlertest.NewFakes()), handlertest.NewFakes())
	req, err := http.NewRequest(http.MethodGet, "http://node/?nodeIds="+handlertest.NodeID+","+handlertest.NodeID+"&currency=EUR", nil)
	require.NoError(t, err)
	req = handlertest.MuxVars(req, map[string]string{"network": "local"})
	got, err := s.parseListHistoricalPrimaryNetworkRewardsRequest(req, &api.Heights{})
	require.NoError(t, err)
	nodeID, err := ids.NodeIDFromString(handlertest.NodeID)
	require.NoError(t, err)
	require.Equal(t, []ids.NodeID{nodeID}, got.NodeIDs)
	require.Empty(t, got.Addresses)
	require.Equal(t, "eur", got.Currency)
	require.Equal(t, 10, got.Page.Size)
	require.Equal(t, api.SortDesc, got.Page.Order)
}
