package localnet

import (
	"context"
	"errors"
	"fmt"
	"os"
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
func (n *Network) createNetwork(ctx context.Context) error {
	n.cfg.logf("new network in %s", n.cfg.DataDir)
	if err := writeEVMChainConfigIfMissing(n.cfg.chainConfigDir(), "C"); err != nil {
		return err
	}
	if err := n.launch(); err != nil {
		return err
	}
	if err := n.waitBootstrapped(ctx, n.process()); err != nil {
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
	n.cfg.logf("restarting the node so the new chains read their configs")
	return n.restart(ctx)
}

// resumeNetwork starts the node of an existing data dir, with the chain
// config rewritten from this Config. A data dir from before the subnet-evm
// chain (or made with SkipSubnetEVM) gets it now, unless skipped again.
func (n *Network) resumeNetwork(ctx context.Context, saved *state) error {
	n.cfg.logf("reusing network in %s (avadata chain %s)", n.cfg.DataDir, saved.ChainID)
	if err := writeAvadataChainConfig(n.cfg.chainConfigDir(), saved.ChainID, n.URI(), n.cfg.ChainConfig); err != nil {
		return err
	}
	if n.state.HTTPPort != saved.HTTPPort || n.state.StakingPort != saved.StakingPort {
		if err := writeState(n.cfg.DataDir, &n.state); err != nil {
			return err
		}
	}
	if n.state.SubnetEVM.created() || n.cfg.SkipSubnetEVM {
		return n.startAndWait(ctx)
	}
	if err := n.launch(); err != nil {
		return err
	}
	if err := n.waitBootstrapped(ctx, n.process()); err != nil {
		return err
	}
	if err := n.addSubnetEVM(ctx); err != nil {
		return err
	}
	n.cfg.logf("restarting the node so the subnet-evm chain reads its config")
	return n.restart(ctx)
}

// addSubnetEVM creates the subnet-evm chain on the running node, writes its
// chain config and records it in the state file, in that order, like the
// avadata chain.
func (n *Network) addSubnetEVM(ctx context.Context) error {
	s, err := createSubnetEVMChain(ctx, n.URI(), n.cfg.logf)
	if err != nil {
		return err
	}
	if err := writeEVMChainConfigIfMissing(n.cfg.chainConfigDir(), s.ChainID.String()); err != nil {
		return err
	}
	n.state.SubnetEVM = s
	return writeState(n.cfg.DataDir, &n.state)
}
