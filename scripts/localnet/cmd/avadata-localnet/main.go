// Command avadata-localnet runs a single local avalanchego node with the
// avadata chain in the foreground (`make run`): it creates the network on the
// first run, reuses the data dir afterwards, seeds a new data dir with sample
// activity (--seed), prints the URLs and examples to try, and stops the node
// cleanly on Ctrl-C or SIGTERM. With --nodes=5 (`make run NODES=5`) the local
// network is run by the five validators its genesis names, with sybil
// protection on, node 1 hosting the avadata chain on the same URLs; its
// validators sign warp messages, so the examples include an aggregation.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/scripts/seed"
)

// stopTimeout bounds the final stop; past stopGrace the library kills the node.
const stopTimeout = time.Minute

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "avadata-localnet:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		cfg         localnet.Config
		chainConfig string
		nodeFlags   string
		showOutput  bool
		doSeed      bool
	)
	flag.StringVar(&cfg.AvalancheGoPath, "avalanchego", "build/avalanchego", "avalanchego binary")
	flag.StringVar(&cfg.PluginDir, "plugin-dir", "build/plugins", "directory holding the avadata plugin named after its VM ID")
	flag.StringVar(&cfg.DataDir, "data-dir", ".localnet", "node data dir; reused when it already holds the network")
	flag.IntVar(&cfg.HTTPPort, "http-port", 9650, "node HTTP port")
	flag.IntVar(&cfg.StakingPort, "staking-port", 9651, "node staking port")
	flag.StringVar(&chainConfig, "chain-config", "", `extra avadata chain-config keys as a JSON object, e.g. '{"apiKeys":["k"]}'`)
	flag.StringVar(&nodeFlags, "node-flags", "", `extra node flags as on its command line, e.g. "--min-stake-duration=1m --log-level=debug"`)
	flag.BoolVar(&showOutput, "show-node-output", false, "stream the node's output here instead of into a file in the data dir")
	flag.BoolVar(&doSeed, "seed", true, "on a data dir not seeded yet, make sample activity on P, X and C and print examples that show it")
	flag.BoolVar(&cfg.SkipSubnetEVM, "skip-subnet-evm", false, "do not create the subnet-evm chain (EVM chain ID 99999) on a data dir that has none")
	flag.IntVar(&cfg.Nodes, "nodes", 1, fmt.Sprintf("1, or %d for the local network's %d genesis validators with sybil protection on (node 1 on the ports above, the others on the next ones)", localnet.LocalValidators, localnet.LocalValidators))
	flag.StringVar(&cfg.LocalStakingDir, "local-staking-dir", "", "the avalanchego module's staking/local dir, whose validator keys a new multi-node network copies")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", flag.Args())
	}
	if chainConfig != "" {
		if err := json.Unmarshal([]byte(chainConfig), &cfg.ChainConfig); err != nil {
			return fmt.Errorf("--chain-config must be a JSON object: %w", err)
		}
	}
	var err error
	if cfg.ExtraFlags, err = localnet.ParseNodeFlags(nodeFlags); err != nil {
		return fmt.Errorf("--node-flags: %w", err)
	}
	if showOutput {
		cfg.Stdout, cfg.Stderr = os.Stdout, os.Stdout
	}
	cfg.Logf = func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s  %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
	}

	// A terminal's Ctrl-C reaches this process only: the node runs in its own
	// process group, and is stopped below, in order.
	ctx, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()

	began := time.Now()
	network, err := localnet.Start(ctx, cfg)
	if err != nil {
		return err
	}
	sample := sampleOf(ctx, network, doSeed, cfg.Logf)
	printSummary(os.Stdout, network, sample, time.Since(began))

	var exitErr error
	select {
	case <-ctx.Done():
		fmt.Fprintf(os.Stderr, "stopping %s...\n", nodesWord(network))
	case <-network.Exited():
		exitErr = errors.New("the node exited on its own; see its logs in " + network.LogDir())
		if len(network.Nodes()) > 1 {
			exitErr = errors.New("a node exited on its own; see the logs in " + logDirs(network))
		}
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), stopTimeout)
	defer cancel()
	stopped := time.Now()
	if err := network.Stop(stopCtx); err != nil {
		return errors.Join(exitErr, err)
	}
	if exitErr == nil {
		what := "node"
		if nodes := network.Nodes(); len(nodes) > 1 {
			what = fmt.Sprintf("%d nodes", len(nodes))
		}
		fmt.Fprintf(os.Stderr, "%s stopped in %s\n", what, time.Since(stopped).Round(time.Millisecond))
	}
	return exitErr
}

// nodesWord is "the node" for one node, "the 5 nodes" for five.
func nodesWord(n *localnet.Network) string {
	if nodes := n.Nodes(); len(nodes) > 1 {
		return fmt.Sprintf("the %d nodes", len(nodes))
	}
	return "the node"
}

func logDirs(n *localnet.Network) string {
	var dirs []string
	for _, node := range n.Nodes() {
		dirs = append(dirs, node.LogDir)
	}
	return strings.Join(dirs, ", ")
}

func printSummary(w io.Writer, n *localnet.Network, sample *seed.Sample, took time.Duration) {
	base := n.BaseURL()
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("")
	p("avadata local network is up (bring-up %s)", took.Round(time.Millisecond))
	p("  node URI          %s", n.URI())
	p("  avadata API       %s", base)
	p("  explorer          %s/explorer/", base)
	p("  by chain ID       %s", n.ChainURL())
	p("  metrics API       %s/metrics", base)
	p("  JSON-RPC          %s/rpc", base)
	p("  chain / subnet    %s / %s", n.ChainID(), n.SubnetID())
	for _, c := range n.EVMChains() {
		p("  %-17s %s (EVM chain ID %d)", c.Name+" RPC", c.RPCURL, c.EVMChainID)
	}
	p("  node logs         %s (main.log, %s.log)", n.LogDir(), n.ChainID())
	if out := n.OutputPath(); out != "" {
		p("  node output       %s", out)
	}
	p("  data dir          %s", n.DataDir())
	if nodes := n.Nodes(); len(nodes) > 1 {
		p("")
		p("%d validators, sybil protection on; node 1 (%s) hosts avadata and validates its subnet:", len(nodes), nodes[0].NodeID)
		for _, node := range nodes[1:] {
			p("  node %d            %s  %s  (logs %s)", node.Index, node.URI, node.NodeID, node.LogDir)
		}
	}
	p("")
	p("try:")
	p("  curl -s %s/v1/status", base)
	p("  curl -s %s/metrics/v1/avg_tps/43112", base)
	p(`  curl -s -X POST -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"avadata.status","params":{}}' %s/rpc`, base)
	p("  curl -s '%s/ext/health'", n.URI())
	if chains := n.EVMChains(); len(chains) > 1 {
		p(`  curl -s -X POST -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' %s`, chains[1].RPCURL)
	}
	p("")
	if sample != nil {
		seed.WriteSummary(w, base, sample)
		p("")
	}
	if len(n.Nodes()) > 1 && (sample == nil || sample.Warp == nil || !sample.Warp.Signable) {
		p("no sample warp message to aggregate: the data dir was not seeded (SEED=0, or seeding failed)")
		p("")
	}
	p("Ctrl-C stops %s.", nodesWord(n))
}
