// Package localnet brings up a single avalanchego node on the local network
// (network ID 12345, C-chain ID 43112) with the avadata chain running on it,
// for `make run` and the end-to-end tests.
//
// The first Start on an empty data dir creates a subnet and the avadata chain
// with the pre-funded EWOQ key, then a second subnet with a subnet-evm chain
// (EVM chain ID 99999; see EVMChains), writes the chain configs and restarts
// the node once (a node reads chain configs only when it starts). Later
// Starts on the same data dir just start the node again.
//
// With Config.Nodes set to LocalValidators, the same local network is run by
// the five validators its genesis names, with their staking identities and
// sybil protection on, so that its chains see real validator sets (warp
// messages can be signed). Node 1 then hosts the avadata and subnet-evm
// chains on the URLs of the one-node network, validates their subnets and
// tracks them.
//
// Network.Join adds a node that joins the running one-node network the way
// an operator's node joins Fuji or Mainnet: a non-validator with its own
// data dir, ports and chain configs, bootstrapping from node 1 and able to
// state-sync its EVM chains from it (StateSyncServerChainConfig on node 1,
// StateSyncClientChainConfig on the joining node), running avadata too.
package localnet

import (
	"errors"
	"fmt"
	"github.com/avadata/avadata/scripts/chaincreate"
	"io"
	"path/filepath"
	"sort"
	"strconv"
)

// Config describes one local node. Only AvalancheGoPath, PluginDir and
// DataDir are required.
type Config struct {
	// AvalancheGoPath is the node binary, e.g. build/avalanchego.
	AvalancheGoPath string
	// PluginDir holds the plugin binary named after the VM ID; it is passed
	// as --plugin-dir.
	PluginDir string
	// DataDir is the node's data dir. A data dir that already holds a network
	// created by this package (its state file) is reused.
	DataDir string
	// HTTPPort and StakingPort are the node's ports. 0 means: the ports saved
	// in DataDir's state file, or free loopback ports on a new data dir.
	HTTPPort, StakingPort int
	// ChainConfig holds extra avadata chain-config keys. nodeURI is always
	// set by this package; the plugin rejects keys it does not know.
	ChainConfig map[string]any
	// ExtraFlags adds or overrides node flags (without the leading "--").
	ExtraFlags map[string]string
	// Stdout and Stderr receive the node's output. Nil sends both to
	// <DataDir>/avalanchego-output.log.
	Stdout, Stderr io.Writer
	// Genesis is the avadata chain's genesis; nil means a fixed default.
	// It only matters on the first Start of a data dir.
	Genesis []byte
	// SkipSubnetEVM leaves out the subnet-evm chain (EVM chain ID 99999)
	// that Start otherwise creates, in its own subnet, on a data dir that has
	// none yet; it then needs no subnet-evm plugin in PluginDir. It cannot
	// remove a chain the data dir already has.
	SkipSubnetEVM bool
	// Logf, when set, receives one line per bring-up step.
	Logf func(format string, args ...any)

	// Nodes is how many nodes run the network: 0 or 1 for the one-node
	// network without sybil protection; LocalValidators for the local
	// network run by the five validators its genesis names, with sybil
	// protection on. Node 1 is the node the fields above describe (ports,
	// data dir, output): it hosts the avadata chain and validates its
	// subnet and the subnet-evm one. Nodes 2 to 5 live in
	// <DataDir>/nodes/node<i>, write their output there, and take the next
	// ports (HTTPPort+2, StakingPort+2, ...; free ones when those are 0). A
	// data dir keeps the node count it was created with.
	Nodes int
	// LocalStakingDir holds the local genesis validators' staking keys,
	// the staking/local dir of the avalanchego module. Only a multi-node
	// network on a new data dir needs it: the keys are copied into the
	// nodes' data dirs.
	LocalStakingDir string

	// SubnetEVMChainConfig adds keys to (or overrides keys of) the subnet-evm
	// chain's config, over CChainConfig, e.g. StateSyncServerChainConfig so
	// that nodes joining later (Network.Join) can state-sync the chain from
	// this one. When set, the config file is rewritten on every Start (a
	// node reads it only when it starts); when nil, an existing file is left
	// alone as before.
	SubnetEVMChainConfig map[string]any
}

// multi reports whether the network has more than one node.
func (c *Config) multi() bool { return c.Nodes > 1 }

// perNodeFlags are flags a multi-node network sets per node; one value in
// ExtraFlags for all five nodes would break it.
var perNodeFlags = []string{
	"network-id", "sybil-protection-enabled", "bootstrap-ips", "bootstrap-ids", "track-subnets",
	"staking-tls-cert-file", "staking-tls-key-file", "staking-signer-key-file",
	"staking-tls-cert-file-content", "staking-tls-key-file-content", "staking-signer-key-file-content",
	"log-dir", "db-dir", "chain-data-dir", "chain-config-dir", "process-context-file", "config-file",
}

