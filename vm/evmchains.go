package vm

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
)

const (
	// evmProbeTimeout bounds the eth_chainId that tells whether the node
	// runs a chain as an EVM chain.
	evmProbeTimeout = 3 * time.Second
	// evmProbes is how many chains are probed at once.
	evmProbes   = 8
	cChainRetry = time.Second
	// discoverFirst and discoverEvery space the looks for EVM chains that
	// appear after start: often at first (a chain the node is still
	// starting), then once a minute.
	discoverFirst = 2 * time.Second
	discoverEvery = time.Minute
)

// resolveChains returns the chains to follow: the configured primary chains,
// then the EVM chains the config selects, each EVM chain with its eth_chainId
// and, beyond P/X/C, its number from the store's registry.
func (vm *VM) resolveChains(ctx context.Context, client *nodeapi.Client) ([]netinfo.ChainInfo, error) {
	primary, err := vm.primaryChains(ctx, client)
	if err != nil {
		return nil, err
	}
	others, err := vm.otherEVMChains(ctx, client)
	if err != nil {
		return nil, err
	}
	return append(primary, others...), nil
}

// primaryChains returns P, X and C as configured, waiting for the C-chain to
// answer eth_chainId on a network whose C-chain id is not well known.
func (vm *VM) primaryChains(ctx context.Context, client *nodeapi.Client) ([]netinfo.ChainInfo, error) {
	followed, err := vm.config.FollowedChains()
	if err != nil {
		return nil, err
	}
	var out []netinfo.ChainInfo
	for _, ci := range vm.network.get().Chains {
		if !ci.Chain.IsPrimary() || !slices.Contains(followed, ci.Chain) {
			continue
		}
		if ci.IsEVM() && ci.EVMChainID == 0 {
			if ci.EVMChainID, err = waitEVMChainID(ctx, client.URI(), ci.BlockchainID.String(), vm); err != nil {
				return nil, err
			}
		}
		out = append(out, ci)
	}
	return out, nil
}

func waitEVMChainID(ctx context.Context, uri, chain string, vm *VM) (uint64, error) {
	for {
		id, err := probeEVMChainID(ctx, uri, chain)
		if err == nil {
			return id, nil
		}
		vm.log.Debug("chain not answering eth_chainId yet", zap.String("chain", chain), zap.Error(err))
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(cChainRetry):
		}
	}
}

// otherEVMChains resolves the evmChains selection: every chain the node runs
// as an EVM chain ("tracked"), or the listed ones.
func (vm *VM) otherEVMChains(ctx context.Context, client *nodeapi.Client) ([]netinfo.ChainInfo, error) {
	sel := vm.config.EVMChains
	if !sel.Tracked && len(sel.Chains) == 0 {
		return nil, nil
	}
	all, err := client.Platform.GetBlockchains(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the P-chain's blockchains: %w", err)
	}
	candidates, err := vm.selectCandidates(ctx, client, all)
	if err != nil {
		return nil, err
	}
	found := vm.probeEVMChains(ctx, client.URI(), candidates)
	var out []netinfo.ChainInfo
	for _, ci := range found {
		if ci.Chain, err = vm.store.RegisterChain(ctx, ci.BlockchainID); err != nil {
			return nil, err
		}
		vm.log.Info("following EVM chain", zap.String("name", ci.Name), zap.Stringer("blockchainID", ci.BlockchainID),
			zap.Uint64("evmChainID", ci.EVMChainID))
		out = append(out, ci)
	}
	return out, nil
}

// discoverEVMChains looks for selected EVM chains that did not answer at
// start (the node starts its chains in no fixed order, and creates chains
// of tracked subnets while it runs) and follows each one that appears.
func (vm *VM) discoverEVMChains(ctx context.Context, ix *indexer.Indexer, client *nodeapi.Client) {
	sel := vm.config.EVMChains
	if !sel.Tracked && len(sel.Chains) == 0 {
		return
	}
	for wait := discoverFirst; ; wait = min(2*wait, discoverEvery) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		found, err := vm.otherEVMChains(ctx, client)
		if err != nil {
			vm.log.Debug("looking for new EVM chains", zap.Error(err))
			continue
		}
		for _, ci := range found {
			if err := ix.AddChain(ctx, ci); err != nil {
				vm.log.Warn("could not follow a new EVM chain", zap.String("name", ci.Name), zap.Error(err))
				continue
			}
			vm.network.setChains(append(vm.network.get().Chains, ci))
		}
	}
}

