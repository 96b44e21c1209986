package vm

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// SignatureAggregatorConfig is the signatureAggregator chain config key.
type SignatureAggregatorConfig struct {
	// Enabled runs the aggregator (default true). Off, it makes no p2p
	// connection and the aggregation endpoints are not served.
	Enabled *bool `json:"enabled"`
	// Timeout bounds one aggregation (default 15s); the request's own time
	// budget (requestTimeout) bounds it too.
	Timeout Duration `json:"timeout"`
	// MaxConcurrent aggregations run at once (default 64); more get a 429.
	MaxConcurrent int `json:"maxConcurrent"`
	// CacheBytes bounds the cache of verified signatures (default 64 MiB).
	CacheBytes int `json:"cacheBytes"`
}

func (c SignatureAggregatorConfig) enabled() bool { return c.Enabled == nil || *c.Enabled }

// sigAggMetricsName prefixes the aggregator's metrics; its p2p network's
// (peers, throttling, bandwidth) follow with p2p_.
const sigAggMetricsName = "sigagg"

// newAggregator builds the signature aggregator, unless the config turns
// it off. Its p2p identity lives next to the index in the chain's data
// directory.
func (vm *VM) newAggregator() error {
	cfg := vm.config.SignatureAggregator
	if !cfg.enabled() {
		return nil
	}
	reg := prometheus.NewRegistry()
	if err := vm.snowCtx.Metrics.Register(sigAggMetricsName, reg); err != nil {
		return fmt.Errorf("registering the signature aggregator's metrics: %w", err)
	}
	agg, err := aggregator.New(aggregator.Params{
		Log:            vm.log,
		NetworkID:      vm.snowCtx.NetworkID,
		HostNodeID:     vm.snowCtx.NodeID,
		ValidatorState: vm.snowCtx.ValidatorState,
		ChainDataDir:   vm.snowCtx.ChainDataDir,
		Metrics:        reg,
		NetworkMetrics: prometheus.WrapRegistererWithPrefix("p2p_", reg),
		Config: aggregator.Config{
			Timeout:       time.Duration(cfg.Timeout),
			MaxConcurrent: cfg.MaxConcurrent,
			CacheBytes:    cfg.CacheBytes,
		},
	})
	if err != nil {
		return fmt.Errorf("creating the signature aggregator: %w", err)
	}
	// GET of a validator's removal needs the tx that created the
	// validation, which only the P-chain index can find.
	if chains, err := vm.config.FollowedChains(); err == nil && slices.Contains(chains, netinfo.P) {
		agg.UseValidationIndex(newValidationIndex(vm.store))
	}
	vm.sigagg = agg
	return nil
}

// validationIndex finds, for the aggregator, the P-chain tx that created
// an L1 validation in the index (store.PrimaryReader.L1ValidationCreator).
type validationIndex struct {
	store  *store.Store
	reader *store.PrimaryReader
}

func newValidationIndex(st *store.Store) validationIndex {
	// The lookup reads rows only; it decodes no tx.
	return validationIndex{store: st, reader: st.PrimaryReader(nil)}
}

func (v validationIndex) ValidationCreator(ctx context.Context, validationID ids.ID) (aggregator.ValidationLookup, error) {
	// The cursor first: the lookup then saw at least the blocks it names.
	cursor, err := v.store.Cursor(ctx, netinfo.P, store.StreamBlocks)
	if err != nil {
		return aggregator.ValidationLookup{}, fmt.Errorf("reading the P-chain index's progress: %w", err)
	}
	creator, found, err := v.reader.L1ValidationCreator(ctx, validationID)
	if err != nil {
		return aggregator.ValidationLookup{}, err
	}
	lookup := aggregator.ValidationLookup{}
	if cursor.NextHeight > 0 {
		lookup.IndexedHeight = cursor.NextHeight - 1
	}
	if found {
		lookup.SignedTx = creator.Bytes
	}
	return lookup, nil
}

// runAggregator connects the aggregator to the validators until ctx ends
// (Shutdown), then closes its connections. It finds the node's API as the
// indexer does.
func (vm *VM) runAggregator(ctx context.Context) {
	vm.sigagg.Run(ctx, func(ctx context.Context) (string, error) {
		return resolveNodeURI(ctx, vm.config.NodeURI, vm.snowCtx.ChainDataDir)
	})
}

// sigAggHealth is the aggregator's part of the health check: its details,
// and a problem ("" when healthy or off).
func (vm *VM) sigAggHealth() (any, string) {
	if vm.sigagg == nil {
		return nil, ""
	}
	h, err := vm.sigagg.Health()
	if err != nil {
		return h, err.Error()
	}
	return h, ""
}
