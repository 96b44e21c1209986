package localnet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/avadata/avadata/vm"
)

// Start brings up the node with the avadata chain and returns once both are
// healthy. On a data dir without a network it creates one (subnet, chain,
// chain config, one restart); otherwise it starts the existing one. A failed
// Start leaves no node running.
func Start(ctx context.Context, cfg Config) (_ *Network, err error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := cfg.absolutize(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("localnet: creating data dir: %w", err)
	}
	saved, err := readState(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("localnet: %w", err)
	}
	if saved != nil && saved.VMID != vm.ID {
		return nil, fmt.Errorf("localnet: data dir %s holds a chain of VM %s, not %s; delete it to start over",
			cfg.DataDir, saved.VMID, vm.ID)
	}
	if err := checkNodeCount(&cfg, saved); err != nil {
		return nil, err
	}
	if err := cfg.checkSubnetEVMPlugin(saved); err != nil {
		return nil, fmt.Errorf("localnet: %w", err)
	}
	httpPort, stakingPort, err := resolvePorts(&cfg, saved)
	if err != nil {
		return nil, fmt.Errorf("localnet: choosing ports: %w", err)
	}

	n := &Network{cfg: cfg, tail: newTailBuffer(tailBytes)}
	if saved != nil {
		n.state = *saved
	}
	n.state.HTTPPort, n.state.StakingPort = httpPort, stakingPort
	if cfg.multi() {
		if err := n.setUpNodes(saved); err != nil {
			return nil, fmt.Errorf("localnet: %w", err)
		}
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, n.abandon())
		}
	}()

	began := time.Now()
	if saved == nil {
		err = n.createNetwork(ctx)
	} else {
		err = n.resumeNetwork(ctx, saved)
	}
	if err != nil {
		return nil, fmt.Errorf("localnet: %w", err)
	}
	cfg.logf("healthy after %s: %s", time.Since(began).Round(time.Millisecond), n.BaseURL())
	return n, nil
}

// createNetwork is the first run on a data dir: start the node, create the
// avadata chain and, unless skipped, the subnet-evm chain, then restart the
// node so they read their configs (a node reads chain configs only when it
// starts).
//
// A multi-node network starts all its nodes, and before that restart makes
// node 1 a validator of the new chains' subnets, which it then tracks.
func (n *Network) createNetwork(ctx context.Context) error {
	if n.cfg.multi() {
		n.cfg.logf("new network of %d validators in %s", n.cfg.Nodes, n.cfg.DataDir)
	} else {
		n.cfg.logf("new network in %s", n.cfg.DataDir)
	}
	if err := writeEVMChainConfigIfMissing(n.cfg.chainConfigDir(), "C"); err != nil {
		return err
	}
	if err := n.writePeerCChainConfigs(); err != nil {
		return err
	}
	if err := n.launchAll(); err != nil {
		return err
	}
	if err := n.waitAllBootstrapped(ctx); err != nil {
		return err
	}
	genesisBytes := n.cfg.Genesis
	if genesisBytes == nil {
		genesisBytes = DefaultGenesis()
	}
	subnetID, chainID, err := createAvadataChain(ctx, n.URI(), genesisBytes, n.cfg.logf)
	if err != nil {
		return err
	}
	n.state.VMID, n.state.SubnetID, n.state.ChainID = vm.ID, subnetID, chainID
	n.state.CreatedAt = time.Now().UTC()
	// Chain config before state file: a state file must never point at a
	// chain whose config was not written.
	if err := writeAvadataChainConfig(n.cfg.chainConfigDir(), chainID, n.URI(), n.cfg.ChainConfig); err != nil {
		return err
	}
	if err := writeState(n.cfg.DataDir, &n.state); err != nil {
		return err
	}
	if !n.cfg.SkipSubnetEVM {
		if err := n.addSubnetEVM(ctx); err != nil {
			return err
		}
	}
	if err := n.ensureSubnetValidators(ctx); err != nil {
		return err
	}
	n.cfg.logf("restarting the node so the new chains read their configs")
	return n.restartForNewChains(ctx)
}

