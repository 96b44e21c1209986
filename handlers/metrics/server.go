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
}

// server serves the metrics service's operations.
type server struct {
	*api.Core
	reader Reader
}

// Routes returns the routes of the metrics service.
func Routes(core *api.Core, reader Reader) []api.Route {
	s := &server{Core: core, reader: reader}
	return []api.Route{
		{Name: routeAvgTPS, Method: http.MethodGet, Path: api.MetricsPrefix + "/v1/avg_tps/{chainId}", Summary: "daily average TPS of the P, X or C chain", Handler: s.Adapt(s.serveAvgTPS)},
		{Name: routeStakingMetrics, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/networks/{network}/metrics/{metric}", Summary: "daily validator and delegator counts and weights of a subnet", Handler: s.Adapt(s.serveStakingMetrics)},
		{Name: routeValidatorsByDateRange, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/subnets/{subnetId}/validators:getAddresses", Summary: "reward addresses of a subnet's validations over a time frame", Handler: s.Adapt(s.serveValidatorsByDateRange)},
	}
}
