package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestMetricsSDKConformance runs the official client, @avalanche-sdk/chainkit
// (pinned in tests/sdk/package.json), unmodified against the shared
// network's Metrics API, as TestEVMSDKConformance does for the Data API:
// the only thing a user changes is the per-call serverURL,
// {base_url}/metrics (the SDK's metrics calls ignore a client-level one);
// retries are off and telemetry off (tests/sdk/conformance.mjs). It makes
// every metrics.* call of issue 20: the health checks, the chains list and
// each chain, every ChainMetric at every granularity of both local EVM
// chains and of total and testnet (one point per page, every page), every
// rolling window metric, the staking series of the primary network (by
// network testnet, which names a local node's own network), the L1
// validator fee series (total, per node, per subnet, per validation) and
// validators:getAddresses, and unknown chains that must get their typed
// error (BadRequestError: an unknown EVM chain is a 400 on every route, as
// on the Data API's). Each call must parse (no ResponseValidationError, no key lost);
// each chain metric and rolling window value must equal the recomputation
// from the node (truth.ChainMetrics) as a float64 (the SDK's numbers), and
// each staking and L1 fee series the raw HTTP reply.
//
// Operations whose calls are written before avadata serves them go in
// metricsPendingOperations; it needs node and npm (make test-e2e-metrics
// TEST=SDK).
func TestMetricsSDKConformance(t *testing.T) {
	acts := evmActivity(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	chains := recompute(t, ctx, env.Base(t), acts)
	f := &sdkMetricsFixture{mbase: env.Metrics(t), chains: chains, node: primaryValidator(t, ctx, env.URI(t))}
	for _, a := range acts {
		if a.chain.SubnetID.String() != primaryNetworkID {
			f.subnet = a.chain.SubnetID.String()
		}
	}
	harness.RunSDKConformance(t, ctx, harness.SDKConformance{
		Base: env.Base(t), ServerURL: env.Metrics(t), Domain: "metrics", InDomain: isMetricsFunction,
		Issue: "issue 20", IssueOperations: issue20Operations(), Pending: metricsPendingOperations(),
		MaxPages: 3, Checks: f.checks(t),
	})
}

// primaryNetworkID is the primary network's subnet ID.
const primaryNetworkID = "11111111111111111111111111111111LpoYY"

// metricsPendingOperations are the issue-20 operations whose SDK calls are
// written before avadata serves them: skipped, and the test fails once one
// is served and still listed. Every operation of issue 20 is served: the
// list is empty.
func metricsPendingOperations() []string { return nil }

// issue20Operations are the Metrics API operations of issue 20 that the
// SDK has, by operationId.
func issue20Operations() []string {
	return []string{
		"metrics-health-check", "metrics-live-check", "listChains", "getChain", "getEvmChainMetrics",
		"getEvmChainRollingWindowMetrics", "getStakingMetrics", "getValidatorsByDateRange", "getMetricsByNodeId",
		"getMetricsBySubnetId", "getMetricsByValidationId", "getTotalL1ValidatorMetrics",
	}
}

// isMetricsFunction reports whether an SDK function is a Metrics API call.
func isMetricsFunction(fn harness.SDKFunction) bool { return strings.HasPrefix(fn.Func, "metrics") }

// primaryValidator is a validator of the primary network (the local
// network's genesis one): a node the index knows as a staker, without L1
// validations.
func primaryValidator(t *testing.T, ctx context.Context, uri string) string {
	t.Helper()
	var reply struct {
		Validators []struct {
			NodeID string `json:"nodeID"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators", struct{}{}, &reply))
	require.NotEmpty(t, reply.Validators, "the primary network has no validator")
	return reply.Validators[0].NodeID
}

type sdkMetricsFixture struct {
	mbase  string
	chains []*chainTruth
	node   string // a primary network validator's node ID
	subnet string // the subnet-evm chain's subnet
}

// sdkPage is a MetricsApiResponse as the SDK parsed it.
type sdkPage struct {
	NextPageToken *string `json:"nextPageToken"`
	Results       []struct {
		Value     float64 `json:"value"`
		Timestamp int64   `json:"timestamp"`
	} `json:"results"`
}

func decodeSDKPages(t *testing.T, pages []json.RawMessage) []sdkPage {
	t.Helper()
	out := make([]sdkPage, len(pages))
	for i, p := range pages {
		require.NoError(t, json.Unmarshal(p, &out[i]), "page %d: %s", i, p)
	}
	return out
}

func (f *sdkMetricsFixture) checks(t *testing.T) []harness.SDKCheck {
	t.Helper()
	var out []harness.SDKCheck
	add := func(c ...harness.SDKCheck) { out = append(out, c...) }
	add(
		harness.SDKSucceeds("health check", "metricsHealthCheck", harness.SDKReq{}),
		harness.SDKSucceeds("live check", "metricsLiveCheck", harness.SDKReq{}),
		harness.SDKSucceeds("chains", "metricsChainsList", harness.SDKReq{}).Some().AllPages(10),
		harness.SDKSucceeds("chains of testnet", "metricsChainsList", harness.SDKReq{"network": "testnet"}).Some().AllPages(10),
		harness.SDKFails("getChain of an unknown chain", "metricsChainsGet", harness.SDKReq{"chainId": "999999"}, "BadRequestError", 400),
		harness.SDKFails("getMetrics of an unknown chain", "metricsChainsGetMetrics",
			harness.SDKReq{"chainId": "999999", "metric": "txCount"}, "BadRequestError", 400),
		harness.SDKFails("getMetrics of mainnet on a local network", "metricsChainsGetMetrics",
			harness.SDKReq{"chainId": "mainnet", "metric": "txCount"}, "BadRequestError", 400),
	)
	for _, c := range f.chains {
		add(harness.SDKSucceeds("getChain "+c.name, "metricsChainsGet", harness.SDKReq{"chainId": c.id}))
	}
	for _, tg := range targets(f.chains) {
		for _, metric := range truth.ChainMetricNames() {
			for _, g := range truth.MetricsGranularities() {
				if tg.id == "testnet" && metric != "txCount" && metric != "avgTps" {
					continue // the same figures as total; two metrics show the name works
				}
				want, err := truth.Series(metric, g, tg.chains, nil, nil)
				require.NoError(t, err)
				name := fmt.Sprintf("%s %s by %s", tg.id, metric, g)
				req := harness.SDKReq{"chainId": tg.id, "metric": metric, "timeInterval": string(g), "pageSize": 1}
				add(harness.SDKSucceeds(name, "metricsChainsGetMetrics", req).Some().AllPages(len(want) + 1).
					EveryPage(seriesCheck(name, want)))
			}
		}
		// A time range, and the default interval (day).
		last := tg.chains[0].LastTs()
		want, err := truth.Series("txCount", truth.MetricsHour, tg.chains, &last, &last)
		require.NoError(t, err)
		add(harness.SDKSucceeds(tg.id+" txCount in its last second", "metricsChainsGetMetrics",
			harness.SDKReq{"chainId": tg.id, "metric": "txCount", "timeInterval": "hour", "startTimestamp": last, "endTimestamp": last}).
			Some().AllPages(3).EveryPage(seriesCheck(tg.id+" last second", want)))
		want, err = truth.Series("feesPaid", truth.MetricsDay, tg.chains, nil, nil)
		require.NoError(t, err)
		add(harness.SDKSucceeds(tg.id+" feesPaid, default interval", "metricsChainsGetMetrics",
			harness.SDKReq{"chainId": tg.id, "metric": "feesPaid"}).Some().AllPages(3).EveryPage(seriesCheck(tg.id+" feesPaid", want)))
		for _, metric := range truth.RollingMetricNames() {
			want, err := truth.Rolling(metric, tg.chains)
			require.NoError(t, err)
			name := fmt.Sprintf("%s rolling %s", tg.id, metric)
			add(harness.SDKSucceeds(name, "metricsChainsGetRollingWindowMetrics", harness.SDKReq{"chainId": tg.id, "metric": metric}).
				Checked(rollingCheck(name, want)))
		}
	}

	// The staking and L1 validator fee series: what the SDK parsed is the
	// raw reply.
	for _, metric := range []string{"validatorCount", "validatorWeight", "delegatorCount", "delegatorWeight"} {
		add(harness.SDKSucceeds("staking "+metric, "metricsNetworksGetStakingMetrics", harness.SDKReq{"network": "testnet", "metric": metric}).
			Some().AllPages(50).EveryPage(f.rawCheck("/v2/networks/testnet/metrics/"+metric, url.Values{"pageSize": {"100"}})))
		add(harness.SDKSucceeds("staking "+metric+" of the primary network by subnetId", "metricsNetworksGetStakingMetrics",
			harness.SDKReq{"network": "testnet", "metric": metric, "subnetId": primaryNetworkID}).
			Some().AllPages(50).EveryPage(f.rawCheck("/v2/networks/testnet/metrics/"+metric, url.Values{"pageSize": {"100"}, "subnetId": {primaryNetworkID}})))
	}
	for _, metric := range []string{"totalCumulativeFeesDaily", "totalValidatorFeesDaily", "totalPayingValidatorsDaily"} {
		add(harness.SDKSucceeds("L1 fees "+metric, "metricsL1ValidatorsListMetrics", harness.SDKReq{"metric": metric}).
			EveryPage(f.rawCheck("/v2/validators/metrics/"+metric, nil)))
	}
	for _, metric := range []string{"perNodeCumulativeFeesPaid", "perNodeDailyFeesPaid"} {
		add(f.l1Call("L1 fees of a primary network validator "+metric, "metricsL1ValidatorsGetMetricsByNodeId",
			harness.SDKReq{"nodeId": f.node, "metric": metric}, "/v2/validator/"+url.PathEscape(f.node)+"/metrics/"+metric))
	}
	if f.subnet != "" {
		for _, metric := range []string{"perSubnetDailyFeesPaid", "perSubnetCumulativeFeesPaid", "perSubnetPayingValidators"} {
			add(f.l1Call("L1 fees of the subnet-evm subnet "+metric, "metricsL1ValidatorsGetMetricsBySubnetId",
				harness.SDKReq{"subnetId": f.subnet, "metric": metric}, "/v2/subnet/"+f.subnet+"/metrics/"+metric))
		}
	}
	for _, metric := range []string{"validationCumulativeFeesDaily", "validationFeesDaily"} {
		add(harness.SDKFails("L1 fees of an unknown validation "+metric, "metricsL1ValidatorsGetMetricsByValidationId",
			harness.SDKReq{"l1ValidationId": "2Z36RnQuk1hvsnFeGWzfZUfXNr7w1SjzmDQ78YxfTVNAkDq3nZ", "metric": metric}, "NotFoundError", 404))
	}
	add(harness.SDKFails("L1 fees of a node the index does not know", "metricsL1ValidatorsGetMetricsByNodeId",
		harness.SDKReq{"nodeId": "NodeID-111111111111111111116DBWJs", "metric": "perNodeDailyFeesPaid"}, "NotFoundError", 404))
	add(harness.SDKSucceeds("validators:getAddresses of the primary network", "metricsSubnetsGetValidators",
		harness.SDKReq{"subnetId": primaryNetworkID, "network": "testnet"}).Some().AllPages(10))
	return out
}

// l1Call is an L1 validator fee call on a node or subnet with no L1
// validation fees: a series the raw reply equals.
func (f *sdkMetricsFixture) l1Call(name, fn string, req harness.SDKReq, path string) harness.SDKCheck {
	return harness.SDKSucceeds(name, fn, req).EveryPage(f.rawCheck(path, nil))
}

// seriesCheck checks the pages of a chain metric call against the truth.
func seriesCheck(what string, want []truth.MetricsPoint) func(t *testing.T, pages []json.RawMessage) {
	return func(t *testing.T, raw []json.RawMessage) {
		t.Helper()
		var got []string
		var ts []int64
		var vals []float64
		for _, p := range decodeSDKPages(t, raw) {
			for _, r := range p.Results {
				ts, vals = append(ts, r.Timestamp), append(vals, r.Value)
				got = append(got, fmt.Sprintf("{%v %d}", r.Value, r.Timestamp))
			}
		}
		require.Len(t, ts, len(want), "%s: want %s, the SDK got %v", what, describeWant(want), got)
		for i, w := range want {
			require.Equal(t, w.Timestamp, ts[i], "%s: point %d: want %s, the SDK got %v", what, i, describeWant(want), got)
			require.True(t, w.Value.MatchesNumber(vals[i]), "%s: point %d: want %s, the SDK got %v", what, i, describeWant(want), got)
		}
	}
}

// rollingCheck checks a rolling window call's parsed result.
func rollingCheck(what string, want map[string]truth.MetricsValue) func(t *testing.T, result json.RawMessage) {
	return func(t *testing.T, raw json.RawMessage) {
		t.Helper()
		var body struct {
			Result map[string]float64 `json:"result"`
		}
		require.NoError(t, json.Unmarshal(raw, &body), "%s: %s", what, raw)
		for _, w := range truth.RollingWindows() {
			got, ok := body.Result[w.Key]
			if _, served := want[w.Key]; !served {
				require.False(t, ok, "%s: %s is not a window of this metric: %s", what, w.Key, raw)
				continue
			}
			require.True(t, ok, "%s: no %s: %s", what, w.Key, raw)
			require.True(t, want[w.Key].MatchesNumber(got), "%s: %s is %v, want %s", what, w.Key, got, want[w.Key])
		}
	}
}

// rawCheck checks the SDK's pages of a series hold what a plain GET of the
// same series (path below the Metrics API, with query) does, as float64s.
func (f *sdkMetricsFixture) rawCheck(path string, query url.Values) func(t *testing.T, pages []json.RawMessage) {
	return func(t *testing.T, raw []json.RawMessage) {
		t.Helper()
		u := f.mbase + path
		if len(query) > 0 {
			u += "?" + query.Encode()
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		want, _ := getSeries(t, ctx, u)
		var got []string
		for _, p := range decodeSDKPages(t, raw) {
			for _, r := range p.Results {
				got = append(got, fmt.Sprintf("%v@%d", r.Value, r.Timestamp))
			}
		}
		var exp []string
		for _, p := range want {
			v, err := strconv.ParseFloat(p.Value.String(), 64)
			require.NoError(t, err)
			exp = append(exp, fmt.Sprintf("%v@%d", v, p.Timestamp))
		}
		require.Equal(t, exp, got, "GET %s and the SDK's pages differ", u)
	}
}
