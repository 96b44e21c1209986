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

// connectIndexer finds the node's API, resolves the chains to follow and
// builds their followers; the caller closes the returned indexer after
// running it. The URI is handed to the alias task (buffered: it is read at
// most once).
func (vm *VM) connectIndexer(ctx context.Context) (*indexer.Indexer, *nodeapi.Client, error) {
	uri, err := resolveNodeURI(ctx, vm.config.NodeURI, vm.snowCtx.ChainDataDir)
	if err != nil {
		return nil, nil, err
	}
	vm.nodeURI <- uri
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
		},
		PrimaryPollInterval: time.Duration(vm.config.PrimaryPollInterval),
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
