package primary

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/constants"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs/executor"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listValidators (GET /v1/networks/{network}/validators) on the shared
// network, against platform.getCurrentValidators of the primary network:
// the active validations are exactly the node's current validators, with
// the node's weight, times, fee, potential reward and uptime, and a
// delegation capacity recomputed from its weights; each filter keeps what
// the node's figures say it keeps; every sort orders by its figure; paging
// one by one lists what one page lists; the staking scenario's validator is
// listed completed with the reward the node paid; bad input gets the 400
// body.

// listedValidator is the part of a *ValidatorDetails the tests check.
type listedValidator struct {
	TxHash             string   `json:"txHash"`
	NodeID             string   `json:"nodeId"`
	SubnetID           string   `json:"subnetId"`
	AmountStaked       string   `json:"amountStaked"`
	DelegationFee      string   `json:"delegationFee"`
	StartTimestamp     int64    `json:"startTimestamp"`
	EndTimestamp       int64    `json:"endTimestamp"`
	ValidationStatus   string   `json:"validationStatus"`
	UptimePerformance  *float64 `json:"uptimePerformance"`
	DelegationCapacity string   `json:"delegationCapacity"`
	DelegatorCount     *uint64  `json:"delegatorCount"`
	AmountDelegated    string   `json:"amountDelegated"`
	PotentialRewards   *struct {
		ValidationRewardAmount string `json:"validationRewardAmount"`
	} `json:"potentialRewards"`
	Rewards *struct {
		ValidationRewardAmount string `json:"validationRewardAmount"`
		DelegationRewardAmount string `json:"delegationRewardAmount"`
	} `json:"rewards"`
}

// liveValidator is getCurrentValidators' entry with the uptime the Data
// API's figures come from.
type liveValidator struct {
	nodeValidator
	Uptime *avajson.Float32 `json:"uptime"`
}

