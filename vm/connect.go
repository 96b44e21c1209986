package vm

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/evmmeta"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// connectRetryMax bounds the wait between two attempts to connect the
// indexer.
const connectRetryMax = 30 * time.Second

// connectIndexerRetrying connects the indexer, retrying with backoff until
// it succeeds or ctx ends (Shutdown). A node that restarts with sybil
// protection on answers its P-chain API with 503 until it has bootstrapped
// from its peers, which can take minutes after this chain started; giving up
// on the first error left the plugin without an index until the next
// restart. Each failure is the startup error that status and health show
// until an attempt succeeds.
func (vm *VM) connectIndexerRetrying(ctx context.Context) (*indexer.Indexer, *nodeapi.Client, error) {
	backoff := time.Second
	for attempt := 1; ; attempt++ {
		ix, client, err := vm.connectIndexer(ctx)
		if err == nil {
			vm.setStartupErr(nil)
			return ix, client, nil
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		vm.setStartupErr(err)
		vm.log.Warn("indexer not started yet, retrying", zap.Error(err),
			zap.Int("attempt", attempt), zap.Duration("retryIn", backoff))
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, connectRetryMax)
	}
}

// connectIndexer finds the node's API, resolves the chains to follow and
// builds their followers; the caller closes the returned indexer after
// running it. The URI is handed to the alias task (buffered: it is read at
// most once, so a retry does not hand it again).
func (vm *VM) connectIndexer(ctx context.Context) (*indexer.Indexer, *nodeapi.Client, error) {
	uri, err := resolveNodeURI(ctx, vm.config.NodeURI, vm.snowCtx.ChainDataDir)
	if err != nil {
		return nil, nil, err
	}
	select {
	case vm.nodeURI <- uri:
	default:
	}
	vm.log.Info("following the node", zap.String("nodeURI", uri))
	client := nodeapi.New(uri)
	chains, err := vm.resolveChains(ctx, client)
	if err != nil {
		return nil, nil, fmt.Errorf("resolving the chains to follow: %w", err)
	}
	vm.network.setChains(mergeChains(vm.network.get().Chains, chains))
	cfg := indexer.Config{
		Follower: follower.Config{
			PollInterval: time.Duration(vm.config.PollInterval),
			BatchSize:    vm.config.BatchSize,
			Fetchers:     vm.config.Fetchers,
			// The back-fill's pace (follower/backfill.go).
			BackfillRate: vm.config.BackfillBlocksPerSecond,
		},
		PrimaryPollInterval: time.Duration(vm.config.PrimaryPollInterval),
		IndexFrom:           vm.config.IndexFrom.For,
		Network:             vm.network.get(),
		Upgrades:            vm.snowCtx.NetworkUpgrades,
		Trace:               *vm.config.TraceInternalTxs,
		Fetch: evmmeta.FetchOptions{
			Enabled:     vm.config.NFTMetadata.Fetch,
			IPFSGateway: vm.config.NFTMetadata.IPFSGateway,
			Timeout:     time.Duration(vm.config.NFTMetadata.Timeout),
			MaxBytes:    vm.config.NFTMetadata.MaxBytes,
		},
	}
	ix, err := indexer.New(ctx, chains, client, vm.store, cfg, vm.log, vm.metrics)
	if err != nil {
		return nil, nil, fmt.Errorf("creating followers: %w", err)
	}
	return ix, client, nil
}
