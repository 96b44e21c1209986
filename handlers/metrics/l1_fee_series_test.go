package metrics

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/metricdata"
)

const l1FeePrefix = "/ext/bc/data/metrics/v2"

var (
	l1TestNode       = ids.NodeID{1, 2, 3}
	l1TestSubnet     = ids.ID{'s', 'u', 'b'}
	l1TestValidation = ids.ID{'v', 'a', 'l'}
)

// l1FeeDays is a canned series, newest first, with a fee above 2^53.
func l1FeeDays() []metricdata.L1FeeDay {
	day := handlertest.Day
	return []metricdata.L1FeeDay{
		{Start: 20_002 * day, Fees: 9_007_199_254_740_993, Cumulative: 9_007_199_254_741_000, Paying: 3},
		{Start: 20_001 * day, Fees: 0, Cumulative: 7, Paying: 0},
		{Start: 20_000 * day, Fees: 7, Cumulative: 7, Paying: 1},
	}
}

func l1FeeBackend() *handlertest.Fakes {
	f := handlertest.NewFakes()
	f.L1Fees = func(metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
		return metricdata.L1FeeSeries{Found: true, Known: true, Days: l1FeeDays()}, nil
	}
	return f
}

// Each operation's metrics report their figure of the reader's days, in
// its order, exactly; the reader is asked the operation's subject and the
// whole range unless bounded.
func TestL1FeeMetrics(t *testing.T) {
	for _, tt := range []struct {
		path   string
		figure func(metricdata.L1FeeDay) uint64
		query  metricdata.L1FeeQuery
	}{
		{"/validator/" + l1TestNode.String() + "/metrics/perNodeCumulativeFeesPaid", l1CumulativeFees,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeNode, Node: l1TestNode}},
		{"/validator/" + l1TestNode.String() + "/metrics/perNodeDailyFeesPaid", l1DailyFees,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeNode, Node: l1TestNode}},
		{"/subnet/" + l1TestSubnet.String() + "/metrics/perSubnetDailyFeesPaid", l1DailyFees,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeSubnet, Subnet: l1TestSubnet}},
		{"/subnet/" + l1TestSubnet.String() + "/metrics/perSubnetCumulativeFeesPaid", l1CumulativeFees,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeSubnet, Subnet: l1TestSubnet}},
		{"/subnet/" + l1TestSubnet.String() + "/metrics/perSubnetPayingValidators", l1PayingValidators,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeSubnet, Subnet: l1TestSubnet}},
		{"/validation/" + l1TestValidation.String() + "/metrics/validationCumulativeFeesDaily", l1CumulativeFees,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeValidation, Validation: l1TestValidation}},
		{"/validation/" + l1TestValidation.String() + "/metrics/validationFeesDaily", l1DailyFees,
			metricdata.L1FeeQuery{Scope: metricdata.L1FeeValidation, Validation: l1TestValidation}},
		{"/validators/metrics/totalCumulativeFeesDaily", l1CumulativeFees, metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal}},
		{"/validators/metrics/totalValidatorFeesDaily", l1DailyFees, metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal}},
		{"/validators/metrics/totalPayingValidatorsDaily", l1PayingValidators, metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal}},
	} {
		t.Run(tt.path, func(t *testing.T) {
			backend := l1FeeBackend()
			srv := newTestAPI(t, handlertest.Config(), backend)
			rec := srv.Get(t, l1FeePrefix+tt.path)
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			var want strings.Builder
			want.WriteString(`{"results":[`)
			for i, d := range l1FeeDays() {
				if i > 0 {
					want.WriteString(",")
				}
				want.WriteString(`{"value":` + string(intValue(tt.figure(d))) + `,"timestamp":` + string(intValue(uint64(d.Start))) + `}`)
			}
			want.WriteString(`]}`)
			require.JSONEq(t, want.String(), rec.Body.String())
			require.NotContains(t, rec.Body.String(), "e+", "exact integers")
			q := tt.query
			q.To = maxMetricsTimestamp
			require.Equal(t, []metricdata.L1FeeQuery{q}, backend.L1FeeQueries)

			// A range is passed on as asked.
			backend.L1FeeQueries = nil
			rec = srv.Get(t, l1FeePrefix+tt.path+"?startTimestamp=100&endTimestamp=200")
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			q.From, q.To = 100, 200
			require.Equal(t, []metricdata.L1FeeQuery{q}, backend.L1FeeQueries)
		})
	}
}

