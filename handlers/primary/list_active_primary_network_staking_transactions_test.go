package primary

import (
	"errors"
	"math/rand"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const (
	stakingTxsPath = "/v1/networks/local/blockchains/p-chain/transactions:listStaking"
	rewardsPath    = "/v1/networks/local/rewards"
)

func newStakingAPI(t *testing.T) *handlertest.API {
	t.Helper()
	b := handlertest.WithFixtures(t, handlertest.NewFakes())
	handlertest.AddStakingTxs(b)
	return newTestAPI(t, handlertest.Config(), b)
}

// followPages fetches path and every page after it, and returns the pages.
func followPages(t *testing.T, srv *handlertest.API, path string, check func(body map[string]any)) []map[string]any {
	t.Helper()
	var pages []map[string]any
	next := ""
	for range 20 {
		p := path
		if next != "" {
			p += "&pageToken=" + url.QueryEscape(next)
		}
		var body map[string]any
		handlertest.RequireJSON(t, srv.Get(t, p), http.StatusOK, &body)
		check(body)
		pages = append(pages, body)
		token, ok := body["nextPageToken"].(string)
		if !ok {
			return pages
		}
		next = token
	}
	t.Fatalf("%s: more than 20 pages", path)
	return nil
}

func txHashes(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, tx := range handlertest.Objects(t, body["transactions"]) {
		out = append(out, tx["txHash"].(string))
	}
	return out
}

func TestListStakingTxs(t *testing.T) {
	srv := newStakingAPI(t)
	carol := "P-" + handlertest.Bech32Of(t, handlertest.PCarol)

	body := srv.GetBody(t, stakingTxsPath+"?addresses="+carol)
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	require.Equal(t, []string{handlertest.DActive.String(), handlertest.VActive.String()}, txHashes(t, body),
		"the active ones only: not the completed delegation, the pending one nor the BaseTx")
	for _, tx := range handlertest.Objects(t, body["transactions"]) {
		requireKeys(t, tx, pTxRequired...)
		require.NotContains(t, tx, "rewardTxHash", "active: not ended")
	}
	validator := txsByHash(t, body)[handlertest.VActive.String()]
	require.Equal(t, "AddPermissionlessValidatorTx", validator["txType"])
	require.Equal(t, "3", validator["delegationFeePercent"])
	require.Equal(t, []any{handlertest.Bech32Of(t, handlertest.PCarol)}, validator["rewardAddresses"])

	asc := srv.GetBody(t, stakingTxsPath+"?sortOrder=asc&addresses="+carol)
	require.Equal(t, []string{handlertest.VActive.String(), handlertest.DActive.String()}, txHashes(t, asc))

	types := srv.GetBody(t, stakingTxsPath+"?addresses="+carol+"&txTypes=AddPermissionlessValidatorTx,BaseTx")
	require.Equal(t, []string{handlertest.VActive.String()}, txHashes(t, types))
	require.Equal(t, []string{"AddPermissionlessValidatorTx"}, srv.Fakes.Primary.TxQueries[len(srv.Fakes.Primary.TxQueries)-1].Types,
		"the index is asked for the staking types among txTypes only")

	timed := srv.GetBody(t, stakingTxsPath+"?addresses="+carol+"&endTimestamp="+itoa(handlertest.BlockTime(41)))
	require.Equal(t, []string{handlertest.VActive.String()}, txHashes(t, timed))

	// Without addresses: every active staking tx of the chain (the P-chain
	// fixtures' validator ended long ago).
	all := srv.GetBody(t, stakingTxsPath)
	require.Equal(t, []string{handlertest.DActive.String(), handlertest.VActive.String()}, txHashes(t, all))
}

func itoa(n int64) string { return api.FormatUint(uint64(n)) }

func TestListStakingTxsNoStakingTypes(t *testing.T) {
	srv := newStakingAPI(t)
	body := srv.GetBody(t, stakingTxsPath+"?txTypes=BaseTx,ImportTx")
	require.Empty(t, body["transactions"])
	require.Empty(t, srv.Fakes.Primary.TxQueries, "no staking type asked for: nothing to read")
	require.Empty(t, srv.Fakes.Staking.StakerQueries)
}

func TestListStakingTxsPaging(t *testing.T) {
	srv := newStakingAPI(t)
	var got []string
	pages := followPages(t, srv, stakingTxsPath+"?pageSize=1&addresses=P-"+handlertest.Bech32Of(t, handlertest.PCarol), func(body map[string]any) {
		handlertest.RequireNoNulls(t, body)
		got = append(got, txHashes(t, body)...)
	})
	require.Equal(t, []string{handlertest.DActive.String(), handlertest.VActive.String()}, got)
	require.LessOrEqual(t, len(pages), 3, "the last page may be empty: the scan cannot tell the rest is inactive")
}

func TestListStakingTxsStakingError(t *testing.T) {
	srv := newStakingAPI(t)
	srv.Fakes.Staking.Err = errors.New("disk on fire")
	handlertest.RequireDataError(t, srv.Get(t, "/ext/bc/data"+stakingTxsPath), http.StatusInternalServerError)
}

func TestListPChainTxsRewardTxHash(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, pTxsPath+"?pageSize=100")
	for hash, tx := range txsByHash(t, body) {
		if hash == handlertest.VCompleted.String() {
			require.Equal(t, handlertest.FixtureTxID(netinfo.P, 5).String(), tx["rewardTxHash"], "the staker ended with this reward tx")
		} else {
			require.NotContains(t, tx, "rewardTxHash", hash)
		}
	}
	var lookups []pdata.StakerQuery
	for _, q := range srv.Fakes.Staking.StakerQueries {
		lookups = append(lookups, q)
		require.Equal(t, len(q.TxIDs), q.Limit)
	}
	require.Len(t, lookups, 1, "one lookup per page (the page has validators only)")
	require.Equal(t, []string{handlertest.VCompleted.String()}, idStrings(lookups[0].TxIDs))

	// The X-chain has no stakers: no lookup.
	srv.GetBody(t, xTxsPath)
	require.Len(t, srv.Fakes.Staking.StakerQueries, 1)
}

