package handlers

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

const (
	validatorsPath = "/v1/networks/local/validators/"
	delegatorsPath = "/v1/networks/local/delegators"
)

// Required members of each variant (OpenAPI, sdk-conformance §4.11, §4.12).
var (
	validatorCommon   = []string{"txHash", "nodeId", "subnetId", "amountStaked", "startTimestamp", "endTimestamp", "validationStatus"}
	validatorRequired = map[string][]string{
		"active": append([]string{"stakePercentage", "delegatorCount", "uptimePerformance", "potentialRewards",
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
func getValidators(t *testing.T, srv *testAPI, query string) (map[string]map[string]any, []string, map[string]any) {
	t.Helper()
	var body map[string]any
	requireJSON(t, srv.get(t, validatorsPath+query), http.StatusOK, &body)
	byTx := map[string]map[string]any{}
	var order []string
	for _, v := range objects(t, body["validators"]) {
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
	requireNoNulls(t, body)
	return byTx, order, body
}

func TestGetValidator(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	byTx, order, body := getValidators(t, srv, testNodeID+"?pageSize=100")
	require.NotContains(t, body, "nextPageToken")
	require.Equal(t, []string{vPending.String(), vRemoved.String(), vActive.String(), vSubnetEnded.String(), vCompleted.String()},
		order, "newest start first; subnet validations included")
	node := localInfo()

	active := byTx[vActive.String()]
	require.Equal(t, map[string]any{
		"txHash": vActive.String(), "nodeId": testNodeID, "subnetId": node.ChainID(netinfo.P).String(),
		"amountStaked": "2000000000000", "delegationFee": "3",
		"startTimestamp": float64(testNow - 100_000), "endTimestamp": float64(testNow + 1_000_000),
		"blsCredentials":   map[string]any{"publicKey": "0xaa", "proofOfPossession": "0xbb"},
		"validationStatus": "active",
		"stakePercentage":  float64(20), "delegatorCount": float64(1), "amountDelegated": "25000000000",
		"uptimePerformance": 99.9,
		"potentialRewards": map[string]any{"validationRewardAmount": "5000000",
			"delegationRewardAmount": "31000", // accrued 1000 + 3% of the delegation's 1000000
			"rewardAddresses":        []any{bech32Of(t, pCarol)}},
		"validatorHealth": map[string]any{"reachabilityPercent": float64(100), "benchedPChainRequestsPercent": float64(0),
			"benchedXChainRequestsPercent": float64(0), "benchedCChainRequestsPercent": float64(0)},
	}, active)

	completed := byTx[vCompleted.String()]
	require.Equal(t, "completed", completed["validationStatus"])
	require.Equal(t, "2", completed["delegationFee"])
	require.InDelta(t, 3, completed["delegatorCount"], 0)
	require.Equal(t, "80", completed["amountDelegated"])
	require.Equal(t, map[string]any{"validationRewardAmount": "7000",
		"delegationRewardAmount": "130", // its own reward tx's 30 and its delegators' reward txs' 100
		"rewardAddresses":        []any{bech32Of(t, pAlice)}, "rewardTxHash": fixtureTxID(netinfo.P, 5).String()},
		completed["rewards"])
	require.Equal(t, map[string]any{"publicKey": "0xb105", "proofOfPossession": "0x9009"}, completed["blsCredentials"])

	removed := byTx[vRemoved.String()]
	require.Equal(t, map[string]any{
		"txHash": vRemoved.String(), "nodeId": testNodeID, "subnetId": testPermSubnet.String(), "amountStaked": "20",
		"startTimestamp": float64(testNow - 50_000), "endTimestamp": float64(testNow + 50_000),
		"validationStatus": "removed", "removeTxHash": vRemoveTx.String(), "removeTimestamp": float64(testNow - 1_000),
	}, removed, "a permissioned subnet validator: no delegation fee")

	require.Equal(t, map[string]any{
		"txHash": vPending.String(), "nodeId": testNodeID, "subnetId": node.ChainID(netinfo.P).String(),
		"amountStaked": "2000000000000", "delegationFee": "5", "startTimestamp": float64(testNow + 10_000),
		"endTimestamp": float64(testNow + 2_000_000), "validationStatus": "pending",
	}, byTx[vPending.String()])

	ended := byTx[vSubnetEnded.String()]
	require.Equal(t, "completed", ended["validationStatus"], "a subnet validation ends without a reward tx")
	require.Equal(t, map[string]any{"validationRewardAmount": "0", "delegationRewardAmount": "0"}, ended["rewards"])

	// One read of the node's validator, one of the whole set (the total).
	require.Equal(t, [][]ids.NodeID{{testProposer}, nil}, srv.backend.platform.calls)
	getValidators(t, srv, testNodeID)
	require.Equal(t, 3, srv.backend.platform.callCount(), "the total stake is reused")
	srv.clock.Advance(totalStakeTTL)
	getValidators(t, srv, testNodeID)
	require.Equal(t, 5, srv.backend.platform.callCount(), "until it is a minute old")
}

func TestGetValidatorFilters(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	for status, want := range map[string][]string{
		"removed":   {vRemoved.String()},
		"completed": {vSubnetEnded.String(), vCompleted.String()},
		"pending":   {vPending.String()},
		"ACTIVE":    {vActive.String()},
	} {
		_, order, _ := getValidators(t, srv, testNodeID+"?validationStatus="+status)
		require.Equal(t, want, order, status)
	}
	_, order, _ := getValidators(t, srv, testNodeID+"?validationStatus=completed&sortOrder=asc")
	require.Equal(t, []string{vCompleted.String(), vSubnetEnded.String()}, order)

	srv.backend.platform.calls = nil
	_, order, _ = getValidators(t, srv, ids.BuildTestNodeID([]byte{42}).String())
	require.Empty(t, order, "a node the index never saw validate")
	_, order, _ = getValidators(t, srv, testNodeID+"?validationStatus=completed")
	require.Len(t, order, 2)
	require.Empty(t, srv.backend.platform.calls, "only a page with an active validation reads the node")

	var got []string
	followPages(t, srv, validatorsPath+testNodeID+"?pageSize=2", func(body map[string]any) {
		for _, v := range objects(t, body["validators"]) {
			got = append(got, v["txHash"].(string))
		}
	})
	_, all, _ := getValidators(t, srv, testNodeID)
	require.Equal(t, all, got)
}

func TestGetValidatorWithoutLiveData(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	srv.backend.platform.err = errors.New("node busy")
	byTx, _, _ := getValidators(t, srv, testNodeID+"?validationStatus=active")
	active := byTx[vActive.String()]
	require.InDelta(t, 0, active["stakePercentage"], 0)
	require.InDelta(t, 0, active["uptimePerformance"], 0)
	require.InDelta(t, 2, active["delegatorCount"], 0, "the index's count")
	require.Equal(t, "1", active["amountDelegated"], "the index's amount")
	require.Equal(t, map[string]any{"validationRewardAmount": "0", "delegationRewardAmount": "0",
		"rewardAddresses": []any{bech32Of(t, pCarol)}}, active["potentialRewards"])
	require.InDelta(t, 0, active["validatorHealth"].(map[string]any)["reachabilityPercent"], 0)

	// A validation the node does not report is served the same way.
	srv.backend.platform.err = nil
	byTx, _, _ = getValidators(t, srv, testNodeID2)
	require.InDelta(t, 0, byTx[vActiveB.String()]["uptimePerformance"], 0)

	// No platform reader at all: the same.
	b := withFixtures(t, newFakeBackend())
	backend := b.readers()
	backend.Platform = nil
	h, err := newHandler(testConfig(), backend, nil, nil, nil, func() time.Time { return time.Unix(testNow, 0) })
	require.NoError(t, err)
	srv = &testAPI{handler: h, backend: b}
	getValidators(t, srv, testNodeID)
}

func TestGetValidatorStakingError(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	srv.backend.staking.err = errors.New("disk on fire")
	requireDataError(t, srv.get(t, validatorsPath+testNodeID), http.StatusInternalServerError)
}

// getDelegators fetches a delegators page, checks every item against its
// variant and returns them by txHash and in order.
func getDelegators(t *testing.T, srv *testAPI, query string) (map[string]map[string]any, []string) {
	t.Helper()
	body := getBody(t, srv, delegatorsPath+query)
	byTx := map[string]map[string]any{}
	var order []string
	for _, d := range objects(t, body["delegators"]) {
		status := d["delegationStatus"].(string)
		requireKeys(t, d, delegatorRequired[status]...)
		require.Len(t, d, len(delegatorRequired[status]), "all members are required; no others")
		byTx[d["txHash"].(string)] = d
		order = append(order, d["txHash"].(string))
	}
	return byTx, order
}

func TestListDelegators(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	byTx, order := getDelegators(t, srv, "?pageSize=100")
	require.Equal(t, []string{dPending.String(), dActiveB.String(), dActive.String(), dAborted.String(), dPostCortina.String(),
		dPreCortina.String()}, order)

	require.Equal(t, map[string]any{
		"txHash": dActive.String(), "nodeId": testNodeID, "rewardAddresses": []any{bech32Of(t, pCarol)},
		"amountDelegated": "25000000000", "delegationFee": "3", "startTimestamp": float64(testNow - 50_000),
		"endTimestamp": float64(testNow + 500_000), "delegationStatus": "active",
		"estimatedGrossReward": "1000000", "estimatedNetReward": "970000",
	}, byTx[dActive.String()])
	pending := byTx[dPending.String()]
	require.Equal(t, "pending", pending["delegationStatus"])
	require.Equal(t, "5", pending["delegationFee"])
	require.Equal(t, []string{"0", "0"}, []string{pending["estimatedGrossReward"].(string), pending["estimatedNetReward"].(string)})
	activeB := byTx[dActiveB.String()]
	require.Equal(t, "active", activeB["delegationStatus"])
	require.Equal(t, "0", activeB["estimatedGrossReward"], "the node does not report testNodeB")

	for tx, want := range map[string][2]string{
		dPreCortina.String():  {"1000", "900"}, // the fee was paid by the delegation's reward tx
		dPostCortina.String(): {"1000", "980"}, // accrued by the validator: worked back from 2%
		dAborted.String():     {"0", "0"},
	} {
		d := byTx[tx]
		require.Equal(t, "completed", d["delegationStatus"], tx)
		require.Equal(t, "2", d["delegationFee"], tx)
		require.Equal(t, want, [2]string{d["grossReward"].(string), d["netReward"].(string)}, tx)
	}

	// One read per node of the page's active delegations, one node each
	// (the node only lists delegators of a single validator).
	require.ElementsMatch(t, [][]ids.NodeID{{testProposer}, {testNodeB}}, srv.backend.platform.calls)
}

func TestListDelegatorsFilters(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	_, order := getDelegators(t, srv, "?rewardAddresses="+bech32Of(t, pBob))
	require.Equal(t, []string{dActiveB.String(), dPostCortina.String()}, order)
	_, order = getDelegators(t, srv, "?nodeIds="+testNodeID2)
	require.Equal(t, []string{dActiveB.String()}, order)
	_, order = getDelegators(t, srv, "?delegationStatus=completed&sortOrder=asc")
	require.Equal(t, []string{dPreCortina.String(), dPostCortina.String(), dAborted.String()}, order)
	srv.backend.platform.calls = nil
	_, order = getDelegators(t, srv, "?delegationStatus=pending&rewardAddresses=P-"+bech32Of(t, pCarol))
	require.Equal(t, []string{dPending.String()}, order)
	require.Empty(t, srv.backend.platform.calls, "no active delegation on the page: the node is not read")

	var got []string
	followPages(t, srv, delegatorsPath+"?pageSize=4", func(body map[string]any) {
		requireNoNulls(t, body)
		for _, d := range objects(t, body["delegators"]) {
			got = append(got, d["txHash"].(string))
		}
	})
	_, all := getDelegators(t, srv, "")
	require.Equal(t, all, got[:len(all)])
	require.Len(t, got, 6)
}

func TestListDelegatorsWithoutLiveData(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	srv.backend.platform.err = errors.New("node busy")
	byTx, _ := getDelegators(t, srv, "?delegationStatus=active")
	require.Equal(t, "0", byTx[dActive.String()]["estimatedGrossReward"])
	require.Equal(t, "0", byTx[dActive.String()]["estimatedNetReward"])

	srv.backend.staking.err = errors.New("disk on fire")
	requireDataError(t, srv.get(t, delegatorsPath), http.StatusInternalServerError)
}
