package metrics

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET {metrics_url}/v2/chains/{chainId}/rollingWindowMetrics/{metric}
// (getEvmChainRollingWindowMetrics): a ChainRollingWindowMetric (every
// ChainMetric but the running totals) over the windows ending at the hour
// bucket of the chain's newest counted block (rolling_window.go), in the
// SDK's RollingWindowMetricsApiResponse. chainId is what the time series
// take (resolveMetricsTarget): one followed EVM chain, or total / the
// node's network, over which the chains' figures combine as the metric
// table says (each chain's windows end at its own newest block; a window is
// served when every chain serves it). A chain whose metrics count from above
// genesis serves the windows after the hour of its first counted block,
// and no allTime (X-Avadata-History-From names it); while a back-fill
// re-derives a chain's metrics the answer is a 503.

// routeGetEvmChainRollingWindowMetrics names the route (the SDK's
// operationId).
const routeGetEvmChainRollingWindowMetrics = "getEvmChainRollingWindowMetrics"

// rollingWindowMetricsAPIResponse is the SDK's
// RollingWindowMetricsApiResponse.
type rollingWindowMetricsAPIResponse struct {
	Result rollingWindowValues `json:"result"`
}

// rollingMetricNames lists the SDK's ChainRollingWindowMetric values: the
// ChainMetrics that are not running totals.
func rollingMetricNames() []string {
	var names []string
	for _, m := range chainMetrics() {
		if !m.cumulative {
			names = append(names, m.name)
		}
	}
	return names
}

// parseRollingMetric reads the {metric} path segment.
func parseRollingMetric(segment string) (chainMetric, error) {
	m, ok := lookupChainMetric(segment)
	if !ok || m.cumulative {
		return chainMetric{}, api.BadRequest("invalid %s '%s': must be one of %s",
			paramMetric, api.Truncate(segment), api.QuoteList(rollingMetricNames()))
	}
	return m, nil
}

func (s *server) serveGetEvmChainRollingWindowMetrics(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	m, err := parseRollingMetric(api.PathVar(r, paramMetric))
	if err != nil {
		return err
	}
	target, err := s.resolveMetricsTarget(api.PathVar(r, api.ParamChainID))
	if err != nil {
		return err
	}
	ctx := r.Context()
	mh, err := s.targetHistory(ctx, target, heights, m.name)
	if err != nil {
		return err
	}
	chains := mh.seriesChains()
	perChain := make([][]*metricFigure, len(chains))
	for i, c := range chains {
		if perChain[i], err = chainWindows(ctx, s.reader, c.chain, m, c.partial); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, rollingWindowMetricsAPIResponse{Result: windowValues(m, perChain)})
	return nil
}
