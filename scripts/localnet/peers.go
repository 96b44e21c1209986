package localnet

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
)

// peer is one of nodes 2 to 5 of a multi-node network: a validator of the
// primary network only, without the avadata chain. Node 1 is the Network
// itself.
type peer struct {
	index                 int // 2..Nodes
	dataDir               string
	httpPort, stakingPort int
	id                    identity
	tail                  *tailBuffer
	proc                  *nodeProcess // guarded by Network.mu; nil while not running
}

func (p *peer) uri() string    { return "http://127.0.0.1:" + strconv.Itoa(p.httpPort) }
func (p *peer) logDir() string { return filepath.Join(p.dataDir, "logs") }
func (p *peer) name() string   { return "node " + strconv.Itoa(p.index) }

// peerDataDir is the data dir of node i (2..5) under node 1's.
func peerDataDir(dataDir string, i int) string {
	return filepath.Join(dataDir, "nodes", "node"+strconv.Itoa(i))
}

// resolvePeerPorts picks the ports of nodes 2 to Nodes like resolvePorts
// does node 1's: following node 1's explicit ports two by two (9652/9653,
// 9654/9655, ... after 9650/9651), else the saved ones, else free ones.
func resolvePeerPorts(cfg *Config, saved *state, httpPort, stakingPort int) ([]peerState, error) {
	count := cfg.Nodes - 1
	peers := make([]peerState, count)
	if saved != nil && len(saved.Peers) == count {
		copy(peers, saved.Peers)
	}
	free, err := freeLoopbackPorts(2 * count)
	if err != nil {
		return nil, err
	}
	for j := range peers {
		step := 2 * (j + 1)
		switch {
		case cfg.HTTPPort != 0:
			peers[j].HTTPPort = cfg.HTTPPort + step
		case peers[j].HTTPPort == 0:
			peers[j].HTTPPort = free[2*j]
		}
		switch {
		case cfg.StakingPort != 0:
			peers[j].StakingPort = cfg.StakingPort + step
		case peers[j].StakingPort == 0:
			peers[j].StakingPort = free[2*j+1]
		}
	}
	used := map[int]string{httpPort: "node 1's HTTP port", stakingPort: "node 1's staking port"}
	for j, p := range peers {
		for port, what := range map[int]string{p.HTTPPort: "HTTP", p.StakingPort: "staking"} {
			if port < 1 || port > 65535 {
				return nil, fmt.Errorf("node %d's %s port %d is out of range", j+2, what, port)
			}
			if other, dup := used[port]; dup {
				return nil, fmt.Errorf("node %d's %s port %d is also %s", j+2, what, port, other)
			}
			used[port] = fmt.Sprintf("node %d's %s port", j+2, what)
		}
	}
	return peers, nil
}

// setUpNodes gives a multi-node network its nodes' identities and ports:
// node 1 in DataDir, nodes 2 to Nodes under it.
func (n *Network) setUpNodes(saved *state) error {
	id, err := installLocalIdentity(n.cfg.DataDir, n.cfg.LocalStakingDir, 1)
	if err != nil {
		return err
	}
	n.id = id
	ports, err := resolvePeerPorts(&n.cfg, saved, n.state.HTTPPort, n.state.StakingPort)
	if err != nil {
		return fmt.Errorf("choosing the other nodes' ports: %w", err)
	}
	n.state.Nodes, n.state.Peers = n.cfg.Nodes, ports
	for j, ps := range ports {
		p := &peer{index: j + 2, httpPort: ps.HTTPPort, stakingPort: ps.StakingPort, tail: newTailBuffer(tailBytes)}
		p.dataDir = peerDataDir(n.cfg.DataDir, p.index)
		if p.id, err = installLocalIdentity(p.dataDir, n.cfg.LocalStakingDir, p.index); err != nil {
			return err
		}
		n.peers = append(n.peers, p)
	}
	return nil
}

// multiNodeFlags are the flags that make node self (1..Nodes) one of the
// local network's validators: sybil protection on, its genesis identity,
// every other node as a bootstrapper (so a node restarted alone catches up
// with the others), and quick reconnects on the loopback. Node 1 also
// tracks the subnets of the chains it runs, and runs with
// AggregatorHostFlags: its avadata plugin hosts the signature aggregator.
func (n *Network) multiNodeFlags(self int) map[string]string {
	var ips, nodeIDs []string
	add := func(stakingPort int, nodeID ids.NodeID) {
		ips = append(ips, "127.0.0.1:"+strconv.Itoa(stakingPort))
		nodeIDs = append(nodeIDs, nodeID.String())
	}
	id := n.id
	if self != 1 {
		add(n.state.StakingPort, n.id.nodeID)
	}
	for _, p := range n.peers {
		if p.index == self {
			id = p.id
			continue
		}
		add(p.stakingPort, p.id.nodeID)
	}
	flags := map[string]string{
		"sybil-protection-enabled":                "true",
		"staking-tls-cert-file":                   id.certFile,
		"staking-tls-key-file":                    id.keyFile,
		"staking-signer-key-file":                 id.signerFile,
		"bootstrap-ips":                           strings.Join(ips, ","),
		"bootstrap-ids":                           strings.Join(nodeIDs, ","),
		"network-max-reconnect-delay":             "1s",
		"network-peer-list-pull-gossip-frequency": "250ms",
	}
	if self == 1 {
		var subnets []string
		for _, s := range n.trackedSubnets() {
			subnets = append(subnets, s.String())
		}
		if len(subnets) > 0 {
			flags["track-subnets"] = strings.Join(subnets, ",")
		}
		maps.Copy(flags, AggregatorHostFlags())
	}
	return flags
}

