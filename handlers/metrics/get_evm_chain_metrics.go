package metrics

import (
	"math"
	"net/http"
	"net/url"
	"strconv"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
)

// routeGetEvmChainMetrics names the chain metrics route (the SDK's
// operationId) in page tokens, metrics and logs.
const routeGetEvmChainMetrics = "getEvmChainMetrics"

// Parameter names of the chain metrics.
const (
	paramMetric       = "metric"
	paramTimeInterval = "timeInterval"
)

// chainSeriesPaging pages the chain metrics: pageSize 1..2160 (default 100),
// tokens valid for the metrics lifetime (24 hours).
func chainSeriesPaging() api.Paging {
	return api.Paging{Route: routeGetEvmChainMetrics, Size: api.MetricsSeriesPageSize(), MaxAge: api.MetricsPageTokenLifetime}
}

// parseChainMetric reads the {metric} path segment.
func parseChainMetric(segment string) (chainMetric, error) {
	m, ok := lookupChainMetric(segment)
	if !ok {
		return chainMetric{}, api.BadRequest("invalid %s '%s': must be one of %s",
			paramMetric, api.Truncate(segment), api.QuoteList(chainMetricNames()))
	}
	return m, nil
}

// parseTimeInterval reads timeInterval (the SDK's TimeIntervalGranularity),
// default day. Every metric takes every granularity.
func parseTimeInterval(q url.Values) (metricdata.Granularity, error) {
	raw := q.Get(paramTimeInterval)
	if raw == "" {
		return metricdata.Day, nil
	}
	g, ok := metricdata.ParseGranularity(raw)
	if !ok {
		names := make([]string, 0, 4)
		for _, g := range metricdata.Granularities() {
			names = append(names, g.String())
		}
		return 0, api.BadRequest("invalid %s '%s': must be one of %s (default 'day'); every metric takes every one",
			paramTimeInterval, api.Truncate(raw), api.QuoteList(names))
	}
	return g, nil
}

// boundString is a timestamp bound as a page token filter ("" unset).
func boundString(b api.Bound[int64]) string {
	if !b.Set {
		return ""
	}
	return strconv.FormatInt(b.Value, 10)
}

// serveGetEvmChainMetrics handles GET {metrics_url}/v2/chains/{chainId}/
// metrics/{metric}: the metric's dense series over one followed EVM chain
// or all of them (total, mainnet/testnet), at timeInterval, newest bucket
// first, paged by pageToken.
func (s *server) serveGetEvmChainMetrics(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	m, err := parseChainMetric(api.PathVar(r, paramMetric))
	if err != nil {
		return err
	}
	target, err := s.resolveMetricsTarget(api.PathVar(r, api.ParamChainID))
	if err != nil {
		return err
	}
	q := r.URL.Query()
	g, err := parseTimeInterval(q)
	if err != nil {
		return err
	}
	tr, err := parseMetricsRange(q)
	if err != nil {
		return err
	}
	ctx := r.Context()
	mh, err := s.targetHistory(ctx, target, heights, m.name)
	if err != nil {
		return err
	}
	if m.cumulative {
		if err := mh.checkRunningTotal(m.name); err != nil {
			return err
		}
	}
	// The token resumes only the query it came from: the same target,
	// metric, granularity and range.
	pg, err := s.ParsePage(ctx, heights, q, chainSeriesPaging(),
		target.key, m.name, g.String(), boundString(tr.Start), boundString(tr.End))
	if err != nil {
		return err
	}

	query := seriesQuery{metric: m, g: g, lo: math.MinInt64, end: math.MaxInt64, size: pg.Size}
	if tr.Start.Set {
		query.lo = g.Start(tr.Start.Value)
	}
	if tr.End.Set {
		query.end = g.Start(tr.End.Value)
	}
	if !pg.First {
		query.resume = &pg.Token.Position // the newest bucket of this page
	}
	page, err := buildSeriesPage(ctx, s.reader, mh.seriesChains(), query)
	if err != nil {
		return err
	}
	resp := metricsAPIResponse{Results: []metricsValue{}}
	if page.points != nil {
		resp.Results = page.points
	}
	if page.more {
		if resp.NextPageToken, err = s.NextPageToken(pg, page.next, nil); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
