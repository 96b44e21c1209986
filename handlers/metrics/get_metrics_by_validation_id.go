package metrics

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
)

// routeGetMetricsByValidationID names the getMetricsByValidationId route in metrics and logs.
const routeGetMetricsByValidationID = "getMetricsByValidationId"

// validationFeeMetrics are the SDK's GetMetricsByValidationIdMetric.
func validationFeeMetrics() []l1FeeMetric {
	return []l1FeeMetric{
		{"validationCumulativeFeesDaily", l1CumulativeFees},
		{"validationFeesDaily", l1DailyFees},
	}
}

// serveGetMetricsByValidationID handles GET {metrics_url}/v2/validation/{l1ValidationId}/metrics/{metric}:
// the fees of one L1 validation per UTC day.
func (s *server) serveGetMetricsByValidationID(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	validation, err := api.ParseCB58ID("l1ValidationId", api.PathVar(r, "l1ValidationId"))
	if err != nil {
		return err
	}
	req, err := parseL1FeeRequest(r, metricdata.L1FeeQuery{Scope: metricdata.L1FeeValidation, Validation: validation}, validationFeeMetrics())
	if err != nil {
		return err
	}
	return s.serveL1FeeSeries(w, r, heights, req, fmt.Sprintf("L1 validation %s is not in the index", validation))
}
