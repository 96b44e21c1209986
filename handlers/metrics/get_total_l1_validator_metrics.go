package metrics

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
)

// routeGetTotalL1ValidatorMetrics names the getTotalL1ValidatorMetrics route in metrics and logs.
const routeGetTotalL1ValidatorMetrics = "getTotalL1ValidatorMetrics"

// totalFeeMetrics are the SDK's GetTotalL1ValidatorMetricsMetric.
func totalFeeMetrics() []l1FeeMetric {
	return []l1FeeMetric{
		{"totalCumulativeFeesDaily", l1CumulativeFees},
		{"totalValidatorFeesDaily", l1DailyFees},
		{"totalPayingValidatorsDaily", l1PayingValidators},
	}
}

// serveGetTotalL1ValidatorMetrics handles GET {metrics_url}/v2/validators/metrics/{metric}: the
// fees of every L1 validation and how many paid, per UTC day.
func (s *server) serveGetTotalL1ValidatorMetrics(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := parseL1FeeRequest(r, metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal}, totalFeeMetrics())
	if err != nil {
		return err
	}
	return s.serveL1FeeSeries(w, r, heights, req, "")
}
