package handlers

import (
	"errors"
	"math/rand"
	"net/http"
	"net/url"
	"testing"

	"github.com/avadata/avadata/handlers/api"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const (
	stakingTxsPath = "/v1/networks/local/blockchains/p-chain/transactions:listStaking"
	rewardsPath    = "/v1/networks/local/rewards"
)

func newStakingAPI(t *testing.T) *testAPI {
	t.Helper()
	b := withFixtures(t, newFakeBackend())
	addStakingTxs(b)
	return newTestAPI(t, testConfig(), b, nil)
}

// followPages fetches path and every page after it, and returns the pages.
func followPages(t *testing.T, srv *testAPI, path string, check func(body map[string]any)) []map[string]any {
	t.Helper()
	var pages []map[string]any
	next := ""
	for range 20 {
		p := path
		if next != "" {
			p += "&pageToken=" + url.QueryEscape(next)
		}
		var body map[string]any
		requireJSON(t, srv.get(t, p), http.StatusOK, &body)
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
	for _, tx := range objects(t, body["transactions"]) {
		out = append(out, tx["txHash"].(string))
	}
	return out
}

func TestListStakingTxs(t *testing.T) {
	srv := newStakingAPI(t)
	carol := "P-" + bech32Of(t, pCarol)

	body := getBody(t, srv, stakingTxsPath+"?addresses="+carol)
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	require.Equal(t, []string{dActive.String(), vActive.String()}, txHashes(t, body),
		"the active ones only: not the completed delegation, the pending one nor the BaseTx")
	for _, tx := range objects(t, body["transactions"]) {
		requireKeys(t, tx, pTxRequired...)
		require.NotContains(t, tx, "rewardTxHash", "active: not ended")
	}
	validator := txsByHash(t, body)[vActive.String()]
	require.Equal(t, "AddPermissionlessValidatorTx", validator["txType"])
	require.Equal(t, "3", validator["delegationFeePercent"])
	require.Equal(t, []any{bech32Of(t, pCarol)}, validator["rewardAddresses"])

	asc := getBody(t, srv, stakingTxsPath+"?sortOrder=asc&addresses="+carol)
	require.Equal(t, []string{vActive.String(), dActive.String()}, txHashes(t, asc))

	types := getBody(t, srv, stakingTxsPath+"?addresses="+carol+"&txTypes=AddPermissionlessValidatorTx,BaseTx")
	require.Equal(t, []string{vActive.String()}, txHashes(t, types))
	require.Equal(t, []string{"AddPermissionlessValidatorTx"}, srv.backend.primary.txQueries[len(srv.backend.primary.txQueries)-1].Types,
		"the index is asked for the staking types among txTypes only")

	timed := getBody(t, srv, stakingTxsPath+"?addresses="+carol+"&endTimestamp="+itoa(blockTime(41)))
	require.Equal(t, []string{vActive.String()}, txHashes(t, timed))

	// Without addresses: every active staking tx of the chain (the P-chain
	// fixtures' validator ended long ago).
	all := getBody(t, srv, stakingTxsPath)
	require.Equal(t, []string{dActive.String(), vActive.String()}, txHashes(t, all))
}

func itoa(n int64) string { return api.FormatUint(uint64(n)) }

func TestListStakingTxsNoStakingTypes(t *testing.T) {
	srv := newStakingAPI(t)
	body := getBody(t, srv, stakingTxsPath+"?txTypes=BaseTx,ImportTx")
	require.Empty(t, body["transactions"])
	require.Empty(t, srv.backend.primary.txQueries, "no staking type asked for: nothing to read")
	require.Empty(t, srv.backend.staking.stakerQueries)
}

func TestListStakingTxsPaging(t *testing.T) {
	srv := newStakingAPI(t)
	var got []string
	pages := followPages(t, srv, stakingTxsPath+"?pageSize=1&addresses=P-"+bech32Of(t, pCarol), func(body map[string]any) {
		requireNoNulls(t, body)
		got = append(got, txHashes(t, body)...)
	})
	require.Equal(t, []string{dActive.String(), vActive.String()}, got)
	require.LessOrEqual(t, len(pages), 3, "the last page may be empty: the scan cannot tell the rest is inactive")
}

func TestListStakingTxsStakingError(t *testing.T) {
	srv := newStakingAPI(t)
	srv.backend.staking.err = errors.New("disk on fire")
	requireDataError(t, srv.get(t, "/ext/bc/data"+stakingTxsPath), http.StatusInternalServerError)
}

func TestListPChainTxsRewardTxHash(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, pTxsPath+"?pageSize=100")
	for hash, tx := range txsByHash(t, body) {
		if hash == vCompleted.String() {
			require.Equal(t, fixtureTxID(netinfo.P, 5).String(), tx["rewardTxHash"], "the staker ended with this reward tx")
		} else {
			require.NotContains(t, tx, "rewardTxHash", hash)
		}
	}
	var lookups []pdata.StakerQuery
	for _, q := range srv.backend.staking.stakerQueries {
		lookups = append(lookups, q)
		require.Equal(t, len(q.TxIDs), q.Limit)
	}
	require.Len(t, lookups, 1, "one lookup per page (the page has validators only)")
	require.Equal(t, []string{vCompleted.String()}, idStrings(lookups[0].TxIDs))

	// The X-chain has no stakers: no lookup.
	getBody(t, srv, xTxsPath)
	require.Len(t, srv.backend.staking.stakerQueries, 1)
}

func TestListRewards(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, rewardsPath+"?nodeIds="+testNodeID)
	require.NotContains(t, body, "nextPageToken")
	rewards := objects(t, body["historicalRewards"])
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
	// Newest reward tx first: the validator's (blockTime 5), then the
	// post-Cortina delegation's, then the pre-Cortina one's (blockTime 4).
	require.ElementsMatch(t, []string{"VALIDATOR", "VALIDATOR_FEE"}, types[:2])
	require.Equal(t, "DELEGATOR", types[2])
	require.ElementsMatch(t, []string{"DELEGATOR", "VALIDATOR_FEE"}, types[3:])

	validator := rewards[0]
	if validator["rewardType"] != "VALIDATOR" {
		validator = rewards[1]
	}
	require.Equal(t, map[string]any{
		"addresses":      []any{bech32Of(t, pAlice)},
		"txHash":         vCompleted.String(),
		"amountStaked":   "500000000",
		"nodeId":         testNodeID,
		"startTimestamp": float64(blockTime(2)),
		"endTimestamp":   float64(blockTime(5)),
		"rewardType":     "VALIDATOR",
		"utxoId":         vCompleted.Prefix(2).String(),
		"outputIndex":    float64(2),
		"reward": map[string]any{"assetId": testAVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
			"denomination": float64(9), "type": "secp256k1", "amount": "7000"},
		"rewardTxHash": fixtureTxID(netinfo.P, 5).String(),
	}, validator)

	carol := getBody(t, srv, rewardsPath+"?addresses="+bech32Of(t, pCarol))
	require.Len(t, objects(t, carol["historicalRewards"]), 1)
	require.Equal(t, "900", objects(t, carol["historicalRewards"])[0]["reward"].(map[string]any)["amount"])

	either := getBody(t, srv, rewardsPath+"?addresses="+bech32Of(t, pBob)+"&nodeIds="+testNodeID2)
	require.Len(t, objects(t, either["historicalRewards"]), 1, "pBob's; testNodeB earned none")
}

