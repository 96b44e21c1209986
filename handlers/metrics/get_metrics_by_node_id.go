package metrics

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
)

// routeGetMetricsByNodeID names the getMetricsByNodeId route in metrics and logs.
const routeGetMetricsByNodeID = "getMetricsByNodeId"

// nodeFeeMetrics are the SDK's GetMetricsByNodeIdMetric.
func nodeFeeMetrics() []l1FeeMetric {
	return []l1FeeMetric{
		{"perNodeCumulativeFeesPaid", l1CumulativeFees},
		{"perNodeDailyFeesPaid", l1DailyFees},
	}
}

// serveGetMetricsByNodeID handles GET {metrics_url}/v2/validator/{nodeId}/metrics/{metric}: the
// fees of every L1 validation of the node (on any subnet), per UTC day.
func (s *server) serveGetMetricsByNodeID(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	node, err := api.ParseNodeID(api.ParamNodeID, api.PathVar(r, api.ParamNodeID))
	if err != nil {
		return err
	}
	req, err := parseL1FeeRequest(r, metricdata.L1FeeQuery{Scope: metricdata.L1FeeNode, Node: node}, nodeFeeMetrics())
	if err != nil {
		return err
	}
	return s.serveL1FeeSeries(w, r, heights, req, fmt.Sprintf("node %s is not in the index: it has neither an L1 validation nor a staker", node))
}
