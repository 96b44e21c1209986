package primary

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
)

const pendingRewardsPath = "/v1/networks/local/rewards:listPending"

var pendingRewardRequired = []string{"addresses", "txHash", "amountStaked", "nodeId", "startTimestamp", "endTimestamp",
	"rewardType", "progress", "estimatedReward"}

// pendingRewards reads every page of a listPending query, by tx hash and in order.
func pendingRewards(t *testing.T, srv *handlertest.API, query string) (map[string]map[string]any, []string) {
	t.Helper()
	byTx := map[string]map[string]any{}
	var order []string
	path := pendingRewardsPath + "?" + query
	for range 50 {
		body := srv.GetBody(t, path)
		for _, r := range handlertest.Objects(t, body["pendingRewards"]) {
			requireKeys(t, r, pendingRewardRequired...)
			tx := r["txHash"].(string)
			require.NotContains(t, byTx, tx, "listed twice")
			byTx[tx] = r
			order = append(order, tx)
		}
		token, _ := body["nextPageToken"].(string)
		if token == "" {
			return byTx, order
		}
		path = handlertest.WithToken(pendingRewardsPath+"?"+query, body)
	}
	t.Fatal("no end")
	return nil, nil
}

func TestListPendingRewards(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	byTx, order := pendingRewards(t, srv, "nodeIds="+handlertest.Proposer.String())
	require.ElementsMatch(t, validatorTxs(handlertest.VActive, handlertest.DActive), order,
		"the node's active primary-network stakers: not the pending, completed or subnet ones")
	require.Equal(t, validatorTxs(handlertest.DActive, handlertest.VActive), order, "newest start first")

	v := byTx[handlertest.VActive.String()]
	require.Equal(t, "VALIDATOR", v["rewardType"])
	require.Equal(t, "5000000", v["estimatedReward"].(map[string]any)["amount"], "the node's potential reward")
	require.Equal(t, fakenet.AVAXAssetID.String(), v["estimatedReward"].(map[string]any)["assetId"])
	require.Equal(t, []any{handlertest.Bech32Of(t, handlertest.PCarol)}, v["addresses"])
	require.InDelta(t, 100_000.0/1_100_000*100, v["progress"], 1e-9)
	d := byTx[handlertest.DActive.String()]
	require.Equal(t, "DELEGATOR", d["rewardType"])
	require.Equal(t, "970000", d["estimatedReward"].(map[string]any)["amount"], "1000000 less the validator's 3%")

	_, byAddr := pendingRewards(t, srv, "addresses="+handlertest.Bech32Of(t, handlertest.PBob)+"&pageSize=1&sortOrder=asc")
	require.Equal(t, validatorTxs(handlertest.VActiveB, handlertest.DActiveB), byAddr)
	bob, _ := pendingRewards(t, srv, "nodeIds="+handlertest.NodeB.String())
	require.Equal(t, "0", bob[handlertest.VActiveB.String()]["estimatedReward"].(map[string]any)["amount"],
		"neither the node nor the index knows its reward")
}

func TestListPendingRewardsBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	addr := handlertest.Bech32Of(t, handlertest.PBob)
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("neither", pendingRewardsPath, "addresses or nodeIds is required"),
		handlertest.Invalid("both", pendingRewardsPath+"?addresses="+addr+"&nodeIds="+handlertest.NodeB.String(), "not both"),
		handlertest.Invalid("bad address", pendingRewardsPath+"?addresses=P-avax1xyz", "invalid addresses"),
		handlertest.Invalid("bad node", pendingRewardsPath+"?nodeIds=NodeID-xyz", "invalid nodeIds"),
		handlertest.Invalid("sortOrder", pendingRewardsPath+"?nodeIds="+handlertest.NodeB.String()+"&sortOrder=x", "sortOrder"),
		handlertest.Invalid("pageSize", pendingRewardsPath+"?nodeIds="+handlertest.NodeB.String()+"&pageSize=101", "pageSize"),
	})
	require.Equal(t, http.StatusOK, srv.Get(t, pendingRewardsPath+"?addresses="+addr).Code)
}
