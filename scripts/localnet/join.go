package localnet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/ids"
)

// JoinConfig describes a node that joins a running one-node local network
// (Network.Join) as a non-validator, the way an operator's node joins
// Fuji or Mainnet: its own data dir, identity, ports and chain configs,
// bootstrapping from node 1. Only DataDir is required; the node binary and
// plugin dir are node 1's.
type JoinConfig struct {
	// DataDir is the joining node's data dir; a node that ran in it before
	// resumes from what it holds.
	DataDir string
	// HTTPPort and StakingPort are its ports; 0 means free loopback ports.
	HTTPPort, StakingPort int
	// ChainConfig holds the avadata chain-config keys of the joining node
	// (nodeURI is always its own URI).
	ChainConfig map[string]any
	// CChainConfig and SubnetEVMChainConfig add keys to (or override keys
	// of) CChainConfig in the joining node's C-chain and subnet-evm chain
	// configs, e.g. StateSyncClientChainConfig.
	CChainConfig, SubnetEVMChainConfig map[string]any
	// ExtraFlags adds or overrides node flags (without the leading "--").
	// Node 1's ExtraFlags are not copied: pass harness-like flags again.
	ExtraFlags map[string]string
	// Stdout and Stderr receive the node's output; nil sends both to
	// <DataDir>/avalanchego-output.log.
	Stdout, Stderr io.Writer
	// Logf, when set, receives one line per step.
	Logf func(format string, args ...any)
}

// joinReservedFlags have JoinConfig fields, or are what makes the node
// join node 1's network; ExtraFlags setting them would make URI() or the
// chain configs lie.
var joinReservedFlags = []string{"data-dir", "plugin-dir", "http-port", "staking-port", "http-host", "chain-config-dir"}

func (c *JoinConfig) validate() error {
	switch {
	case c.DataDir == "":
		return errors.New("localnet: JoinConfig.DataDir is required")
	case c.HTTPPort < 0 || c.HTTPPort > 65535 || c.StakingPort < 0 || c.StakingPort > 65535:
		return fmt.Errorf("localnet: join ports out of range: http %d, staking %d", c.HTTPPort, c.StakingPort)
	case c.HTTPPort != 0 && c.HTTPPort == c.StakingPort:
		return fmt.Errorf("localnet: join http and staking ports are both %d", c.HTTPPort)
	}
	for _, k := range joinReservedFlags {
		if _, ok := c.ExtraFlags[k]; ok {
			return fmt.Errorf("localnet: JoinConfig.ExtraFlags must not set %q", k)
		}
	}
	if _, ok := c.ChainConfig["nodeURI"]; ok {
		return errors.New("localnet: JoinConfig.ChainConfig must not set nodeURI; the joining node's own URI is always used")
	}
	return nil
}

func (c *JoinConfig) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// JoinedNode is a node that joined a local network with Network.Join. It
// runs every chain of the network (the avadata chain too) without
// validating any. Its methods are safe for concurrent use.
type JoinedNode struct {
	net                   *Network
	cfg                   JoinConfig // validated, DataDir absolute
	httpPort, stakingPort int
	tail                  *tailBuffer

	mu   sync.Mutex
	proc *nodeProcess // nil while not running
}

