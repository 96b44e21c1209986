package metrics

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/gorilla/mux"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// routeStakingMetrics names getStakingMetrics in page tokens, metrics and
// logs.
const routeStakingMetrics = "getStakingMetrics"

const (
	paramStakingMetric       = "metric"
	paramSubnetID            = "subnetId"
	paramStakingTimeInterval = "timeInterval"
)

// stakingMetricsPaging pages the staking series: pageSize 1..2160 (default
// 100), tokens valid for the metrics lifetime.
func stakingMetricsPaging() api.Paging {
	return api.Paging{Route: routeStakingMetrics, Size: api.MetricsSeriesPageSize(), MaxAge: api.MetricsPageTokenLifetime}
}

// serveStakingMetrics handles GET {metrics_url}/v2/networks/{network}/metrics/{metric}
// (getStakingMetrics): a subnet's validator and delegator counts and
// weights, one point per UTC day, newest first. The value of day D is what
// platform.getCurrentValidators answered after the P-chain's last block of
// D (an L1: its L1 validators, inactive ones included, and legacy subnet
// validators left). The series is dense from the subnet's first change to
// the day of the newest indexed P-chain block, within
// startTimestamp..endTimestamp. subnetId absent is the primary network.
// The operation takes no timeInterval: the series is daily.
func (s *server) serveStakingMetrics(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	vars := mux.Vars(r)
	if err := api.ResolveNetwork(vars[api.ParamNetwork], s.Network()); err != nil {
		return err
	}
	metric, err := parseStakingMetric(vars[paramStakingMetric])
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if _, ok := q[paramStakingTimeInterval]; ok {
		return api.BadRequest("getStakingMetrics takes no %s: its series is daily (UTC days)", paramStakingTimeInterval)
	}
	subnet, err := parseOptionalSubnet(q)
	if err != nil {
		return err
	}
	tr, err := parseMetricsRange(q)
	if err != nil {
		return err
	}
	from, to := int64(0), int64(maxMetricsTimestamp)
	if tr.Start.Set {
		from = tr.Start.Value
	}
	if tr.End.Set {
		to = tr.End.Value
	}
	s.ReadsChain(heights, netinfo.P)
	// The token binds the series (subnet, metric and range); its position
	// is the day last returned.
	pg, err := s.ParsePage(r.Context(), heights, q, stakingMetricsPaging(), subnet.String(), string(metric),
		strconv.FormatInt(from, 10), strconv.FormatInt(to, 10))
	if err != nil {
		return err
	}
	if !pg.First {
		to = min(to, pg.Token.Position-1)
	}
	series, err := s.reader.StakingSeries(r.Context(), subnet, from, to, pg.Size+1)
	if err != nil {
		return fmt.Errorf("reading the staking series of subnet %s: %w", subnet, err)
	}
	if !series.SubnetKnown {
		return api.NotFound("subnet %s not found", subnet)
	}
	if series.CountedFrom > 0 {
		return api.NewError(http.StatusServiceUnavailable,
			"the staking figures are counted from P-chain block %d, not from genesis (an index written before avadata kept them, or a network whose P-chain genesis avadata does not know): an index rebuilt from genesis serves them",
			series.CountedFrom)
	}
	days, hasMore := api.TrimPage(series.Days, pg.Size)
	resp := metricsAPIResponse{Results: make([]metricsValue, len(days))}
	for i, d := range days {
		v, _ := d.Figures.Figure(metric)
		resp.Results[i] = metricsValue{Value: bigValue(v), Timestamp: d.Day}
	}
	if hasMore {
		if resp.NextPageToken, err = s.NextPageToken(pg, days[len(days)-1].Day, nil); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// parseStakingMetric reads the {metric} of getStakingMetrics (the SDK's
// NetworkMetric).
func parseStakingMetric(raw string) (metricdata.StakingMetric, error) {
	m := metricdata.StakingMetric(raw)
	if slices.Contains(metricdata.StakingMetrics(), m) {
		return m, nil
	}
	names := make([]string, 0, 4)
	for _, m := range metricdata.StakingMetrics() {
		names = append(names, string(m))
	}
	return "", api.BadRequest("invalid %s '%s': must be one of %s", paramStakingMetric, api.Truncate(raw), api.QuoteList(names))
}

// parseOptionalSubnet reads the subnetId query: absent (or empty) is the
// primary network; given once, a cb58 subnet ID.
func parseOptionalSubnet(q url.Values) (ids.ID, error) {
	vals := q[paramSubnetID]
	switch {
	case len(vals) > 1:
		return ids.Empty, api.BadRequest("%s is given %d times: give one subnet", paramSubnetID, len(vals))
	case len(vals) == 0 || vals[0] == "":
		return constants.PrimaryNetworkID, nil
	}
	return api.ParseCB58ID(paramSubnetID, vals[0])
}