const (
	// stateFileName is this package's record of the network in DataDir. Its
	// presence is what makes a data dir "already holding a network".
	stateFileName = "avadata-localnet.json"
	// outputFileName receives the node's stdout/stderr when Config has none.
	outputFileName = "avalanchego-output.log"

	// defaultAlias is the alias the plugin gives itself unless the chain
	// config's "alias" key says otherwise (vm.DefaultAlias).
	defaultAlias = "data"
)

// DefaultGenesis returns the avadata chain's default genesis.
func DefaultGenesis() []byte { return chaincreate.DefaultGenesis() }

func (c *Config) validate() error {
	switch {
	case c.AvalancheGoPath == "":
		return errors.New("localnet: AvalancheGoPath is required")
	case c.PluginDir == "":
		return errors.New("localnet: PluginDir is required")
	case c.DataDir == "":
		return errors.New("localnet: DataDir is required")
	case c.HTTPPort < 0 || c.HTTPPort > 65535 || c.StakingPort < 0 || c.StakingPort > 65535:
		return fmt.Errorf("localnet: ports out of range: http %d, staking %d", c.HTTPPort, c.StakingPort)
	}
	if c.Nodes != 0 && c.Nodes != 1 && c.Nodes != LocalValidators {
		return fmt.Errorf("localnet: Nodes is %d; the local network has 1 node or the %d validators its genesis names", c.Nodes, LocalValidators)
	}
	if c.multi() {
		for _, k := range perNodeFlags {
			if _, ok := c.ExtraFlags[k]; ok {
				return fmt.Errorf("localnet: ExtraFlags must not set %q on a %d-node network: it is set per node", k, c.Nodes)
			}
		}
	}
	if _, ok := c.ChainConfig["nodeURI"]; ok {
		return errors.New("localnet: ChainConfig must not set nodeURI; the node's own URI is always used")
	}
	// These flags have Config fields; setting them twice would make URI()
	// or the data-dir reuse lie.
	for _, k := range []string{"data-dir", "plugin-dir", "http-port", "staking-port", "http-host"} {
		if _, ok := c.ExtraFlags[k]; ok {
			return fmt.Errorf("localnet: ExtraFlags must not set %q; use the Config field", k)
		}
	}
	return nil
}

// absolutize makes the paths absolute: the node runs with them as flags, and
// a relative data dir would otherwise depend on the caller's working dir
// staying the same across restarts.
func (c *Config) absolutize() error {
	for _, p := range []*string{&c.AvalancheGoPath, &c.PluginDir, &c.DataDir, &c.LocalStakingDir} {
		if *p == "" {
			continue // only LocalStakingDir may be empty (validated)
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("localnet: making %q absolute: %w", *p, err)
		}
		*p = abs
	}
	return nil
}

// alias is the alias the plugin will register, "" when aliasing is off.
func (c *Config) alias() string {
	if a, ok := c.ChainConfig["alias"].(string); ok {
		return a
	}
	return defaultAlias
}

// chainConfigDir is where the node looks for per-chain config dirs.
func (c *Config) chainConfigDir() string {
	if dir, ok := c.ExtraFlags["chain-config-dir"]; ok {
		return dir
	}
	return filepath.Join(c.DataDir, "configs", "chains")
}

func (c *Config) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}

// nodeArgs returns the node's command line: a single loopback node on the
// local network, with the APIs the plugin and the tests rely on (index, admin
// for the plugin's self-alias) and a 2 s health-check period so /ext/health
// turns healthy in seconds instead of the default 30 s.
func (c *Config) nodeArgs(httpPort, stakingPort int) []string {
	return c.argsFor(c.DataDir, httpPort, stakingPort, nil)
}

// argsFor returns the command line of a node with data dir dataDir: the
// flags of nodeArgs, then nodeFlags (a multi-node network's per-node
// ones), then ExtraFlags.
func (c *Config) argsFor(dataDir string, httpPort, stakingPort int, nodeFlags map[string]string) []string {
	flags := map[string]string{
		"network-id":               "local",
		"sybil-protection-enabled": "false",
		"data-dir":                 dataDir,
		"http-host":                "127.0.0.1",
		"http-port":                strconv.Itoa(httpPort),
		"staking-port":             strconv.Itoa(stakingPort),
		"public-ip":                "127.0.0.1",
		"index-enabled":            "true",
		"api-admin-enabled":        "true",
		"health-check-frequency":   "2s",
		"plugin-dir":               c.PluginDir,
		"fd-limit":                 "16384",
		"log-level":                "info",
	}
	for k, v := range nodeFlags {
		flags[k] = v
	}
	for k, v := range c.ExtraFlags {
		flags[k] = v
	}
	keys := make([]string, 0, len(flags))
	for k := range flags {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a stable command line is easier to read in ps and logs
	args := make([]string, 0, len(keys))
	for _, k := range keys {
		args = append(args, "--"+k+"="+flags[k])
	}
	return args
}