// Join starts a node that joins the running one-node network as a
// non-validator and returns once it is healthy: bootstrapped (or state
// synced) every chain, the EVM chains answering, the avadata chain serving.
//
// With sybil protection off (the one-node network), a node counts every
// connected peer as a validator of every subnet, so the joining node runs
// without it too, bootstraps from node 1 (--bootstrap-ips/-ids), asks only
// node 1 for state summaries (--state-sync-ips/-ids: otherwise it would
// also sample itself, which has none), and tracks the subnets of the
// avadata and subnet-evm chains: a node exchanges a subnet's messages only
// with peers that track it, which node 1 does (see singleNodeFlags).
//
// While the joining node bootstraps, node 1 counts it as a validator that
// does not answer queries yet, so node 1's chains may accept little until
// Join returns. A failed Join leaves the joining node stopped. Network.Stop
// and Network.Kill stop joined nodes too.
func (n *Network) Join(ctx context.Context, jc JoinConfig) (_ *JoinedNode, err error) {
	if n.cfg.multi() {
		return nil, errors.New("localnet: Join supports the one-node network only (sybil protection off)")
	}
	if n.process() == nil {
		return nil, errors.New("localnet: Join: node 1 is not running")
	}
	if err := jc.validate(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(jc.DataDir)
	if err != nil {
		return nil, fmt.Errorf("localnet: making %q absolute: %w", jc.DataDir, err)
	}
	jc.DataDir = abs
	if err := os.MkdirAll(jc.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("localnet: creating the joining node's data dir: %w", err)
	}
	j := &JoinedNode{net: n, cfg: jc, httpPort: jc.HTTPPort, stakingPort: jc.StakingPort, tail: newTailBuffer(tailBytes)}
	if j.httpPort == 0 || j.stakingPort == 0 {
		free, err := freeLoopbackPorts(2)
		if err != nil {
			return nil, fmt.Errorf("localnet: choosing the joining node's ports: %w", err)
		}
		for _, p := range []*int{&j.httpPort, &j.stakingPort} {
			for _, f := range free {
				if *p == 0 && f != j.httpPort && f != j.stakingPort {
					*p = f
				}
			}
		}
	}
	node1, _, err := info.NewClient(n.URI()).GetNodeID(ctx)
	if err != nil {
		return nil, fmt.Errorf("localnet: asking node 1 for its node ID: %w", err)
	}
	if err := j.writeChainConfigs(); err != nil {
		return nil, fmt.Errorf("localnet: %w", err)
	}
	if err := j.launch(node1); err != nil {
		return nil, fmt.Errorf("localnet: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, j.Stop(context.Background()))
		}
	}()
	began := time.Now()
	if err := j.waitHealthy(ctx); err != nil {
		return nil, fmt.Errorf("localnet: %w", err)
	}
	jc.logf("joined node healthy after %s: %s", time.Since(began).Round(time.Millisecond), j.URI())
	n.mu.Lock()
	n.joined = append(n.joined, j)
	n.mu.Unlock()
	return j, nil
}

// singleNodeFlags are node 1's per-node flags on the one-node network: it
// tracks the subnets of its chains, so that a node joining later
// (Network.Join) exchanges those chains' messages with it. Alone, with
// sybil protection off, it runs them whether it tracks them or not.
func (n *Network) singleNodeFlags() map[string]string {
	if n.cfg.multi() {
		return nil
	}
	if s := subnetList(n.trackedSubnets()); s != "" {
		return map[string]string{"track-subnets": s}
	}
	return nil
}

func subnetList(subnets []ids.ID) string {
	s := make([]string, len(subnets))
	for i, id := range subnets {
		s[i] = id.String()
	}
	return strings.Join(s, ",")
}

func (j *JoinedNode) chainConfigDir() string {
	return filepath.Join(j.cfg.DataDir, "configs", "chains")
}

// writeChainConfigs writes the joining node's C-chain, subnet-evm and
// avadata chain configs before it starts.
func (j *JoinedNode) writeChainConfigs() error {
	dir := j.chainConfigDir()
	if err := writeEVMChainConfig(dir, "C", j.cfg.CChainConfig); err != nil {
		return err
	}
	if s := j.net.state.SubnetEVM; s.created() {
		if err := writeEVMChainConfig(dir, s.ChainID.String(), j.cfg.SubnetEVMChainConfig); err != nil {
			return err
		}
	}
	return writeAvadataChainConfig(dir, j.net.state.ChainID, j.URI(), j.cfg.ChainConfig)
}

// launch starts the joining node, bootstrapping and state-syncing from
// node 1 (whose ID is node1).
func (j *JoinedNode) launch(node1 ids.NodeID) error {
	if err := checkNoNodeRunningIn(filepath.Join(j.cfg.DataDir, "process.json"), j.cfg.DataDir); err != nil {
		return err
	}
	if err := checkPortsFree(j.httpPort, j.stakingPort); err != nil {
		return fmt.Errorf("joining node: %w", err)
	}
	stdout, stderr, closeOutput := j.cfg.Stdout, j.cfg.Stderr, func() {}
	if stdout == nil || stderr == nil {
		f, err := os.OpenFile(filepath.Join(j.cfg.DataDir, outputFileName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("opening the joining node's output file: %w", err)
		}
		closeOutput = func() { _ = f.Close() }
		if stdout == nil {
			stdout = f
		}
		if stderr == nil {
			stderr = f
		}
	}
	if sameWriter(stdout, stderr) {
		stdout = io.MultiWriter(stdout, j.tail)
		stderr = stdout
	} else {
		stdout, stderr = io.MultiWriter(stdout, j.tail), io.MultiWriter(stderr, j.tail)
	}
	node1IP := "127.0.0.1:" + strconv.Itoa(j.net.state.StakingPort)
	flags := map[string]string{
		"bootstrap-ips":                           node1IP,
		"bootstrap-ids":                           node1.String(),
		"state-sync-ips":                          node1IP,
		"state-sync-ids":                          node1.String(),
		"network-max-reconnect-delay":             "1s",
		"network-peer-list-pull-gossip-frequency": "250ms",
	}
	if s := subnetList(j.net.trackedSubnets()); s != "" {
		flags["track-subnets"] = s
	}
	base := Config{PluginDir: j.net.cfg.PluginDir, ExtraFlags: j.cfg.ExtraFlags}
	args := base.argsFor(j.cfg.DataDir, j.httpPort, j.stakingPort, flags)
	proc, err := startNodeProcess(j.net.cfg.AvalancheGoPath, args, stdout, stderr, closeOutput)
	if err != nil {
		closeOutput()
		return err
	}
	j.mu.Lock()
	j.proc = proc
	j.mu.Unlock()
	j.cfg.logf("joining node started (pid %d) at %s, bootstrapping from node 1 (%s)", proc.pid(), j.URI(), node1)
	return nil
}

// waitHealthy waits until /ext/health answers 200, both EVM chains answer
// eth_chainId and the avadata chain's routes answer on the joining node.
func (j *JoinedNode) waitHealthy(ctx context.Context) error {
	proc := j.process()
	if proc == nil {
		return errors.New("joining node is not running")
	}
	var (
		healthDue     time.Time
		healthProblem = "not checked yet"
	)
	return pollNode(ctx, proc, j.tail, j.LogDir(), "the joining node and its avadata chain to be healthy", func(ctx context.Context) (string, bool) {
		if now := time.Now(); now.After(healthDue) {
			var fatal bool
			healthProblem, fatal = nodeHealthProblem(ctx, j.URI())
			if fatal {
				return healthProblem, true
			}
			healthDue = now.Add(healthEvery)
		}
		if healthProblem != "" {
			return healthProblem, false
		}
		if p := routeProblem(ctx, j.ChainURL()+"/"); p != "" {
			return p, false
		}
		for _, chain := range j.EVMChains() {
			if p := evmChainProblem(ctx, chain); p != "" {
				return p, false
			}
		}
		if j.alias() != "" {
			return routeProblem(ctx, j.BaseURL()+"/"), false
		}
		return "", false
	})
}

// URI is the joining node's HTTP address.
func (j *JoinedNode) URI() string { return "http://127.0.0.1:" + strconv.Itoa(j.httpPort) }

// StakingPort is the joining node's staking (P2P) port.
func (j *JoinedNode) StakingPort() int { return j.stakingPort }

// DataDir is the joining node's data dir (absolute).
func (j *JoinedNode) DataDir() string { return j.cfg.DataDir }

// LogDir holds the joining node's log files.
func (j *JoinedNode) LogDir() string { return filepath.Join(j.cfg.DataDir, "logs") }

// ChainURL is the joining node's avadata API under the chain ID.
func (j *JoinedNode) ChainURL() string { return j.URI() + "/ext/bc/" + j.net.state.ChainID.String() }

// BaseURL is the joining node's avadata API under its alias (ChainURL when
// aliasing is off).
func (j *JoinedNode) BaseURL() string {
	if a := j.alias(); a != "" {
		return j.URI() + "/ext/bc/" + a
	}
	return j.ChainURL()
}

func (j *JoinedNode) alias() string {
	if a, ok := j.cfg.ChainConfig["alias"].(string); ok {
		return a
	}
	return defaultAlias
}

// EVMChains are the network's EVM chains as the joining node serves them.
func (j *JoinedNode) EVMChains() []EVMChain {
	chains := j.net.EVMChains()
	for i := range chains {
		chains[i].RPCURL = j.URI() + strings.TrimPrefix(chains[i].RPCURL, j.net.URI())
	}
	return chains
}

// PID is the joining node's process ID, 0 while it is not running.
func (j *JoinedNode) PID() int {
	if p := j.process(); p != nil {
		return p.pid()
	}
	return 0
}

// Exited returns a channel closed when the joining node's process exits;
// already closed when it does not run.
func (j *JoinedNode) Exited() <-chan struct{} {
	if p := j.process(); p != nil {
		return p.done
	}
	closed := make(chan struct{})
	close(closed)
	return closed
}

func (j *JoinedNode) process() *nodeProcess {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.proc
}

func (j *JoinedNode) takeProcess() *nodeProcess {
	j.mu.Lock()
	defer j.mu.Unlock()
	p := j.proc
	j.proc = nil
	return p
}

// Stop shuts the joining node down: SIGTERM, then SIGKILL of the node and
// its plugins after 30 s or when ctx ends. Stopping a stopped node is a
// no-op.
func (j *JoinedNode) Stop(ctx context.Context) error {
	proc := j.takeProcess()
	if proc == nil {
		return nil
	}
	escalated, err := proc.stop(ctx, stopGrace)
	if err != nil {
		return fmt.Errorf("localnet: stopping the joining node pid %d: %w", proc.pid(), err)
	}
	if escalated {
		j.cfg.logf("joining node pid %d did not stop in time and was killed", proc.pid())
	}
	return nil
}

// Kill SIGKILLs the joining node and its plugins, like a crash.
func (j *JoinedNode) Kill() error {
	proc := j.takeProcess()
	if proc == nil {
		return nil
	}
	if err := proc.kill(); err != nil {
		return fmt.Errorf("localnet: killing the joining node pid %d: %w", proc.pid(), err)
	}
	return nil
}

// joinedNodes are the nodes that joined the network (Join).
func (n *Network) joinedNodes() []*JoinedNode {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]*JoinedNode(nil), n.joined...)
}