func TestL1FeeMetricsBadInput(t *testing.T) {
	backend := l1FeeBackend()
	srv := newTestAPI(t, handlertest.Config(), backend)
	node := "/validator/" + l1TestNode.String() + "/metrics/"
	subnet := "/subnet/" + l1TestSubnet.String() + "/metrics/"
	validation := "/validation/" + l1TestValidation.String() + "/metrics/"
	for _, tt := range []struct {
		name, path string
		fragments  []string
	}{
		{"node metric", node + "validatorCount", []string{"metric 'validatorCount'", "'perNodeCumulativeFeesPaid', 'perNodeDailyFeesPaid'"}},
		{"subnet metric", subnet + "perNodeDailyFeesPaid", []string{"'perSubnetDailyFeesPaid', 'perSubnetCumulativeFeesPaid', 'perSubnetPayingValidators'"}},
		{"validation metric", validation + "txCount", []string{"'validationCumulativeFeesDaily', 'validationFeesDaily'"}},
		{"total metric", "/validators/metrics/feesPaid", []string{"'totalCumulativeFeesDaily', 'totalValidatorFeesDaily', 'totalPayingValidatorsDaily'"}},
		{"node ID", "/validator/NodeID-nope/metrics/perNodeDailyFeesPaid", []string{"nodeId", "NodeID-nope"}},
		{"node ID without prefix", "/validator/" + l1TestSubnet.String() + "/metrics/perNodeDailyFeesPaid", []string{"nodeId"}},
		{"subnet ID", "/subnet/xyz/metrics/perSubnetDailyFeesPaid", []string{"subnetId", "'xyz'"}},
		{"validation ID", "/validation/0x12/metrics/validationFeesDaily", []string{"l1ValidationId", "'0x12'"}},
		{"pageToken", "/validators/metrics/totalValidatorFeesDaily?pageToken=abc", []string{"pageToken is not accepted", "one value per UTC day"}},
		{"pageSize", subnet + "perSubnetDailyFeesPaid?pageSize=10", []string{"pageSize is not accepted"}},
		{"timeInterval", node + "perNodeDailyFeesPaid?timeInterval=day", []string{"timeInterval is not accepted"}},
		{"inverted range", validation + "validationFeesDaily?startTimestamp=5&endTimestamp=4", []string{"startTimestamp"}},
		{"milliseconds", "/validators/metrics/totalValidatorFeesDaily?endTimestamp=1700000000000", []string{"endTimestamp", "milliseconds"}},
		{"negative", "/validators/metrics/totalValidatorFeesDaily?startTimestamp=-1", []string{"startTimestamp"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			backend.L1FeeQueries = nil
			handlertest.RequireMetricsError(t, srv.Get(t, l1FeePrefix+tt.path), http.StatusBadRequest, tt.fragments...)
			require.Empty(t, backend.L1FeeQueries, "nothing read for bad input")
		})
	}
}

func TestL1FeeMetricsNotFoundUnknownAndErrors(t *testing.T) {
	backend := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), backend)
	backend.L1Fees = func(metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
		return metricdata.L1FeeSeries{Known: true}, nil
	}
	handlertest.RequireMetricsError(t, srv.Get(t, l1FeePrefix+"/validator/"+l1TestNode.String()+"/metrics/perNodeDailyFeesPaid"),
		http.StatusNotFound, "node "+l1TestNode.String()+" is not in the index")
	handlertest.RequireMetricsError(t, srv.Get(t, l1FeePrefix+"/subnet/"+l1TestSubnet.String()+"/metrics/perSubnetDailyFeesPaid"),
		http.StatusNotFound, "subnet "+l1TestSubnet.String()+" is not in the index")
	handlertest.RequireMetricsError(t, srv.Get(t, l1FeePrefix+"/validation/"+l1TestValidation.String()+"/metrics/validationFeesDaily"),
		http.StatusNotFound, "L1 validation "+l1TestValidation.String()+" is not in the index")

	backend.L1Fees = func(metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
		return metricdata.L1FeeSeries{Found: true}, nil
	}
	handlertest.RequireMetricsError(t, srv.Get(t, l1FeePrefix+"/validators/metrics/totalValidatorFeesDaily"),
		http.StatusServiceUnavailable, "rebuild the index")

	// A known, empty series is an empty list, never null.
	backend.L1Fees = nil
	rec := srv.Get(t, l1FeePrefix+"/validators/metrics/totalPayingValidatorsDaily")
	require.Equal(t, http.StatusOK, rec.Code)
	require.JSONEq(t, `{"results":[]}`, rec.Body.String())

	backend.L1Fees = func(metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
		return metricdata.L1FeeSeries{}, errors.New("disk on fire")
	}
	handlertest.RequireMetricsError(t, srv.Get(t, l1FeePrefix+"/validators/metrics/totalValidatorFeesDaily"),
		http.StatusInternalServerError, "internal error")
}