func TestListRewards(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, rewardsPath+"?nodeIds="+handlertest.NodeID)
	require.NotContains(t, body, "nextPageToken")
	rewards := handlertest.Objects(t, body["historicalRewards"])
	require.Len(t, rewards, 5)
	required := []string{"addresses", "txHash", "amountStaked", "nodeId", "startTimestamp", "endTimestamp", "rewardType",
		"utxoId", "outputIndex", "reward", "rewardTxHash"}
	var types []string
	for _, r := range rewards {
		requireKeys(t, r, required...)
		require.Len(t, r, len(required))
		requireKeys(t, r["reward"].(map[string]any), assetRequired...)
		require.NotContains(t, r["reward"], "historicalPrice", "no price source")
		types = append(types, r["rewardType"].(string))
	}
	// Newest reward tx first: the validator's (BlockTime 5), then the
	// post-Cortina delegation's, then the pre-Cortina one's (BlockTime 4).
	require.ElementsMatch(t, []string{"VALIDATOR", "VALIDATOR_FEE"}, types[:2])
	require.Equal(t, "DELEGATOR", types[2])
	require.ElementsMatch(t, []string{"DELEGATOR", "VALIDATOR_FEE"}, types[3:])

	validator := rewards[0]
	if validator["rewardType"] != "VALIDATOR" {
		validator = rewards[1]
	}
	require.Equal(t, map[string]any{
		"addresses":      []any{handlertest.Bech32Of(t, handlertest.PAlice)},
		"txHash":         handlertest.VCompleted.String(),
		"amountStaked":   "500000000",
		"nodeId":         handlertest.NodeID,
		"startTimestamp": float64(handlertest.BlockTime(2)),
		"endTimestamp":   float64(handlertest.BlockTime(5)),
		"rewardType":     "VALIDATOR",
		"utxoId":         handlertest.VCompleted.Prefix(2).String(),
		"outputIndex":    float64(2),
		"reward": map[string]any{"assetId": fakenet.AVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
			"denomination": float64(9), "type": "secp256k1", "amount": "7000"},
		"rewardTxHash": handlertest.FixtureTxID(netinfo.P, 5).String(),
	}, validator)

	carol := srv.GetBody(t, rewardsPath+"?addresses="+handlertest.Bech32Of(t, handlertest.PCarol))
	require.Len(t, handlertest.Objects(t, carol["historicalRewards"]), 1)
	require.Equal(t, "900", handlertest.Objects(t, carol["historicalRewards"])[0]["reward"].(map[string]any)["amount"])

	either := srv.GetBody(t, rewardsPath+"?addresses="+handlertest.Bech32Of(t, handlertest.PBob)+"&nodeIds="+handlertest.NodeID2)
	require.Len(t, handlertest.Objects(t, either["historicalRewards"]), 1, "pBob's; testNodeB earned none")
}

