package metrics

import (
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/metricdata"
)

const stakingBase = "/ext/bc/data/metrics/v2/networks/"

type stakingBody struct {
	Results []struct {
		Value     json64 `json:"value"`
		Timestamp int64  `json:"timestamp"`
	} `json:"results"`
	NextPageToken *string `json:"nextPageToken"`
}

// json64 keeps a JSON number's digits.
type json64 string

func (j *json64) UnmarshalJSON(b []byte) error { *j = json64(b); return nil }

// stakingFakes holds a primary network series of 10 days (day k: k+1
// validators, weight 10^18·(k+1) to pass 2^53 and 2^64, k delegators) and
// an L1 with no days yet.
func stakingFakes() (*handlertest.Fakes, int64, ids.ID) {
	f := handlertest.NewFakes()
	first := 20_000 * handlertest.Day
	var days []metricdata.StakingDay
	for k := int64(9); k >= 0; k-- {
		w := new(big.Int).Mul(big.NewInt(k+1), new(big.Int).Exp(big.NewInt(10), big.NewInt(19), nil))
		days = append(days, metricdata.StakingDay{Day: first + k*handlertest.Day, Figures: metricdata.StakingFigures{
			ValidatorCount: uint64(k + 1), ValidatorWeight: w, DelegatorCount: uint64(k), DelegatorWeight: big.NewInt(k * 7)}})
	}
	l1 := ids.ID{'L', 1}
	f.StakeSeries.Series = map[ids.ID]metricdata.StakingSeries{
		constants.PrimaryNetworkID: {HasDays: true, FirstDay: first, LastDay: first + 9*handlertest.Day, Days: days},
		l1:                         {},
	}
	return f, first, l1
}

func getStaking(t *testing.T, srv *handlertest.API, network, metric string, q url.Values) stakingBody {
	t.Helper()
	path := stakingBase + network + "/metrics/" + metric
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	rec := srv.Get(t, path)
	var body stakingBody
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	var raw map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &raw)
	handlertest.RequireNoNulls(t, raw)
	return body
}

func TestStakingMetricsSeries(t *testing.T) {
	f, first, l1 := stakingFakes()
	srv := newTestAPI(t, handlertest.Config(), f)

	body := getStaking(t, srv, "testnet", "validatorWeight", nil)
	require.Len(t, body.Results, 10)
	require.Nil(t, body.NextPageToken)
	require.Equal(t, first+9*handlertest.Day, body.Results[0].Timestamp, "newest first")
	require.Equal(t, json64("100000000000000000000"), body.Results[0].Value, "exact past 2^64")
	require.Equal(t, json64("10000000000000000000"), body.Results[9].Value)

	for metric, want := range map[string]string{"validatorCount": "10", "delegatorCount": "9", "delegatorWeight": "63"} {
		body := getStaking(t, srv, "local", metric, url.Values{"subnetId": {constants.PrimaryNetworkID.String()}})
		require.Equal(t, json64(want), body.Results[0].Value, metric)
	}

	// A range, then pages of 3 that the SDK follows with the same query.
	q := url.Values{"startTimestamp": {strconv.FormatInt(first+2*handlertest.Day+5, 10)},
		"endTimestamp": {strconv.FormatInt(first+8*handlertest.Day, 10)}, "pageSize": {"3"}}
	var got []int64
	for page := 0; ; page++ {
		require.Less(t, page, 5)
		body := getStaking(t, srv, "testnet", "validatorCount", q)
		for _, r := range body.Results {
			got = append(got, (r.Timestamp-first)/handlertest.Day)
		}
		if body.NextPageToken == nil {
			break
		}
		q.Set("pageToken", *body.NextPageToken)
	}
	require.Equal(t, []int64{8, 7, 6, 5, 4, 3, 2}, got)

	// An L1 without a validator yet: an empty series.
	body = getStaking(t, srv, "testnet", "validatorCount", url.Values{"subnetId": {l1.String()}})
	require.Empty(t, body.Results)
}

func TestStakingMetricsErrors(t *testing.T) {
	f, _, _ := stakingFakes()
	srv := newTestAPI(t, handlertest.Config(), f)
	cases := []struct {
		name, path string
		status     int
		fragments  []string
	}{
		{"another network", "mainnet/metrics/validatorCount", 400, []string{"this node serves network 'local'", "'mainnet'"}},
		{"no network", "moon/metrics/validatorCount", 400, []string{"invalid network 'moon'"}},
		{"unknown metric", "testnet/metrics/validatorCounts", 400, []string{"invalid metric 'validatorCounts'", "'delegatorCount', 'delegatorWeight', 'validatorCount', 'validatorWeight'"}},
		{"timeInterval", "testnet/metrics/validatorCount?timeInterval=day", 400, []string{"no timeInterval"}},
		{"bad subnet", "testnet/metrics/validatorCount?subnetId=xyz", 400, []string{"invalid subnetId 'xyz'"}},
		{"two subnets", "testnet/metrics/validatorCount?subnetId=a&subnetId=b", 400, []string{"subnetId is given 2 times"}},
		{"unknown subnet", "testnet/metrics/validatorCount?subnetId=" + ids.ID{'?'}.String(), 404, []string{"not found"}},
		{"inverted range", "testnet/metrics/validatorCount?startTimestamp=10&endTimestamp=5", 400, nil},
		{"milliseconds", "testnet/metrics/validatorCount?startTimestamp=1700000000000", 400, []string{"milliseconds"}},
		{"page size", "testnet/metrics/validatorCount?pageSize=2161", 400, []string{"pageSize"}},
		{"bad token", "testnet/metrics/validatorCount?pageToken=abc", 400, nil},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			handlertest.RequireMetricsError(t, srv.Get(t, stakingBase+tt.path), tt.status, tt.fragments...)
		})
	}

	// A store written before the staking rows: 503 until rebuilt.
	s := f.StakeSeries.Series[constants.PrimaryNetworkID]
	s.CountedFrom = 77
	f.StakeSeries.Series[constants.PrimaryNetworkID] = s
	handlertest.RequireMetricsError(t, srv.Get(t, stakingBase+"testnet/metrics/validatorCount"), 503, "block 77", "rebuilt")
}

func TestStakingMetricsTokenBindsQuery(t *testing.T) {
	f, _, _ := stakingFakes()
	srv := newTestAPI(t, handlertest.Config(), f)
	body := getStaking(t, srv, "testnet", "validatorCount", url.Values{"pageSize": {"2"}})
	require.NotNil(t, body.NextPageToken)
	rec := srv.Get(t, stakingBase+"testnet/metrics/validatorCount?pageSize=2&startTimestamp=5&pageToken="+url.QueryEscape(*body.NextPageToken))
	handlertest.RequireMetricsError(t, rec, 400)
}