func nodeLiveValidators(t *testing.T, ctx context.Context, uri string) []liveValidator {
	t.Helper()
	var reply struct {
		Validators []liveValidator `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators", map[string]any{}, &reply))
	return reply.Validators
}

// pageAll reads every page of list?q, pageSize at a time, and returns the
// items under key.
func pageAll(t *testing.T, ctx context.Context, list string, q url.Values, key string, pageSize int) []json.RawMessage {
	t.Helper()
	q = cloneValues(q)
	q.Set("pageSize", strconv.Itoa(pageSize))
	var items []json.RawMessage
	for range 1000 {
		u := list + "?" + q.Encode()
		r := harness.GetWithRetryAfter(t, ctx, u)
		require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
		requireNoNullsBut(t, r.Body, "geolocation", u)
		var page map[string]json.RawMessage
		r.Decode(t, &page)
		var got []json.RawMessage
		require.NoError(t, json.Unmarshal(page[key], &got), "%s?%s", list, q.Encode())
		items = append(items, got...)
		var token string
		if raw, ok := page["nextPageToken"]; !ok || json.Unmarshal(raw, &token) != nil || token == "" {
			return items
		}
		q.Set("pageToken", token)
	}
	t.Fatalf("%s: no end after 1000 pages", list)
	return nil
}

// requireNoNullsBut checks no member of a JSON document is null but those
// named allowed (ActiveValidatorDetails.geolocation: required, nullable).
func requireNoNullsBut(t *testing.T, body []byte, allowed, what string) {
	t.Helper()
	var doc any
	require.NoError(t, json.Unmarshal(body, &doc), "%s: %s", what, body)
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case nil:
			t.Errorf("%s: %s is null in %s", what, path, body)
		case map[string]any:
			for k, el := range x {
				if k == allowed && el == nil {
					continue
				}
				walk(el, path+"."+k)
			}
		case []any:
			for i, el := range x {
				walk(el, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(doc, "$")
}

func listValidatorsE2E(t *testing.T, ctx context.Context, q url.Values, pageSize int) []listedValidator {
	t.Helper()
	raw := pageAll(t, ctx, networkURL(t, "validators", nil), q, "validators", pageSize)
	out := make([]listedValidator, len(raw))
	seen := map[string]bool{}
	for i, r := range raw {
		require.NoError(t, json.Unmarshal(r, &out[i]))
		require.False(t, seen[out[i].TxHash], "%s listed twice (%v)", out[i].TxHash, q)
		seen[out[i].TxHash] = true
	}
	return out
}

func txHashesOf(vals []listedValidator) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = v.TxHash
	}
	return out
}

// expectedCapacity is what a current validator can still take in
// delegations: min(5 x weight, the local network's max validator stake)
// less its weight and delegations.
func expectedCapacity(v nodeValidator) uint64 {
	limit := min(uint64(v.Weight)*executor.MaxValidatorWeightFactor,
		genesis.GetStakingConfig(constants.LocalID).MaxValidatorStake)
	taken := uint64(v.Weight)
	if v.DelegatorWeight != nil {
		taken += uint64(*v.DelegatorWeight)
	}
	if taken >= limit {
		return 0
	}
	return limit - taken
}

func TestPrimaryValidatorsListed(t *testing.T) {
	s, ctx := stakingFixture(t)
	uri := env.URI(t)
	waitCtx, cancel := context.WithTimeout(ctx, primaryIndexTimeout)
	harness.WaitIndexed(t, waitCtx, env.Base(t), map[string]uint64{"P": truth.Height(t, ctx, uri, "P")})
	cancel()
	primaryID := constants.PrimaryNetworkID.String()
	active := url.Values{"validationStatus": {"active"}, "subnetId": {primaryID}}

	// The node's current validators and avadata's active ones, read until
	// the node's set stands still across avadata's answer.
	var node []liveValidator
	var listed []listedValidator
	for attempt := 0; ; attempt++ {
		node = nodeLiveValidators(t, ctx, uri)
		listed = listValidatorsE2E(t, ctx, active, 100)
		after := nodeLiveValidators(t, ctx, uri)
		if len(after) == len(node) || attempt == 5 {
			break
		}
	}
	byTx := map[string]liveValidator{}
	for _, v := range node {
		byTx[v.TxID.String()] = v
	}
	require.NotEmpty(t, node)
	require.ElementsMatch(t, slices.Collect(mapKeys(byTx)), txHashesOf(listed), "active primary validations = getCurrentValidators")
	for _, l := range listed {
		v := byTx[l.TxHash]
		what := "validator " + l.TxHash
		require.Equal(t, v.NodeID.String(), l.NodeID, what)
		require.Equal(t, primaryID, l.SubnetID, what)
		harness.RequireUintString(t, uint64(v.Weight), l.AmountStaked, what+" amountStaked")
		require.Equal(t, int64(v.StartTime), l.StartTimestamp, what)
		require.Equal(t, int64(v.EndTime), l.EndTimestamp, what)
		fee, err := strconv.ParseFloat(l.DelegationFee, 64)
		require.NoError(t, err, what)
		require.InDelta(t, float64(v.DelegationFee), fee, 1e-4, what+" delegationFee")
		require.NotNil(t, l.PotentialRewards, what)
		if v.PotentialReward != nil {
			harness.RequireUintString(t, uint64(*v.PotentialReward), l.PotentialRewards.ValidationRewardAmount, what+" potential reward")
		}
		harness.RequireUintString(t, expectedCapacity(v.nodeValidator), l.DelegationCapacity, what+" delegationCapacity")
		require.NotNil(t, l.UptimePerformance, what)
		if v.Uptime != nil {
			require.InDelta(t, float64(*v.Uptime), *l.UptimePerformance, 1, what+" uptime (the node's, read moments apart)")
		}
		if v.DelegatorCount != nil {
			require.Equal(t, uint64(*v.DelegatorCount), *l.DelegatorCount, what+" delegatorCount")
		}
	}
	require.Equal(t, txHashesOf(listed), txHashesOf(listValidatorsE2E(t, ctx, active, 1)), "paging one by one")

	checkValidatorFilters(t, ctx, node, active)
	checkValidatorSorts(t, ctx, active)

	// The scenario's validator ended: completed, with what the node paid.
	done := listValidatorsE2E(t, ctx, url.Values{"nodeIds": {s.nodeID.String()}}, 10)
	require.Len(t, done, 1)
	require.Equal(t, s.validator.id.String(), done[0].TxHash)
	require.Equal(t, "completed", done[0].ValidationStatus)
	require.NotNil(t, done[0].Rewards)
	harness.RequireUintString(t, s.validator.potentialReward, done[0].Rewards.ValidationRewardAmount, "completed validation reward")
	completed := listValidatorsE2E(t, ctx, url.Values{"validationStatus": {"completed"}}, 50)
	require.Contains(t, txHashesOf(completed), s.validator.id.String())
	for _, c := range completed {
		require.NotContains(t, byTx, c.TxHash, "a current validator listed completed")
	}

	checkValidatorsBadInput(t, ctx)
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// checkValidatorFilters checks each filter against what the node's figures
// keep.
func checkValidatorFilters(t *testing.T, ctx context.Context, node []liveValidator, base url.Values) {
	t.Helper()
	now := time.Now().Unix()
	type filter struct {
		name  string
		query url.Values
		keep  func(v liveValidator) bool
	}
	var filters []filter
	with := func(kv ...string) url.Values {
		q := cloneValues(base)
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		return q
	}
	// Node IDs: a part of the first one's.
	part := node[0].NodeID.String()[8:14]
	filters = append(filters, filter{"nodeIds substring " + part, with("nodeIds", part),
		func(v liveValidator) bool { return strings.Contains(v.NodeID.String(), part) }})
	// Fees: below, at and above the node's fees.
	for _, bound := range []float64{2, float64(node[0].DelegationFee), 50} {
		b := bound
		filters = append(filters,
			filter{fmt.Sprint("minFeePercentage ", b), with("minFeePercentage", fmt.Sprint(b)),
				func(v liveValidator) bool { return float64(v.DelegationFee) >= b-1e-9 }},
			filter{fmt.Sprint("maxFeePercentage ", b), with("maxFeePercentage", fmt.Sprint(b)),
				func(v liveValidator) bool { return float64(v.DelegationFee) <= b+1e-9 }})
	}
	// Time remaining: an hour either side of the first one's.
	rem := int64(node[0].EndTime) - now
	for _, b := range []int64{max(rem-3600, 0), rem + 3600} {
		filters = append(filters,
			filter{fmt.Sprint("minTimeRemaining ", b), with("minTimeRemaining", fmt.Sprint(b)),
				func(v liveValidator) bool { return int64(v.EndTime)-now >= b }},
			filter{fmt.Sprint("maxTimeRemaining ", b), with("maxTimeRemaining", fmt.Sprint(b)),
				func(v liveValidator) bool { return int64(v.EndTime)-now <= b }})
	}
	// Delegation capacity: at each distinct capacity.
	for _, v := range node[:min(len(node), 2)] {
		c := expectedCapacity(v.nodeValidator)
		filters = append(filters,
			filter{fmt.Sprint("minDelegationCapacity ", c), with("minDelegationCapacity", fmt.Sprint(c)),
				func(v liveValidator) bool { return expectedCapacity(v.nodeValidator) >= c }},
			filter{fmt.Sprint("maxDelegationCapacity ", c), with("maxDelegationCapacity", fmt.Sprint(c)),
				func(v liveValidator) bool { return expectedCapacity(v.nodeValidator) <= c }})
	}
	// Uptime: between distinct uptimes (moments apart they move a little).
	var uptimes []float64
	for _, v := range node {
		if v.Uptime != nil {
			uptimes = append(uptimes, float64(*v.Uptime))
		}
	}
	sort.Float64s(uptimes)
	for _, b := range uptimeBounds(uptimes) {
		filters = append(filters,
			filter{fmt.Sprint("minUptimePerformance ", b), with("minUptimePerformance", fmt.Sprint(b)),
				func(v liveValidator) bool { return v.Uptime != nil && float64(*v.Uptime) >= b }},
			filter{fmt.Sprint("maxUptimePerformance ", b), with("maxUptimePerformance", fmt.Sprint(b)),
				func(v liveValidator) bool { return v.Uptime != nil && float64(*v.Uptime) <= b }})
	}
	for _, f := range filters {
		var want []string
		for _, v := range node {
			if f.keep(v) {
				want = append(want, v.TxID.String())
			}
		}
		got := listValidatorsE2E(t, ctx, f.query, 100)
		require.ElementsMatch(t, want, txHashesOf(got), "filter %s", f.name)
		t.Logf("filter %-40s keeps %d of %d", f.name, len(got), len(node))
	}
}

// uptimeBounds are filter bounds at least 2 points from every uptime: 0,
// 100 when clear, and midpoints of gaps of 4 or more.
func uptimeBounds(uptimes []float64) []float64 {
	clear := func(b float64) bool {
		for _, u := range uptimes {
			if u > b-2 && u < b+2 {
				return false
			}
		}
		return true
	}
	var out []float64
	for _, b := range []float64{0, 100} {
		if clear(b) {
			out = append(out, b)
		}
	}
	for i := 1; i < len(uptimes); i++ {
		if mid := (uptimes[i-1] + uptimes[i]) / 2; uptimes[i]-uptimes[i-1] >= 4 && clear(mid) {
			out = append(out, mid)
		}
	}
	return out
}

// checkValidatorSorts checks each sortBy orders by its figure, each way,
// paging two at a time.
func checkValidatorSorts(t *testing.T, ctx context.Context, base url.Values) {
	t.Helper()
	figure := map[string]func(v listedValidator) float64{
		"timeRemaining": func(v listedValidator) float64 { return float64(v.EndTimestamp) },
		"delegationFee": func(v listedValidator) float64 { f, _ := strconv.ParseFloat(v.DelegationFee, 64); return f },
		"delegationCapacity": func(v listedValidator) float64 {
			f, _ := new(big.Float).SetString(v.DelegationCapacity)
			out, _ := f.Float64()
			return out
		},
		"uptimePerformance": func(v listedValidator) float64 { return *v.UptimePerformance },
	}
	all := listValidatorsE2E(t, ctx, base, 100)
	for sortBy, fig := range figure {
		for _, order := range []string{"asc", "desc"} {
			q := cloneValues(base)
			q.Set("sortBy", sortBy)
			q.Set("sortOrder", order)
			got := listValidatorsE2E(t, ctx, q, 2)
			require.ElementsMatch(t, txHashesOf(all), txHashesOf(got), "sortBy %s %s lists the same validations", sortBy, order)
			for i := 1; i < len(got); i++ {
				if sortBy == "uptimePerformance" {
					continue // the node's uptimes move between pages; the unit tests check the order
				}
				a, b := fig(got[i-1]), fig(got[i])
				if order == "asc" {
					require.LessOrEqual(t, a, b, "sortBy %s asc at %d", sortBy, i)
				} else {
					require.GreaterOrEqual(t, a, b, "sortBy %s desc at %d", sortBy, i)
				}
			}
		}
	}
	q := cloneValues(base)
	q.Set("sortOrder", "asc")
	asc := listValidatorsE2E(t, ctx, q, 3)
	desc := listValidatorsE2E(t, ctx, base, 3)
	slices.Reverse(desc)
	require.Equal(t, txHashesOf(desc), txHashesOf(asc), "blockIndex asc is desc reversed")
}

func checkValidatorsBadInput(t *testing.T, ctx context.Context) {
	t.Helper()
	cases := []struct{ name, query, mentions string }{
		{"sortBy", "sortBy=stake", "sortBy"},
		{"validationStatus", "validationStatus=finished", "validationStatus"},
		{"subnetId", "subnetId=not-an-id", "subnetId"},
		{"nodeIds", "nodeIds=NodeID-%24%24", "nodeIds"},
		{"minFeePercentage below 2", "minFeePercentage=1", "minFeePercentage"},
		{"maxFeePercentage above 100", "maxFeePercentage=101", "maxFeePercentage"},
		{"minUptimePerformance", "minUptimePerformance=-1", "minUptimePerformance"},
		{"maxUptimePerformance", "maxUptimePerformance=high", "maxUptimePerformance"},
		{"minDelegationCapacity", "minDelegationCapacity=1.5", "minDelegationCapacity"},
		{"maxDelegationCapacity", "maxDelegationCapacity=720000000000000001", "maxDelegationCapacity"},
		{"minTimeRemaining", "minTimeRemaining=2147483648", "minTimeRemaining"},
		{"min above max", "minTimeRemaining=10&maxTimeRemaining=5", "minTimeRemaining"},
		{"pageSize", "pageSize=101", "pageSize"},
		{"sortOrder", "sortOrder=sideways", "sortOrder"},
		{"pageToken", "pageToken=garbage", "pageToken"},
	}
	for _, c := range cases {
		r := harness.GetWithRetryAfter(t, ctx, networkURL(t, "validators", nil)+"?"+c.query)
		harness.RequireErrorBody(t, r, http.StatusBadRequest, c.mentions)
	}
	r := harness.GetWithRetryAfter(t, ctx, env.Base(t)+"/v1/networks/mainnet/validators")
	harness.RequireErrorBody(t, r, http.StatusBadRequest, "network")
}
