// Package multinode starts a temporary multi-node network with the avadata
// chain validated by every node, for tests that need real validator sets
// (signature aggregation). It wraps avalanchego's tmpnet fixture, which pulls
// in Kubernetes client libraries; that is why it is separate from package
// localnet, and why nothing the plugin builds may import it.
//
// Unlike localnet, the network is not the "local" one: tmpnet generates its
// own genesis (network ID and C-chain ID 88888, EWOQ pre-funded) and picks
// dynamic ports. Its nodes run sybil protection on (for 2+ nodes), so the
// avadata subnet has real validators.
package multinode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"time"

	"github.com/ava-labs/avalanchego/api/health"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/tests/fixture/tmpnet"
	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/vm"
)

// TmpnetConfig describes the network. AvalancheGoPath, PluginDir and Nodes
// are required.
type TmpnetConfig struct {
	AvalancheGoPath string
	PluginDir       string // holds the plugin named after vm.ID
	Nodes           int
	// ChainNodes is how many of the nodes, the first ones, validate the
	// avadata subnet and run the chain; 0 means all of them. The others
	// are plain primary network validators.
	ChainNodes int
	// RootDir receives the network dir (a timestamped subdir); empty means
	// tmpnet's default, ~/.tmpnet/networks.
	RootDir string
	// ChainConfig is the avadata chain config, shared by all nodes. It cannot
	// carry a nodeURI (each node has its own), so the plugin falls back to
	// <data-dir>/process.json to find its node.
	ChainConfig map[string]any
	// Log receives tmpnet's progress lines; nil discards them.
	Log io.Writer
	// CChainConfig, when set, adds settings to every node's C-chain config.
	// It is given the C-chain's ID, so it can add settings that name the
	// chain, such as warp-off-chain-messages (the C-chain signs those only
	// with itself as their source).
	CChainConfig CChainConfigFunc
	// ExternalNodes is how many of the Nodes, the last ones, are genesis
	// validators that tmpnet makes keys for but does not run: the caller
	// runs them (TmpnetNetwork.ExternalNodes). They are never beacons, and
	// the other nodes become healthy without them. ChainNodes counts only
	// the nodes that run.
	ExternalNodes int
	// ChainNodeFlags adds node flags (without the leading "--") to the
	// nodes that run the avadata chain, over the network's defaults. Their
	// plugin hosts the signature aggregator: localnet.AggregatorHostFlags
	// are the flags such a node should run with.
	ChainNodeFlags map[string]string
}

// TmpnetNetwork is a running temporary network.
type TmpnetNetwork struct {
	network    *tmpnet.Network
	log        logging.Logger
	chainNodes int // the first chainNodes nodes run the avadata chain
	external   []*tmpnet.Node
}

// startTimeout bounds waiting for every node to serve the avadata chain
// after tmpnet is done (it does not wait for health after its last restart).
const startTimeout = 2 * time.Minute