// selectCandidates picks the chains to probe: all but P/X/C and avadata's
// own chain when tracking, else the listed ones (a listed name that is not a
// blockchain ID is resolved as one of the node's aliases).
func (vm *VM) selectCandidates(ctx context.Context, client *nodeapi.Client, all []platformvm.APIBlockchain) ([]netinfo.ChainInfo, error) {
	skip := map[ids.ID]bool{vm.snowCtx.ChainID: true}
	for _, ci := range vm.network.get().Chains {
		skip[ci.BlockchainID] = true
	}
	byID := map[ids.ID]platformvm.APIBlockchain{}
	for _, b := range all {
		byID[b.ID] = b
	}
	var chosen []ids.ID
	if vm.config.EVMChains.Tracked {
		for _, b := range all {
			chosen = append(chosen, b.ID)
		}
	} else {
		for _, name := range vm.config.EVMChains.Chains {
			id, err := resolveBlockchainID(ctx, client, name)
			if err != nil {
				return nil, fmt.Errorf("evmChains: %w", err)
			}
			chosen = append(chosen, id)
		}
	}
	names := map[string]bool{}
	for _, ci := range vm.network.get().Chains {
		names[ci.Name] = true
	}
	var out []netinfo.ChainInfo
	for _, id := range chosen {
		if skip[id] {
			continue
		}
		skip[id] = true
		b := byID[id]
		out = append(out, netinfo.ChainInfo{Kind: netinfo.KindEVM, BlockchainID: id, SubnetID: b.SubnetID,
			Name: uniqueName(b.Name, id, names)})
	}
	return out, nil
}

// uniqueName keeps chain names, which the P-chain does not make unique,
// apart in logs, status and metric labels: a name already taken gets the
// start of the blockchain ID appended.
func uniqueName(name string, id ids.ID, taken map[string]bool) string {
	if name == "" {
		name = id.String()
	}
	if taken[name] {
		name += "-" + id.String()[:8]
	}
	taken[name] = true
	return name
}

func resolveBlockchainID(ctx context.Context, client *nodeapi.Client, name string) (ids.ID, error) {
	if id, err := ids.FromString(name); err == nil {
		return id, nil
	}
	id, err := client.Info.GetBlockchainID(ctx, name)
	if err != nil {
		return ids.Empty, fmt.Errorf("%q is neither a blockchain ID nor an alias the node knows: %w", name, err)
	}
	return id, nil
}

// probeEVMChains keeps the candidates that answer eth_chainId, in order. A
// listed chain that does not answer is logged, not fatal: the other chains
// are still followed.
func (vm *VM) probeEVMChains(ctx context.Context, uri string, candidates []netinfo.ChainInfo) []netinfo.ChainInfo {
	answered := make([]bool, len(candidates))
	sem := make(chan struct{}, evmProbes)
	var wg sync.WaitGroup
	for i := range candidates {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			id, err := probeEVMChainID(ctx, uri, candidates[i].BlockchainID.String())
			if err != nil {
				if !vm.config.EVMChains.Tracked {
					vm.log.Error("listed EVM chain does not answer eth_chainId; not following it",
						zap.Stringer("blockchainID", candidates[i].BlockchainID), zap.Error(err))
				}
				return
			}
			candidates[i].EVMChainID, answered[i] = id, true
		}()
	}
	wg.Wait()
	var out []netinfo.ChainInfo
	for i, ok := range answered {
		if ok {
			out = append(out, candidates[i])
		}
	}
	return out
}

func probeEVMChainID(ctx context.Context, uri, chain string) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, evmProbeTimeout)
	defer cancel()
	c, err := nodeapi.DialEVM(ctx, uri, chain)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	id, err := c.ChainID(ctx)
	if err != nil {
		return 0, err
	}
	if !id.IsUint64() {
		return 0, fmt.Errorf("chain %s has an EVM chain id beyond 64 bits (%s)", chain, id)
	}
	return id.Uint64(), nil
}
