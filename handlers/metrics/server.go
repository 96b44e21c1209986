package metrics

import (
	"context"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// Reader serves the metrics service.
type Reader interface {
	// TPSBuckets returns up to limit daily buckets of chain, newest first,
	// starting strictly before `before` (Unix seconds; 0 means no bound).
	TPSBuckets(ctx context.Context, chain netinfo.Chain, before int64, limit int) ([]store.TPSBucket, error)
	// HistoryFrom is the first block of chain the index holds (1: from
	// genesis); the day holding it is incomplete when it is above 1.
	HistoryFrom(ctx context.Context, chain netinfo.Chain) (uint64, error)
	// ChainBuckets returns chain's stored buckets of granularity g whose
	// Start is in [from, to], newest first, at most limit. Only buckets
	// holding a block are stored.
	ChainBuckets(ctx context.Context, chain netinfo.Chain, g metricdata.Granularity, from, to int64, limit int) ([]metricdata.ChainBucket, error)
	// RunningStateFrom is where chain's running state, the metric rows
	// among it, counts from; ok is false while a back-fill re-derives it.
	RunningStateFrom(ctx context.Context, chain netinfo.Chain) (from uint64, ok bool, err error)
	// ActiveSince counts the distinct addresses that had role on chain in
	// the hour bucket starting at hour or later (their last such hour is
	// at least hour): the distinct counts of a rolling window.
	ActiveSince(ctx context.Context, chain netinfo.Chain, role metricdata.Role, hour int64) (uint64, error)
	// StakingSeries returns a subnet's daily staking figures for the days
	// from the one holding from to the one holding to, newest first, at
	// most limit (getStakingMetrics).
	StakingSeries(ctx context.Context, subnet ids.ID, from, to int64, limit int) (metricdata.StakingSeries, error)
	// ValidatorRewardAddresses lists the validations of a subnet's
	// validators overlapping [from, to] with their reward addresses, after
	// a position, at most limit; known says the subnet exists
	// (getValidatorsByDateRange).
	ValidatorRewardAddresses(ctx context.Context, subnet ids.ID, from, to int64, after *pdata.StakerPos,
		limit int) ([]metricdata.ValidatorRewardAddresses, bool, error)
	// L1FeeSeries returns the daily L1 validator fee series q asks.
	L1FeeSeries(ctx context.Context, q metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error)
}

// server serves the metrics service's operations.
type server struct {
	*api.Core
	reader Reader
	// health judges the health checks (HealthRoutes); nil judges the
	// followers by whether they run.
	health api.HealthReporter
}

// Routes returns the routes of the metrics service.
func Routes(core *api.Core, reader Reader) []api.Route {
	s := &server{Core: core, reader: reader}
	return []api.Route{
		{Name: routeAvgTPS, Method: http.MethodGet, Path: api.MetricsPrefix + "/v1/avg_tps/{chainId}", Summary: "daily average TPS of the P, X or C chain", Handler: s.Adapt(s.serveAvgTPS)},
		{Name: routeGetEvmChainMetrics, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/chains/{chainId}/metrics/{metric}", Summary: "an EVM chain metric over time (or of all EVM chains)", Handler: s.Adapt(s.serveGetEvmChainMetrics)},
		{Name: routeListChains, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/chains", Summary: "EVM chains whose metrics this node serves", Handler: s.Adapt(s.serveListChains)},
		{Name: routeGetChain, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/chains/{chainId}", Summary: "one EVM chain whose metrics this node serves", Handler: s.Adapt(s.serveGetChain)},
		{Name: routeGetEvmChainRollingWindowMetrics, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/chains/{chainId}/rollingWindowMetrics/{metric}", Summary: "an EVM chain metric over rolling windows (or of all EVM chains)", Handler: s.Adapt(s.serveGetEvmChainRollingWindowMetrics)},
		{Name: routeStakingMetrics, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/networks/{network}/metrics/{metric}", Summary: "daily validator and delegator counts and weights of a subnet", Handler: s.Adapt(s.serveStakingMetrics)},
		{Name: routeValidatorsByDateRange, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/subnets/{subnetId}/validators:getAddresses", Summary: "reward addresses of a subnet's validations over a time frame", Handler: s.Adapt(s.serveValidatorsByDateRange)},
		{Name: routeGetMetricsByNodeID, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/validator/{nodeId}/metrics/{metric}", Summary: "daily L1 validator fees of a node", Handler: s.Adapt(s.serveGetMetricsByNodeID)},
		{Name: routeGetMetricsBySubnetID, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/subnet/{subnetId}/metrics/{metric}", Summary: "daily L1 validator fees and paying validators of a subnet", Handler: s.Adapt(s.serveGetMetricsBySubnetID)},
		{Name: routeGetMetricsByValidationID, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/validation/{l1ValidationId}/metrics/{metric}", Summary: "daily fees of an L1 validation", Handler: s.Adapt(s.serveGetMetricsByValidationID)},
		{Name: routeGetTotalL1ValidatorMetrics, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/validators/metrics/{metric}", Summary: "daily L1 validator fees and paying validators of every L1", Handler: s.Adapt(s.serveGetTotalL1ValidatorMetrics)},
	}
}