func TestListRewardsPaging(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	for _, order := range []string{"asc", "desc"} {
		full := getBody(t, srv, rewardsPath+"?nodeIds="+testNodeID+"&sortOrder="+order)
		var want, got []string
		for _, r := range objects(t, full["historicalRewards"]) {
			want = append(want, r["utxoId"].(string))
		}
		pages := followPages(t, srv, rewardsPath+"?pageSize=2&nodeIds="+testNodeID+"&sortOrder="+order, func(body map[string]any) {
			requireNoNulls(t, body)
			for _, r := range objects(t, body["historicalRewards"]) {
				got = append(got, r["utxoId"].(string))
			}
		})
		require.Len(t, pages, 3)
		require.Equal(t, want, got, order)
	}
	// A token resumes only its own query.
	body := getBody(t, srv, rewardsPath+"?pageSize=2&nodeIds="+testNodeID)
	rec := srv.get(t, rewardsPath+"?pageSize=2&nodeIds="+testNodeID2+"&pageToken="+url.QueryEscape(body["nextPageToken"].(string)))
	requireDataError(t, rec, http.StatusBadRequest, "invalid pageToken")
}

func TestListRewardsErrors(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	srv.backend.staking.err = errors.New("disk on fire")
	requireDataError(t, srv.get(t, rewardsPath+"?nodeIds="+testNodeID), http.StatusInternalServerError)

	b := withFixtures(t, newFakeBackend())
	backend := b.readers()
	backend.Staking = nil
	s := newTestPrimaryServer(backend)
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
