package metrics

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// What the four L1 validator fee operations share (getMetricsByNodeId,
// getMetricsBySubnetId, getMetricsByValidationId,
// getTotalL1ValidatorMetrics): daily UTC series of the fees the continuous
// L1 validator fee charged (metricdata.L1FeeSeries), the whole range in one
// reply. The SDK strips pageToken, pageSize and timeInterval from these
// calls and cannot send a page token back, so the server takes none.

// l1FeeMetric is one metric of an operation: the figure of a day it
// reports.
type l1FeeMetric struct {
	name   string
	figure func(metricdata.L1FeeDay) uint64
}

func l1DailyFees(d metricdata.L1FeeDay) uint64      { return d.Fees }
func l1CumulativeFees(d metricdata.L1FeeDay) uint64 { return d.Cumulative }
func l1PayingValidators(d metricdata.L1FeeDay) uint64 {
	return d.Paying
}

// l1FeeRequest is the validated input of an L1 fee operation.
type l1FeeRequest struct {
	metric l1FeeMetric
	query  metricdata.L1FeeQuery
}

// l1FeeUnpaged are the query parameters these operations refuse: they
// serve the whole range in one daily series.
func l1FeeUnpaged() []string { return []string{"pageToken", "pageSize", "timeInterval"} }

// parseL1FeeRequest reads the metric (path) and the time range (query)
// of an operation whose subject the caller parsed into q.
func parseL1FeeRequest(r *http.Request, q metricdata.L1FeeQuery, metrics []l1FeeMetric) (l1FeeRequest, error) {
	name := api.PathVar(r, "metric")
	req := l1FeeRequest{query: q}
	names := make([]string, len(metrics))
	for i, m := range metrics {
		names[i] = m.name
		if m.name == name {
			req.metric = m
		}
	}
	if req.metric.figure == nil {
		return l1FeeRequest{}, api.BadRequest("invalid metric '%s': must be one of %s", api.Truncate(name), api.QuoteList(names))
	}
	values := r.URL.Query()
	if err := refuseL1FeeParams(values); err != nil {
		return l1FeeRequest{}, err
	}
	tr, err := parseMetricsRange(values)
	if err != nil {
		return l1FeeRequest{}, err
	}
	req.query.From, req.query.To = 0, maxMetricsTimestamp
	if tr.Start.Set {
		req.query.From = tr.Start.Value
	}
	if tr.End.Set {
		req.query.To = tr.End.Value
	}
	return req, nil
}

func refuseL1FeeParams(values url.Values) error {
	for _, p := range l1FeeUnpaged() {
		if values.Has(p) {
			return api.BadRequest("%s is not accepted: this operation returns the whole time range, one value per UTC day, in one response", p)
		}
	}
	return nil
}

// serveL1FeeSeries reads the series req asks and writes it; notFound
// words a subject the index does not know.
func (s *server) serveL1FeeSeries(w http.ResponseWriter, r *http.Request, heights *api.Heights, req l1FeeRequest, notFound string) error {
	s.ReadsChain(heights, netinfo.P)
	series, err := s.reader.L1FeeSeries(r.Context(), req.query)
	if err != nil {
		return fmt.Errorf("reading the L1 validator fee series: %w", err)
	}
	if !series.Found {
		return api.NotFound("%s", notFound)
	}
	if !series.Known {
		return api.NewError(http.StatusServiceUnavailable,
			"the L1 validator fees are not known to this index: its P-chain fee state is unknown, or it was built before it kept them (rebuild the index to add them)")
	}
	resp := metricsAPIResponse{Results: make([]metricsValue, len(series.Days))}
	for i, d := range series.Days {
		resp.Results[i] = metricsValue{Value: intValue(req.metric.figure(d)), Timestamp: d.Start}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
