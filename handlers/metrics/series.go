package metrics

import (
	"encoding/json"
	"math/big"
	"net/url"
	"strconv"

	"github.com/avadata/avadata/handlers/api"
)

// Shapes and parameters shared by the Metrics API's time series (the SDK's
// MetricsApiResponse): chain metrics, staking metrics and L1 validator fees.

// metricsValue is one point of a series (the SDK's MetricsValue): the value
// of the bucket starting at Timestamp (Unix seconds). Value is a JSON number
// written exactly: an integer figure (wei, nAVAX, counts) in all its digits,
// a ratio in the shortest decimal that reads back as the same float64.
type metricsValue struct {
	Value     json.Number `json:"value"`
	Timestamp int64       `json:"timestamp"`
}

// metricsAPIResponse is the body of every time series (the SDK's
// MetricsApiResponse), newest bucket first. NextPageToken is omitted on the
// last page, never null.
type metricsAPIResponse struct {
	NextPageToken string         `json:"nextPageToken,omitempty"`
	Results       []metricsValue `json:"results"`
}

// intValue writes a count or an amount exactly.
func intValue(n uint64) json.Number { return json.Number(strconv.FormatUint(n, 10)) }

// bigValue writes an amount exactly; nil is 0.
func bigValue(n *big.Int) json.Number {
	if n == nil {
		return "0"
	}
	return json.Number(n.String())
}

// ratioValue writes v as the float64 nearest it (one rounding: a big.Float
// quotient rounded again to float64 can land an ulp away).
func ratioValue(v *big.Rat) json.Number {
	f, _ := v.Float64()
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// maxMetricsTimestamp is the last second of year 9999: a timestamp beyond it
// is a client's mistake (milliseconds, most often), not a time to look at.
const maxMetricsTimestamp = 253402300799

// parseMetricsRange reads startTimestamp and endTimestamp (Unix seconds,
// both optional): integers in [0, year 9999], start <= end.
func parseMetricsRange(q url.Values) (api.TimestampRange, error) {
	tr, err := api.ParseTimestampRange(q)
	if err != nil {
		return api.TimestampRange{}, err
	}
	for _, b := range []struct {
		name  string
		bound api.Bound[int64]
	}{{api.ParamStartTimestamp, tr.Start}, {api.ParamEndTimestamp, tr.End}} {
		if b.bound.Set && b.bound.Value > maxMetricsTimestamp {
			return api.TimestampRange{}, api.BadRequest(
				"invalid %s %d: must be Unix seconds at most %d (the end of year 9999); milliseconds are not accepted",
				b.name, b.bound.Value, maxMetricsTimestamp)
		}
	}
	return tr, nil
}

// parseMetricsBounds reads startTimestamp and endTimestamp as
// parseMetricsRange does, an absent one taking the widest bound (0, the
// end of year 9999).
func parseMetricsBounds(q url.Values) (from, to int64, err error) {
	tr, err := parseMetricsRange(q)
	if err != nil {
		return 0, 0, err
	}
	from, to = 0, maxMetricsTimestamp
	if tr.Start.Set {
		from = tr.Start.Value
	}
	if tr.End.Set {
		to = tr.End.Value
	}
	return from, to, nil
}