// StartTmpnet creates and starts the network: the nodes, a subnet they all
// validate, and the avadata chain in it. A failed start stops whatever it
// started.
func StartTmpnet(ctx context.Context, cfg TmpnetConfig) (_ *TmpnetNetwork, err error) {
	if cfg.AvalancheGoPath == "" || cfg.PluginDir == "" || cfg.Nodes < 1 {
		return nil, errors.New("multinode: AvalancheGoPath, PluginDir and Nodes >= 1 are required")
	}
	// tmpnet writes these paths into every node's flags file.
	for _, p := range []*string{&cfg.AvalancheGoPath, &cfg.PluginDir} {
		if *p, err = filepath.Abs(*p); err != nil {
			return nil, fmt.Errorf("multinode: %w", err)
		}
	}
	chainConfig := []byte("{}")
	if cfg.ChainConfig != nil {
		if chainConfig, err = json.Marshal(cfg.ChainConfig); err != nil {
			return nil, fmt.Errorf("multinode: encoding chain config: %w", err)
		}
	}
	if cfg.ExternalNodes < 0 || cfg.ExternalNodes >= cfg.Nodes {
		return nil, errors.New("multinode: ExternalNodes must leave at least one node to run")
	}
	chainNodes := cfg.Nodes - cfg.ExternalNodes
	if cfg.ChainNodes > 0 && cfg.ChainNodes < chainNodes {
		chainNodes = cfg.ChainNodes
	}
	nodes := make([]*tmpnet.Node, cfg.Nodes)
	for i := range nodes {
		nodes[i] = tmpnet.NewNode()
		if err := nodes[i].EnsureKeys(); err != nil {
			return nil, fmt.Errorf("multinode: making node keys: %w", err)
		}
	}
	for _, node := range nodes[:chainNodes] {
		for k, v := range cfg.ChainNodeFlags {
			node.Flags[k] = v
		}
	}
	network := &tmpnet.Network{
		Owner: "avadata",
		DefaultRuntimeConfig: tmpnet.NodeRuntimeConfig{Process: &tmpnet.ProcessRuntimeConfig{
			AvalancheGoPath:   cfg.AvalancheGoPath,
			PluginDir:         cfg.PluginDir,
			ReuseDynamicPorts: true, // a restarted node keeps its URI
		}},
		DefaultFlags: tmpnet.FlagsMap{
			"log-level":     "info",
			"fd-limit":      "16384",
			"http-host":     "127.0.0.1",
			"public-ip":     "127.0.0.1",
			"index-enabled": "true",
		},
		// Replaces tmpnet's default C config, whose TRACE logging fills the disk.
		PrimaryChainConfigs: map[string]tmpnet.ConfigMap{"C": localnet.CChainConfig()},
		Nodes:               nodes,
		Subnets: []*tmpnet.Subnet{{
			Name: "avadata",
			Chains: []*tmpnet.Chain{{
				VMID:    vm.ID,
				Genesis: localnet.DefaultGenesis(),
				Config:  string(chainConfig),
			}},
			ValidatorIDs: tmpnet.NodesToIDs(nodes[:chainNodes]...),
		}},
	}
	for k, v := range tmpnet.DefaultTmpnetFlags() {
		network.DefaultFlags[k] = v // health every 2s, admin API (self-alias), ...
	}
	if cfg.CChainConfig != nil {
		if err := addCChainConfig(network, cfg.CChainConfig); err != nil {
			return nil, fmt.Errorf("multinode: %w", err)
		}
	}
	var external []*tmpnet.Node
	if cfg.ExternalNodes > 0 {
		if external, err = leaveExternal(network, cfg.Nodes-cfg.ExternalNodes); err != nil {
			return nil, fmt.Errorf("multinode: %w", err)
		}
	}
	log := logging.Logger(logging.NoLog{})
	if cfg.Log != nil {
		log = logging.NewLogger("tmpnet", logging.NewWrappedCore(logging.Info, nopCloser{cfg.Log}, logging.Plain.ConsoleEncoder()))
	}

	t := &TmpnetNetwork{network: network, log: log, chainNodes: chainNodes, external: external}
	defer func() {
		if err != nil && network.Dir != "" {
			stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err = errors.Join(err, network.Stop(stopCtx))
		}
	}()
	if err := tmpnet.BootstrapNewNetwork(ctx, log, network, cfg.RootDir); err != nil {
		return nil, fmt.Errorf("multinode: bootstrapping the network: %w", err)
	}
	if err := t.waitServing(ctx); err != nil {
		return nil, fmt.Errorf("multinode: %w", err)
	}
	return t, nil
}

// waitServing waits until every node is healthy and every node running
// the avadata chain answers on its route.
func (t *TmpnetNetwork) waitServing(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for i, uri := range t.URIs() {
		if _, err := health.AwaitHealthy(ctx, health.NewClient(uri), time.Second, nil); err != nil {
			return fmt.Errorf("waiting for %s to be healthy: %w", uri, err)
		}
		if i >= t.chainNodes {
			continue
		}
		url := uri + "/ext/bc/" + t.ChainID().String() + "/"
		for {
			if served(ctx, url) {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for %s to answer: %w", url, ctx.Err())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	return nil
}

// served reports whether the plugin answered url (404: no route yet; 503:
// chain still bootstrapping).
func served(ctx context.Context, url string) bool {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusServiceUnavailable
}

// URIs are the nodes' HTTP addresses, in node order.
func (t *TmpnetNetwork) URIs() []string {
	var uris []string
	for _, u := range t.network.GetNodeURIs() {
		uris = append(uris, u.URI)
	}
	return uris
}

// NodeIDs are the nodes' IDs, in node order; the first ChainNodes validate
// the avadata subnet.
func (t *TmpnetNetwork) NodeIDs() []ids.NodeID { return tmpnet.NodesToIDs(t.network.Nodes...) }

// SubnetID is the avadata subnet's ID.
func (t *TmpnetNetwork) SubnetID() ids.ID { return t.network.Subnets[0].SubnetID }

// ChainID is the avadata chain's ID.
func (t *TmpnetNetwork) ChainID() ids.ID { return t.network.Subnets[0].Chains[0].ChainID }

// Dir is the network dir: each node's data dir, flags and logs are under it.
func (t *TmpnetNetwork) Dir() string { return t.network.Dir }

// Network is the underlying tmpnet network, for what this type does not wrap
// (restarting a node, adding one).
func (t *TmpnetNetwork) Network() *tmpnet.Network { return t.network }

// Stop stops every node and waits until they have exited.
func (t *TmpnetNetwork) Stop(ctx context.Context) error {
	if err := t.network.Stop(ctx); err != nil {
		return fmt.Errorf("multinode: stopping %s: %w", t.network.Dir, err)
	}
	return nil
}

// nopCloser lets an io.Writer serve as the logger's WriteCloser without the
// logger closing the caller's writer.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
