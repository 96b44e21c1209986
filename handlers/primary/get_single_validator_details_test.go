package primary

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

const (
	validatorsPath = "/v1/networks/local/validators/"
	delegatorsPath = "/v1/networks/local/delegators"
)

// Required members of each variant (the OpenAPI, and what the SDK checks of them).
var (
	validatorCommon   = []string{"txHash", "nodeId", "subnetId", "amountStaked", "startTimestamp", "endTimestamp", "validationStatus"}
	validatorRequired = map[string][]string{
		// stakePercentage and uptimePerformance too where the node gives
		// them (never invented; the live tests check them).
		"active": append([]string{"delegatorCount", "potentialRewards",
			"validatorHealth", "geolocation"}, validatorCommon...),
		"pending":   validatorCommon,
		"completed": append([]string{"delegatorCount", "rewards"}, validatorCommon...),
		"removed":   append([]string{"removeTxHash", "removeTimestamp"}, validatorCommon...),
	}
	delegatorCommon = []string{"txHash", "nodeId", "rewardAddresses", "amountDelegated", "delegationFee",
		"startTimestamp", "endTimestamp", "delegationStatus"}
	delegatorRequired = map[string][]string{
		"active":    append([]string{"estimatedGrossReward", "estimatedNetReward"}, delegatorCommon...),
		"pending":   append([]string{"estimatedGrossReward", "estimatedNetReward"}, delegatorCommon...),
		"completed": append([]string{"grossReward", "netReward"}, delegatorCommon...),
	}
	healthRequired = []string{"reachabilityPercent", "benchedPChainRequestsPercent", "benchedXChainRequestsPercent",
		"benchedCChainRequestsPercent"}
)

// getValidators fetches a validators page and checks every item against its
// variant; geolocation, required and null for active validators, is the
// one null allowed. It returns the items by txHash and in order.
func getValidators(t *testing.T, srv *handlertest.API, query string) (map[string]map[string]any, []string, map[string]any) {
	t.Helper()
	var body map[string]any
	handlertest.RequireJSON(t, srv.Get(t, validatorsPath+query), http.StatusOK, &body)
	byTx := map[string]map[string]any{}
	var order []string
	for _, v := range handlertest.Objects(t, body["validators"]) {
		status := v["validationStatus"].(string)
		requireKeys(t, v, validatorRequired[status]...)
		if status == "active" {
			require.Nil(t, v["geolocation"])
			requireKeys(t, v["validatorHealth"].(map[string]any), healthRequired...)
			delete(v, "geolocation")
		}
		byTx[v["txHash"].(string)] = v
		order = append(order, v["txHash"].(string))
	}
	handlertest.RequireNoNulls(t, body)
	return byTx, order, body
}