// AggregatorHostFlags are the node flags of a node whose avadata plugin
// hosts the signature aggregator (avalanchego v1.14.2, config/flags.go).
//
// The aggregator is a non-validator peer of its own host, and the host
// counts the plugin process's CPU as its own (rpcchainvm tracks the plugin
// process), shared among the peers by how long their messages take to
// process: under load mostly the aggregator's. The inbound CPU throttler
// gives a non-validator min(max-non-validator-usage - the node's usage,
// max-non-validator-node-usage), by default min(0.8×NumCPU - usage,
// NumCPU/8), and stops reading a peer's connection while its share is
// above that: under sustained load the host's own signatures then arrive
// late or not at all. A peer's share is at most the node's usage, itself at
// most NumCPU; with these values the allowance never falls below it, so
// the host never stops reading the aggregator. They are the smallest that
// guarantee it at full load; other non-validator peers are then no longer
// CPU-throttled by that node either. The bandwidth, message-count and byte
// throttlers' defaults (512 KiB/s, 1,024 messages and 2 MiB per peer) are
// far above what the aggregator's small requests use.
func AggregatorHostFlags() map[string]string {
	cpus := float64(runtime.NumCPU())
	return map[string]string{
		"throttler-inbound-cpu-max-non-validator-usage":      strconv.FormatFloat(2*cpus, 'f', -1, 64),
		"throttler-inbound-cpu-max-non-validator-node-usage": strconv.FormatFloat(cpus, 'f', -1, 64),
	}
}

// trackedSubnets are the subnets of the chains node 1 runs besides the
// primary network's: with sybil protection on, a node runs only the chains
// of subnets it tracks.
func (n *Network) trackedSubnets() []ids.ID {
	var subnets []ids.ID
	if n.state.SubnetID != ids.Empty {
		subnets = append(subnets, n.state.SubnetID)
	}
	if n.state.SubnetEVM.created() {
		subnets = append(subnets, n.state.SubnetEVM.SubnetID)
	}
	return subnets
}

// launchPeers starts nodes 2 to Nodes; a no-op on a one-node network.
func (n *Network) launchPeers() error {
	for _, p := range n.peers {
		if err := n.launchPeer(p); err != nil {
			return err
		}
	}
	return nil
}

func (n *Network) launchPeer(p *peer) error {
	n.mu.Lock()
	running := p.proc != nil
	n.mu.Unlock()
	if running {
		return fmt.Errorf("%s already running", p.name())
	}
	if err := checkNoNodeRunningIn(filepath.Join(p.dataDir, "process.json"), p.dataDir); err != nil {
		return err
	}
	if err := checkPortsFree(p.httpPort, p.stakingPort); err != nil {
		return fmt.Errorf("%s: %w", p.name(), err)
	}
	f, err := os.OpenFile(filepath.Join(p.dataDir, outputFileName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s's output file: %w", p.name(), err)
	}
	out := io.MultiWriter(f, p.tail) // one writer for both streams: one goroutine feeds it
	args := n.cfg.argsFor(p.dataDir, p.httpPort, p.stakingPort, n.multiNodeFlags(p.index))
	proc, err := startNodeProcess(n.cfg.AvalancheGoPath, args, out, out, func() { _ = f.Close() })
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("%s: %w", p.name(), err)
	}
	n.mu.Lock()
	p.proc = proc
	n.mu.Unlock()
	n.cfg.logf("%s started (pid %d) at %s", p.name(), proc.pid(), p.uri())
	return nil
}

// writePeerCChainConfigs gives nodes 2 to Nodes the C-chain config node 1
// has: whichever validator proposes a C-chain block sets its block delay.
func (n *Network) writePeerCChainConfigs() error {
	for _, p := range n.peers {
		if err := writeEVMChainConfigIfMissing(filepath.Join(p.dataDir, "configs", "chains"), "C"); err != nil {
			return fmt.Errorf("%s: %w", p.name(), err)
		}
	}
	return nil
}
