package primary

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

const listValidatorsPath = "/v1/networks/local/validators"

// listValidators pages through a listValidators query to its end and
// returns the tx hashes in order, checking each item's variant.
func listValidators(t *testing.T, srv *handlertest.API, query string) []string {
	t.Helper()
	var order []string
	seen := map[string]bool{}
	next := ""
	for range 100 {
		path := listValidatorsPath + "?" + query
		if next != "" {
			path += "&pageToken=" + url.QueryEscape(next)
		}
		var body map[string]any
		handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &body)
		for _, v := range handlertest.Objects(t, body["validators"]) {
			status := v["validationStatus"].(string)
			requireKeys(t, v, validatorRequired[status]...)
			tx := v["txHash"].(string)
			require.False(t, seen[tx], "%s listed twice", tx)
			seen[tx] = true
			order = append(order, tx)
		}
		token, _ := body["nextPageToken"].(string)
		if token == "" {
			return order
		}
		next = token
	}
	t.Fatal("no end after 100 pages")
	return nil
}

func validatorTxs(ids ...ids.ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

func TestListValidatorsFilters(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	all := listValidators(t, srv, "pageSize=100")
	require.ElementsMatch(t, validatorTxs(handlertest.VCompleted, handlertest.VActive, handlertest.VRemoved,
		handlertest.VPending, handlertest.VActiveB, handlertest.VSubnetEnded), all, "every validation, no delegation")
	require.Equal(t, handlertest.VCompleted.String(), all[len(all)-1], "blockIndex desc: the oldest staking tx last")
	require.Equal(t, all, listValidators(t, srv, "pageSize=1"), "paging one by one gives the same listing")
	asc := listValidators(t, srv, "pageSize=2&sortOrder=asc")
	require.Equal(t, handlertest.VCompleted.String(), asc[0])
	require.ElementsMatch(t, all, asc)

	cases := []struct {
		query string
		want  []ids.ID
	}{
		{"validationStatus=active", []ids.ID{handlertest.VActive, handlertest.VActiveB}},
		{"validationStatus=removed", []ids.ID{handlertest.VRemoved}},
		{"subnetId=" + handlertest.PermSubnet.String(), []ids.ID{handlertest.VRemoved, handlertest.VSubnetEnded}},
		{"nodeIds=" + handlertest.NodeB.String()[10:20], []ids.ID{handlertest.VActiveB}},
		{"nodeIds=zzzz," + handlertest.NodeB.String(), []ids.ID{handlertest.VActiveB}},
		{"minFeePercentage=2.5", []ids.ID{handlertest.VActive, handlertest.VPending}},
		{"maxFeePercentage=2", []ids.ID{handlertest.VCompleted, handlertest.VActiveB}},
		{"minTimeRemaining=1&maxTimeRemaining=100", []ids.ID{handlertest.VActiveB}},
		// Only the node's live state knows uptime and capacity: VActiveB is
		// active but unknown to the node's current validators.
		{"minUptimePerformance=99", []ids.ID{handlertest.VActive}},
		{"maxUptimePerformance=99", nil},
		{"minDelegationCapacity=7975000000000", []ids.ID{handlertest.VActive}},
		{"minDelegationCapacity=7975000000001", nil},
		{"maxDelegationCapacity=0", nil},
	}
	for _, c := range cases {
		require.ElementsMatch(t, validatorTxs(c.want...), listValidators(t, srv, c.query), c.query)
	}
}

func TestListValidatorsSortBy(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	byEnd := listValidators(t, srv, "sortBy=timeRemaining&sortOrder=asc&pageSize=2")
	require.Equal(t, handlertest.VPending.String(), byEnd[len(byEnd)-1], "the latest end last")
	require.Equal(t, handlertest.VActiveB.String(), byEnd[len(byEnd)-4], "then by end: ActiveB, Removed, Active, Pending")
	require.Equal(t, handlertest.VPending.String(), listValidators(t, srv, "sortBy=timeRemaining")[0])

	byFee := listValidators(t, srv, "sortBy=delegationFee&pageSize=1")
	require.Equal(t, validatorTxs(handlertest.VPending, handlertest.VActive), byFee[:2], "5% then 3%")
	require.ElementsMatch(t, validatorTxs(handlertest.VRemoved, handlertest.VSubnetEnded), byFee[4:],
		"validations without a fee last")

	for _, order := range []string{"asc", "desc"} {
		byUptime := listValidators(t, srv, "sortBy=uptimePerformance&pageSize=3&sortOrder="+order)
		require.Len(t, byUptime, 6)
		require.Equal(t, handlertest.VActive.String(), byUptime[0], "the one known uptime first in %s order", order)
		byCapacity := listValidators(t, srv, "sortBy=delegationCapacity&sortOrder="+order)
		require.Equal(t, handlertest.VActive.String(), byCapacity[0])
	}
}

func TestListValidatorsLiveState(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, handlertest.Config(), fakes)
	var body map[string]any
	handlertest.RequireJSON(t, srv.Get(t, listValidatorsPath+"?validationStatus=active&nodeIds="+handlertest.Proposer.String()),
		http.StatusOK, &body)
	vals := handlertest.Objects(t, body["validators"])
	require.Len(t, vals, 1)
	v := vals[0]
	require.Equal(t, 99.9, v["uptimePerformance"])
	require.Equal(t, "7975000000000", v["delegationCapacity"])
	require.Equal(t, float64(1), v["delegatorCount"], "the node's current delegations")
	require.Contains(t, v, "geolocation")
	require.Nil(t, v["geolocation"], "no source: null, as the SDK allows")

	// A node that cannot answer degrades the page, and the filters that need
	// its state say so.
	fakes.Platform.Err = errors.New("node down")
	handlertest.RequireJSON(t, srv.Get(t, listValidatorsPath+"?validationStatus=active"), http.StatusOK, &body)
	require.Len(t, handlertest.Objects(t, body["validators"]), 2)
	handlertest.RequireDataError(t, srv.Get(t, listValidatorsPath+"?minUptimePerformance=90"), http.StatusServiceUnavailable,
		"current validators")
}

func TestListValidatorsBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("sortBy", listValidatorsPath+"?sortBy=stake", "invalid sortBy", "blockIndex"),
		handlertest.Invalid("validationStatus", listValidatorsPath+"?validationStatus=done", "invalid validationStatus"),
		handlertest.Invalid("subnetId", listValidatorsPath+"?subnetId=xyz", "invalid subnetId"),
		handlertest.Invalid("nodeIds chars", listValidatorsPath+"?nodeIds=Node!D", "invalid nodeIds"),
		handlertest.Invalid("fee below 2", listValidatorsPath+"?minFeePercentage=1", "invalid minFeePercentage", "between 2 and 100"),
		handlertest.Invalid("fee not a number", listValidatorsPath+"?maxFeePercentage=lots", "invalid maxFeePercentage"),
		handlertest.Invalid("uptime above 100", listValidatorsPath+"?maxUptimePerformance=101", "invalid maxUptimePerformance"),
		handlertest.Invalid("uptime NaN", listValidatorsPath+"?minUptimePerformance=NaN", "invalid minUptimePerformance"),
		handlertest.Invalid("capacity negative", listValidatorsPath+"?minDelegationCapacity=-1", "invalid minDelegationCapacity"),
		handlertest.Invalid("capacity fraction", listValidatorsPath+"?maxDelegationCapacity=1.5", "invalid maxDelegationCapacity"),
		handlertest.Invalid("capacity too large", listValidatorsPath+"?maxDelegationCapacity=720000000000000001", "invalid maxDelegationCapacity"),
		handlertest.Invalid("time remaining", listValidatorsPath+"?minTimeRemaining=-5", "invalid minTimeRemaining"),
		handlertest.Invalid("min above max", listValidatorsPath+"?minTimeRemaining=50&maxTimeRemaining=5", "minTimeRemaining", "above"),
		handlertest.Invalid("pageSize", listValidatorsPath+"?pageSize=0", "invalid pageSize"),
		handlertest.Invalid("sortOrder", listValidatorsPath+"?sortOrder=up", "sortOrder"),
		handlertest.Invalid("token of other filters", listValidatorsPath+"?pageToken="+
			url.QueryEscape(firstToken(t, srv, listValidatorsPath+"?pageSize=1"))+"&sortBy=timeRemaining", "pageToken"),
	})
}

// firstToken is the nextPageToken of path's first page.
func firstToken(t *testing.T, srv *handlertest.API, path string) string {
	t.Helper()
	token, _ := srv.GetBody(t, path)["nextPageToken"].(string)
	require.NotEmpty(t, token)
	return token
}