func TestGetValidator(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	byTx, order, body := getValidators(t, srv, handlertest.NodeID+"?pageSize=100")
	require.NotContains(t, body, "nextPageToken")
	require.Equal(t, []string{handlertest.VPending.String(), handlertest.VRemoved.String(), handlertest.VActive.String(), handlertest.VSubnetEnded.String(), handlertest.VCompleted.String()},
		order, "newest start first; subnet validations included")
	node := fakenet.Info()

	active := byTx[handlertest.VActive.String()]
	require.Equal(t, map[string]any{
		"txHash": handlertest.VActive.String(), "nodeId": handlertest.NodeID, "subnetId": node.ChainID(netinfo.P).String(),
		"amountStaked": "2000000000000", "delegationFee": "3", "delegationCapacity": "7975000000000",
		"startTimestamp": float64(handlertest.FixtureNow - 100_000), "endTimestamp": float64(handlertest.FixtureNow + 1_000_000),
		"blsCredentials":   map[string]any{"publicKey": "0xaa", "proofOfPossession": "0xbb"},
		"validationStatus": "active",
		"stakePercentage":  float64(20), "delegatorCount": float64(1), "amountDelegated": "25000000000",
		"uptimePerformance": 99.9,
		"potentialRewards": map[string]any{"validationRewardAmount": "5000000",
			"delegationRewardAmount": "31000", // accrued 1000 + 3% of the delegation's 1000000
			"rewardAddresses":        []any{handlertest.Bech32Of(t, handlertest.PCarol)}},
		"validatorHealth": map[string]any{"reachabilityPercent": float64(100), "benchedPChainRequestsPercent": float64(0),
			"benchedXChainRequestsPercent": float64(0), "benchedCChainRequestsPercent": float64(0)},
	}, active)

	completed := byTx[handlertest.VCompleted.String()]
	require.Equal(t, "completed", completed["validationStatus"])
	require.Equal(t, "2", completed["delegationFee"])
	require.InDelta(t, 3, completed["delegatorCount"], 0)
	require.Equal(t, "80", completed["amountDelegated"])
	require.Equal(t, map[string]any{"validationRewardAmount": "7000",
		"delegationRewardAmount": "130", // its own reward tx's 30 and its delegators' reward txs' 100
		"rewardAddresses":        []any{handlertest.Bech32Of(t, handlertest.PAlice)}, "rewardTxHash": handlertest.FixtureTxID(netinfo.P, 5).String()},
		completed["rewards"])
	require.Equal(t, map[string]any{"publicKey": "0xb105", "proofOfPossession": "0x9009"}, completed["blsCredentials"])

	removed := byTx[handlertest.VRemoved.String()]
	require.Equal(t, map[string]any{
		"txHash": handlertest.VRemoved.String(), "nodeId": handlertest.NodeID, "subnetId": handlertest.PermSubnet.String(), "amountStaked": "20",
		"startTimestamp": float64(handlertest.FixtureNow - 50_000), "endTimestamp": float64(handlertest.FixtureNow + 50_000),
		"validationStatus": "removed", "removeTxHash": handlertest.VRemoveTx.String(), "removeTimestamp": float64(handlertest.FixtureNow - 1_000),
	}, removed, "a permissioned subnet validator: no delegation fee")

	require.Equal(t, map[string]any{
		"txHash": handlertest.VPending.String(), "nodeId": handlertest.NodeID, "subnetId": node.ChainID(netinfo.P).String(),
		"amountStaked": "2000000000000", "delegationFee": "5", "startTimestamp": float64(handlertest.FixtureNow + 10_000),
		"endTimestamp": float64(handlertest.FixtureNow + 2_000_000), "validationStatus": "pending",
	}, byTx[handlertest.VPending.String()])

	ended := byTx[handlertest.VSubnetEnded.String()]
	require.Equal(t, "completed", ended["validationStatus"], "a subnet validation ends without a reward tx")
	require.Equal(t, map[string]any{"validationRewardAmount": "0", "delegationRewardAmount": "0"}, ended["rewards"])

	// One read of the node's validator, one of the whole set (the total).
	require.Equal(t, [][]ids.NodeID{{handlertest.Proposer}, nil}, srv.Fakes.Platform.Calls)
	getValidators(t, srv, handlertest.NodeID)
	require.Equal(t, 3, srv.Fakes.Platform.CallCount(), "the total stake is reused")
	srv.Clock.Advance(totalStakeTTL)
	getValidators(t, srv, handlertest.NodeID)
	require.Equal(t, 5, srv.Fakes.Platform.CallCount(), "until it is a minute old")
}