func TestListRewardsPaging(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	for _, order := range []string{"asc", "desc"} {
		full := srv.GetBody(t, rewardsPath+"?nodeIds="+handlertest.NodeID+"&sortOrder="+order)
		var want, got []string
		for _, r := range handlertest.Objects(t, full["historicalRewards"]) {
			want = append(want, r["utxoId"].(string))
		}
		pages := followPages(t, srv, rewardsPath+"?pageSize=2&nodeIds="+handlertest.NodeID+"&sortOrder="+order, func(body map[string]any) {
			handlertest.RequireNoNulls(t, body)
			for _, r := range handlertest.Objects(t, body["historicalRewards"]) {
				got = append(got, r["utxoId"].(string))
			}
		})
		require.Len(t, pages, 3)
		require.Equal(t, want, got, order)
	}
	// A token resumes only its own query.
	body := srv.GetBody(t, rewardsPath+"?pageSize=2&nodeIds="+handlertest.NodeID)
	rec := srv.Get(t, rewardsPath+"?pageSize=2&nodeIds="+handlertest.NodeID2+"&pageToken="+url.QueryEscape(body["nextPageToken"].(string)))
	handlertest.RequireDataError(t, rec, http.StatusBadRequest, "invalid pageToken")
}

func TestListRewardsErrors(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	srv.Fakes.Staking.Err = errors.New("disk on fire")
	handlertest.RequireDataError(t, srv.Get(t, rewardsPath+"?nodeIds="+handlertest.NodeID), http.StatusInternalServerError)

	b := handlertest.WithFixtures(t, handlertest.NewFakes())
	b.Staking = nil
	s := newTestServer(handlertest.NewCore(b), b)
	_, err := s.stakingReader()
	var apiErr *api.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusServiceUnavailable, apiErr.Status)
}

func TestGrossOfNet(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 10_000 {
		gross := rng.Uint64() >> rng.Intn(64)
		shares := uint32(rng.Intn(1_000_001))
		fee, net := delegationFeeOf(gross, shares)
		require.Equal(t, gross, fee+net)
		if shares == 1_000_000 {
			continue
		}
		found := grossOfNet(net, shares)
		require.LessOrEqual(t, found, gross, "the smallest gross leaving net")
		_, again := delegationFeeOf(found, shares)
		require.Equal(t, net, again, "gross %d shares %d", gross, shares)
	}
	require.Equal(t, uint64(1000), grossOfNet(980, 20_000))
	require.Equal(t, uint64(5), grossOfNet(5, 1_000_000), "a 100% fee leaves nothing to invert")
}

func idStrings[T interface{ String() string }](list []T) []string {
	out := make([]string, len(list))
	for i, id := range list {
		out[i] = id.String()
	}
	return out
}
