package metrics

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
)

// routeGetMetricsBySubnetID names the getMetricsBySubnetId route in metrics and logs.
const routeGetMetricsBySubnetID = "getMetricsBySubnetId"

// subnetFeeMetrics are the SDK's GetMetricsBySubnetIdMetric.
func subnetFeeMetrics() []l1FeeMetric {
	return []l1FeeMetric{
		{"perSubnetDailyFeesPaid", l1DailyFees},
		{"perSubnetCumulativeFeesPaid", l1CumulativeFees},
		{"perSubnetPayingValidators", l1PayingValidators},
	}
}

// serveGetMetricsBySubnetID handles GET {metrics_url}/v2/subnet/{subnetId}/metrics/{metric}: the
// fees of the subnet's L1 validations and how many paid, per UTC day.
func (s *server) serveGetMetricsBySubnetID(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	subnet, err := api.ParseCB58ID("subnetId", api.PathVar(r, "subnetId"))
	if err != nil {
		return err
	}
	req, err := parseL1FeeRequest(r, metricdata.L1FeeQuery{Scope: metricdata.L1FeeSubnet, Subnet: subnet}, subnetFeeMetrics())
	if err != nil {
		return err
	}
	return s.serveL1FeeSeries(w, r, heights, req, fmt.Sprintf("subnet %s is not in the index", subnet))
}