func TestGetValidatorFilters(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	for status, want := range map[string][]string{
		"removed":   {handlertest.VRemoved.String()},
		"completed": {handlertest.VSubnetEnded.String(), handlertest.VCompleted.String()},
		"pending":   {handlertest.VPending.String()},
		"ACTIVE":    {handlertest.VActive.String()},
	} {
		_, order, _ := getValidators(t, srv, handlertest.NodeID+"?validationStatus="+status)
		require.Equal(t, want, order, status)
	}
	_, order, _ := getValidators(t, srv, handlertest.NodeID+"?validationStatus=completed&sortOrder=asc")
	require.Equal(t, []string{handlertest.VCompleted.String(), handlertest.VSubnetEnded.String()}, order)

	srv.Fakes.Platform.Calls = nil
	_, order, _ = getValidators(t, srv, ids.BuildTestNodeID([]byte{42}).String())
	require.Empty(t, order, "a node the index never saw validate")
	_, order, _ = getValidators(t, srv, handlertest.NodeID+"?validationStatus=completed")
	require.Len(t, order, 2)
	require.Empty(t, srv.Fakes.Platform.Calls, "only a page with an active validation reads the node")

	var got []string
	followPages(t, srv, validatorsPath+handlertest.NodeID+"?pageSize=2", func(body map[string]any) {
		for _, v := range handlertest.Objects(t, body["validators"]) {
			got = append(got, v["txHash"].(string))
		}
	})
	_, all, _ := getValidators(t, srv, handlertest.NodeID)
	require.Equal(t, all, got)
}

func TestGetValidatorWithoutLiveData(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	srv.Fakes.Platform.Err = errors.New("node busy")
	byTx, _, _ := getValidators(t, srv, handlertest.NodeID+"?validationStatus=active")
	active := byTx[handlertest.VActive.String()]
	require.NotContains(t, active, "stakePercentage", "the node gives no total stake")
	require.NotContains(t, active, "uptimePerformance", "the node gives no uptime")
	require.InDelta(t, 2, active["delegatorCount"], 0, "the index's count")
	require.Equal(t, "1", active["amountDelegated"], "the index's amount")
	require.Equal(t, map[string]any{"validationRewardAmount": "0", "delegationRewardAmount": "0",
		"rewardAddresses": []any{handlertest.Bech32Of(t, handlertest.PCarol)}}, active["potentialRewards"])
	require.InDelta(t, 0, active["validatorHealth"].(map[string]any)["reachabilityPercent"], 0)

	// A validation the node does not report is served the same way.
	srv.Fakes.Platform.Err = nil
	byTx, _, _ = getValidators(t, srv, handlertest.NodeID2)
	require.NotContains(t, byTx[handlertest.VActiveB.String()], "uptimePerformance")

	// No platform reader at all: the same.
	b := handlertest.WithFixtures(t, handlertest.NewFakes())
	b.Platform = nil
	cfg := handlertest.Config()
	cfg.Clock = func() time.Time { return time.Unix(handlertest.FixtureNow, 0) }
	srv = newTestAPI(t, cfg, b)
	getValidators(t, srv, handlertest.NodeID)
}

func TestGetValidatorStakingError(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	srv.Fakes.Staking.Err = errors.New("disk on fire")
	handlertest.RequireDataError(t, srv.Get(t, validatorsPath+handlertest.NodeID), http.StatusInternalServerError)
}

// getDelegators fetches a delegators page, checks every item against its
// variant and returns them by txHash and in order.
func getDelegators(t *testing.T, srv *handlertest.API, query string) (map[string]map[string]any, []string) {
	t.Helper()
	body := srv.GetBody(t, delegatorsPath+query)
	byTx := map[string]map[string]any{}
	var order []string
	for _, d := range handlertest.Objects(t, body["delegators"]) {
		status := d["delegationStatus"].(string)
		requireKeys(t, d, delegatorRequired[status]...)
		require.Len(t, d, len(delegatorRequired[status]), "all members are required; no others")
		byTx[d["txHash"].(string)] = d
		order = append(order, d["txHash"].(string))
	}
	return byTx, order
}

