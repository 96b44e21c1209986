package vm

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/nodeapi"
)

const evmChainIDRetry = time.Second

// connectIndexer finds the node's API and builds the followers reading it
// through the returned client, which the caller closes. The URI is handed
// to the alias task (buffered: it is read at most once).
func (vm *VM) connectIndexer(ctx context.Context) (*indexer.Indexer, *nodeapi.Client, error) {
	uri, err := resolveNodeURI(ctx, vm.config.NodeURI, vm.snowCtx.ChainDataDir)
	if err != nil {
		return nil, nil, err
	}
	vm.nodeURI <- uri
	vm.log.Info("following the node", zap.String("nodeURI", uri))
	client, err := nodeapi.New(uri)
	if err != nil {
		return nil, nil, err
	}
	ix, err := vm.newIndexer(ctx, client)
	if err != nil {
		client.Close()
		return nil, nil, err
	}
	return ix, client, nil
}

func (vm *VM) newIndexer(ctx context.Context, client *nodeapi.Client) (*indexer.Indexer, error) {
	if err := vm.completeNetworkInfo(ctx, client); err != nil {
		return nil, err
	}
	chains, err := vm.config.FollowedChains()
	if err != nil {
		return nil, err
	}
	cfg := follower.Config{PollInterval: time.Duration(vm.config.PollInterval), BatchSize: vm.config.BatchSize}
	ix, err := indexer.New(chains, client, vm.store, cfg, vm.log, vm.metrics)
	if err != nil {
		return nil, fmt.Errorf("creating followers: %w", err)
	}
	return ix, nil
}

// completeNetworkInfo reads the C-chain's EVM chain ID from the node when the
// network is not one whose ID is known.
func (vm *VM) completeNetworkInfo(ctx context.Context, client *nodeapi.Client) error {
	if vm.network.get().EVMChainID != 0 {
		return nil
	}
	for {
		id, err := client.EthChainID(ctx)
		if err == nil {
			vm.network.setEVMChainID(id)
			return nil
		}
		vm.log.Debug("C-chain not answering eth_chainId yet", zap.Error(err))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(evmChainIDRetry):
		}
	}
}
