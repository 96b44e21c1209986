package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// requireMetricsError checks a Metrics API error reply: the status (one of
// statuses), application/json, and the metrics error body: message an
// array of non-empty strings, error the status text, statusCode the
// status.
func requireMetricsError(t *testing.T, r harness.Reply, what string, statuses ...int) {
	t.Helper()
	require.Contains(t, statuses, r.Status, "%s: status; body %s", what, r.Body)
	require.Contains(t, r.Header.Get("Content-Type"), "application/json", "%s: content type", what)
	var body struct {
		Message    json.RawMessage `json:"message"`
		Error      string          `json:"error"`
		StatusCode int             `json:"statusCode"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body), "%s: body %s", what, r.Body)
	var messages []string
	require.NoError(t, json.Unmarshal(body.Message, &messages), "%s: message must be an array of strings: %s", what, r.Body)
	require.NotEmpty(t, messages, "%s: %s", what, r.Body)
	for _, m := range messages {
		require.NotEmpty(t, m, "%s: %s", what, r.Body)
	}
	require.Equal(t, r.Status, body.StatusCode, "%s: %s", what, r.Body)
	require.Equal(t, http.StatusText(r.Status), body.Error, "%s: %s", what, r.Body)
}

// TestMetricsBadInput sends every kind of bad input to the Metrics API's
// routes and checks each gets its 4xx (400, or 404 for what does not
// exist) in the metrics error body, never a 200, 500 or a hang: unknown
// metrics, inverted, negative, non-integer and beyond-year-9999
// timestamps, unknown time intervals, page sizes out of 1..2160, forged
// page tokens, unknown and malformed chains, mainnet on a local network,
// a timeInterval on the staking series, and paging or a timeInterval on
// the L1 validator fee series (served whole).
func TestMetricsBadInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	m := env.Metrics(t)
	cChain := "43112" // the local C-chain's EVM chain id
	series := func(chain, metric, query string) string {
		u := m + "/v2/chains/" + chain + "/metrics/" + metric
		if query != "" {
			u += "?" + query
		}
		return u
	}
	bad := []struct {
		name, url string
		status    []int
		mentions  string
	}{
		{"unknown metric", series(cChain, "txCounts", ""), []int{400}, "txCount"},
		{"unknown metric on total", series("total", "blocks", ""), []int{400}, "activeAddresses"},
		{"unknown rolling metric", m + "/v2/chains/" + cChain + "/rollingWindowMetrics/bogus", []int{400}, "txCount"},
		{"cumulative metric has no rolling window", m + "/v2/chains/" + cChain + "/rollingWindowMetrics/cumulativeTxCount", []int{400}, ""},
		{"inverted timestamps", series(cChain, "txCount", "startTimestamp=1700003600&endTimestamp=1700000000"), []int{400}, ""},
		{"negative startTimestamp", series(cChain, "txCount", "startTimestamp=-1"), []int{400}, "startTimestamp"},
		{"negative endTimestamp", series(cChain, "gasUsed", "endTimestamp=-5"), []int{400}, "endTimestamp"},
		{"startTimestamp beyond year 9999", series(cChain, "txCount", "startTimestamp=253402300800"), []int{400}, "startTimestamp"},
		{"endTimestamp in milliseconds", series(cChain, "txCount", "endTimestamp=1700000000000000"), []int{400}, "endTimestamp"},
		{"non-integer timestamp", series(cChain, "txCount", "startTimestamp=1.5"), []int{400}, "startTimestamp"},
		{"timestamp not a number", series(cChain, "txCount", "endTimestamp=yesterday"), []int{400}, "endTimestamp"},
		{"timestamp overflowing int64", series(cChain, "txCount", "startTimestamp=99999999999999999999"), []int{400}, "startTimestamp"},
		{"unknown timeInterval", series(cChain, "txCount", "timeInterval=minute"), []int{400}, "timeInterval"},
		{"timeInterval of another enum", series(cChain, "txCount", "timeInterval=daily"), []int{400}, "timeInterval"},
		{"timeInterval upper case", series(cChain, "avgTps", "timeInterval=DAY"), []int{400}, "timeInterval"},
		{"pageSize 0", series(cChain, "txCount", "pageSize=0"), []int{400}, "pageSize"},
		{"pageSize 2161", series(cChain, "txCount", "pageSize=2161"), []int{400}, "pageSize"},
		{"pageSize negative", series(cChain, "txCount", "pageSize=-1"), []int{400}, "pageSize"},
		{"pageSize not a number", series(cChain, "txCount", "pageSize=ten"), []int{400}, "pageSize"},
		{"forged pageToken", series(cChain, "txCount", "pageToken=bm90LWEtdG9rZW4"), []int{400}, "pageToken"},
		{"pageToken not base64", series(cChain, "txCount", "pageToken=%25%25%25"), []int{400}, "pageToken"},
		{"unknown chain", series("999999", "txCount", ""), []int{404, 400}, "999999"},
		{"unknown chain, rolling", m + "/v2/chains/999999/rollingWindowMetrics/txCount", []int{404, 400}, "999999"},
		{"malformed chain", series("not-a-chain", "txCount", ""), []int{404, 400}, ""},
		{"mainnet on a local network", series("mainnet", "txCount", ""), []int{400}, ""},
		{"mainnet rolling on a local network", m + "/v2/chains/mainnet/rollingWindowMetrics/txCount", []int{400}, ""},
		{"unknown chain of getChain", m + "/v2/chains/999999", []int{404, 400}, "999999"},
		{"timeInterval on getStakingMetrics", m + "/v2/networks/testnet/metrics/validatorCount?timeInterval=day", []int{400}, "timeInterval"},
		{"unknown staking metric", m + "/v2/networks/testnet/metrics/validatorCounts", []int{400}, "validatorCount"},
		{"staking inverted timestamps", m + "/v2/networks/testnet/metrics/validatorCount?startTimestamp=10&endTimestamp=5", []int{400}, ""},
		{"staking pageSize 2161", m + "/v2/networks/testnet/metrics/delegatorCount?pageSize=2161", []int{400}, "pageSize"},
		{"pageToken on total L1 fees", m + "/v2/validators/metrics/totalValidatorFeesDaily?pageToken=abc", []int{400}, "pageToken"},
		{"pageSize on total L1 fees", m + "/v2/validators/metrics/totalPayingValidatorsDaily?pageSize=10", []int{400}, "pageSize"},
		{"timeInterval on total L1 fees", m + "/v2/validators/metrics/totalCumulativeFeesDaily?timeInterval=day", []int{400}, "timeInterval"},
		{"pageToken on subnet L1 fees", m + "/v2/subnet/11111111111111111111111111111111LpoYY/metrics/perSubnetDailyFeesPaid?pageToken=abc", []int{400}, "pageToken"},
		{"pageToken on node L1 fees", m + "/v2/validator/NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg/metrics/perNodeDailyFeesPaid?pageToken=abc", []int{400}, "pageToken"},
		{"pageToken on validation L1 fees", m + "/v2/validation/2Z36RnQuk1hvsnFeGWzfZUfXNr7w1SjzmDQ78YxfTVNAkDq3nZ/metrics/validationFeesDaily?pageToken=abc", []int{400}, "pageToken"},
		{"unknown total L1 fee metric", m + "/v2/validators/metrics/totalFees", []int{400}, "totalValidatorFeesDaily"},
	}
	served := harness.ServedOperations(t, ctx, env.Base(t))
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if op := operationOf(c.url); !served[op] {
				t.Skipf("avadata does not serve %s yet (metricsPendingOperations)", op)
			}
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			requireMetricsError(t, r, "GET "+c.url, c.status...)
			if c.mentions != "" {
				require.Contains(t, string(r.Body), c.mentions, "GET %s: the message should say what is wrong", c.url)
			}
		})
	}

	// A real page token fails on another route: it is signed for the
	// series it came from.
	q := url.Values{"pageSize": {"1"}, "timeInterval": {"hour"}}
	first := harness.GetWithRetryAfter(t, ctx, series(cChain, "txCount", q.Encode()))
	require.Equal(t, http.StatusOK, first.Status, "%s", first.Body)
	var page struct {
		NextPageToken string `json:"nextPageToken"`
	}
	first.Decode(t, &page)
	if page.NextPageToken != "" && served["getStakingMetrics"] {
		q.Set("pageToken", page.NextPageToken)
		u := m + "/v2/networks/testnet/metrics/validatorCount?" + url.Values{"pageToken": {page.NextPageToken}}.Encode()
		requireMetricsError(t, harness.GetWithRetryAfter(t, ctx, u), fmt.Sprintf("GET %s (a chain metric's token)", u), 400)
	} else {
		t.Log("the C-chain's hourly series fits one point: no page token to replay elsewhere")
	}
}

// operationOf is the operationId of a Metrics API URL's route.
func operationOf(u string) string {
	switch p := u[strings.Index(u, "/metrics/v2/")+len("/metrics"):]; {
	case strings.HasPrefix(p, "/v2/networks/"):
		return "getStakingMetrics"
	case strings.HasPrefix(p, "/v2/validators/"):
		return "getTotalL1ValidatorMetrics"
	case strings.HasPrefix(p, "/v2/validator/"):
		return "getMetricsByNodeId"
	case strings.HasPrefix(p, "/v2/subnet/"):
		return "getMetricsBySubnetId"
	case strings.HasPrefix(p, "/v2/validation/"):
		return "getMetricsByValidationId"
	case strings.Contains(p, "/rollingWindowMetrics/"):
		return "getEvmChainRollingWindowMetrics"
	case strings.Contains(p, "/metrics/"):
		return "getEvmChainMetrics"
	default:
		return "getChain"
	}
}