func TestListDelegators(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	byTx, order := getDelegators(t, srv, "?pageSize=100")
	require.Equal(t, []string{handlertest.DPending.String(), handlertest.DActiveB.String(), handlertest.DActive.String(), handlertest.DAborted.String(), handlertest.DPostCortina.String(),
		handlertest.DPreCortina.String()}, order)

	require.Equal(t, map[string]any{
		"txHash": handlertest.DActive.String(), "nodeId": handlertest.NodeID, "rewardAddresses": []any{handlertest.Bech32Of(t, handlertest.PCarol)},
		"amountDelegated": "25000000000", "delegationFee": "3", "startTimestamp": float64(handlertest.FixtureNow - 50_000),
		"endTimestamp": float64(handlertest.FixtureNow + 500_000), "delegationStatus": "active",
		"estimatedGrossReward": "1000000", "estimatedNetReward": "970000",
	}, byTx[handlertest.DActive.String()])
	pending := byTx[handlertest.DPending.String()]
	require.Equal(t, "pending", pending["delegationStatus"])
	require.Equal(t, "5", pending["delegationFee"])
	require.Equal(t, []string{"0", "0"}, []string{pending["estimatedGrossReward"].(string), pending["estimatedNetReward"].(string)})
	activeB := byTx[handlertest.DActiveB.String()]
	require.Equal(t, "active", activeB["delegationStatus"])
	require.Equal(t, "0", activeB["estimatedGrossReward"], "the node does not report testNodeB")

	for tx, want := range map[string][2]string{
		handlertest.DPreCortina.String():  {"1000", "900"}, // the fee was paid by the delegation's reward tx
		handlertest.DPostCortina.String(): {"1000", "980"}, // accrued by the validator: worked back from 2%
		handlertest.DAborted.String():     {"0", "0"},
	} {
		d := byTx[tx]
		require.Equal(t, "completed", d["delegationStatus"], tx)
		require.Equal(t, "2", d["delegationFee"], tx)
		require.Equal(t, want, [2]string{d["grossReward"].(string), d["netReward"].(string)}, tx)
	}

	// One read per node of the page's active delegations, one node each
	// (the node only lists delegators of a single validator).
	require.ElementsMatch(t, [][]ids.NodeID{{handlertest.Proposer}, {handlertest.NodeB}}, srv.Fakes.Platform.Calls)
}

func TestListDelegatorsFilters(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	_, order := getDelegators(t, srv, "?rewardAddresses="+handlertest.Bech32Of(t, handlertest.PBob))
	require.Equal(t, []string{handlertest.DActiveB.String(), handlertest.DPostCortina.String()}, order)
	_, order = getDelegators(t, srv, "?nodeIds="+handlertest.NodeID2)
	require.Equal(t, []string{handlertest.DActiveB.String()}, order)
	_, order = getDelegators(t, srv, "?delegationStatus=completed&sortOrder=asc")
	require.Equal(t, []string{handlertest.DPreCortina.String(), handlertest.DPostCortina.String(), handlertest.DAborted.String()}, order)
	srv.Fakes.Platform.Calls = nil
	_, order = getDelegators(t, srv, "?delegationStatus=pending&rewardAddresses=P-"+handlertest.Bech32Of(t, handlertest.PCarol))
	require.Equal(t, []string{handlertest.DPending.String()}, order)
	require.Empty(t, srv.Fakes.Platform.Calls, "no active delegation on the page: the node is not read")

	var got []string
	followPages(t, srv, delegatorsPath+"?pageSize=4", func(body map[string]any) {
		handlertest.RequireNoNulls(t, body)
		for _, d := range handlertest.Objects(t, body["delegators"]) {
			got = append(got, d["txHash"].(string))
		}
	})
	_, all := getDelegators(t, srv, "")
	require.Equal(t, all, got[:len(all)])
	require.Len(t, got, 6)
}

func TestListDelegatorsWithoutLiveData(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	srv.Fakes.Platform.Err = errors.New("node busy")
	byTx, _ := getDelegators(t, srv, "?delegationStatus=active")
	require.Equal(t, "0", byTx[handlertest.DActive.String()]["estimatedGrossReward"])
	require.Equal(t, "0", byTx[handlertest.DActive.String()]["estimatedNetReward"])

	srv.Fakes.Staking.Err = errors.New("disk on fire")
	handlertest.RequireDataError(t, srv.Get(t, delegatorsPath), http.StatusInternalServerError)
}