// resumeNetwork starts the node of an existing data dir, with the chain
// config rewritten from this Config. A data dir from before the subnet-evm
// chain (or made with SkipSubnetEVM) gets it now, unless skipped again.
func (n *Network) resumeNetwork(ctx context.Context, saved *state) error {
	n.cfg.logf("reusing network in %s (avadata chain %s)", n.cfg.DataDir, saved.ChainID)
	if err := writeAvadataChainConfig(n.cfg.chainConfigDir(), saved.ChainID, n.URI(), n.cfg.ChainConfig); err != nil {
		return err
	}
	if s := saved.SubnetEVM; s.created() && n.cfg.SubnetEVMChainConfig != nil {
		if err := writeSubnetEVMChainConfig(n.cfg.chainConfigDir(), s.ChainID.String(), n.cfg.SubnetEVMChainConfig); err != nil {
			return err
		}
	}
	if n.state.HTTPPort != saved.HTTPPort || n.state.StakingPort != saved.StakingPort || !slices.Equal(n.state.Peers, saved.Peers) {
		if err := writeState(n.cfg.DataDir, &n.state); err != nil {
			return err
		}
	}
	if n.state.SubnetEVM.created() || n.cfg.SkipSubnetEVM {
		if err := n.startAndWait(ctx); err != nil {
			return err
		}
		return n.ensureSubnetValidators(ctx)
	}
	if err := n.launchAll(); err != nil {
		return err
	}
	if err := n.waitAllBootstrapped(ctx); err != nil {
		return err
	}
	if err := n.addSubnetEVM(ctx); err != nil {
		return err
	}
	if err := n.ensureSubnetValidators(ctx); err != nil {
		return err
	}
	n.cfg.logf("restarting the node so the subnet-evm chain reads its config")
	return n.restartForNewChains(ctx)
}

// launchAll starts every node of the network, node 1 first, once all their
// ports are known to be free.
func (n *Network) launchAll() error {
	for _, p := range n.peers {
		if err := checkPortsFree(p.httpPort, p.stakingPort); err != nil {
			return fmt.Errorf("%s: %w", p.name(), err)
		}
	}
	if err := n.launch(); err != nil {
		return err
	}
	return n.launchPeers()
}

// restartForNewChains restarts what must restart for chains created on the
// running network to run: the node; on a multi-node network node 1 only,
// which now tracks their subnets (the other nodes run no chain of them).
func (n *Network) restartForNewChains(ctx context.Context) error {
	if !n.cfg.multi() {
		return n.restart(ctx)
	}
	if proc := n.takeProcess(); proc != nil {
		if err := n.stopProcess(ctx, proc, stopGrace); err != nil {
			return err
		}
	}
	if err := n.launch(); err != nil {
		return err
	}
	return n.waitHealthy(ctx)
}

// checkNodeCount refuses a data dir made for another node count: a
// one-node network runs without sybil protection and with an identity of
// its own, a multi-node one is the local genesis's validators.
func checkNodeCount(cfg *Config, saved *state) error {
	if saved == nil || saved.nodeCount() == max(cfg.Nodes, 1) {
		return nil
	}
	return fmt.Errorf("localnet: data dir %s holds a network of %d node(s), not %d: run it with NODES=%d, or delete it (make clean-localnet) or use another data dir for a network of %d",
		cfg.DataDir, saved.nodeCount(), max(cfg.Nodes, 1), saved.nodeCount(), max(cfg.Nodes, 1))
}

// addSubnetEVM creates the subnet-evm chain on the running node, writes its
// chain config and records it in the state file, in that order, like the
// avadata chain.
func (n *Network) addSubnetEVM(ctx context.Context) error {
	s, err := createSubnetEVMChain(ctx, n.URI(), n.cfg.logf)
	if err != nil {
		return err
	}
	if err := writeSubnetEVMChainConfig(n.cfg.chainConfigDir(), s.ChainID.String(), n.cfg.SubnetEVMChainConfig); err != nil {
		return err
	}
	n.state.SubnetEVM = s
	return writeState(n.cfg.DataDir, &n.state)
}
