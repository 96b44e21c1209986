package localnet

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
)

// The node runs a plugin only if both speak its rpcchainvm protocol, which
// changes with nearly every avalanchego release: subnet-evm must be built at
// the avalanchego version the node is built at.
func TestSubnetEVMVersionMatchesNode(t *testing.T) {
	node := requiredVersion(t, filepath.Join("..", "..", "go.mod"), "github.com/ava-labs/avalanchego")
	for _, mod := range []string{"github.com/ava-labs/avalanchego", "github.com/ava-labs/avalanchego/graft/subnet-evm"} {
		if v := requiredVersion(t, filepath.Join("..", "subnetevm", "go.mod"), mod); v != node {
			t.Errorf("scripts/subnetevm requires %s %s, the node is built at %s", mod, v, node)
		}
	}
}

// requiredVersion returns the version a go.mod requires of module.
func requiredVersion(t *testing.T, goMod, module string) string {
	t.Helper()
	b, err := os.ReadFile(goMod)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == module {
			return f[1]
		}
	}
	t.Fatalf("%s does not require %s", goMod, module)
	return ""
}

// The Makefile installs subnet-evm under this literal VM ID.
func TestSubnetEVMVMID(t *testing.T) {
	if got := SubnetEVMVMID.String(); got != "srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy" {
		t.Errorf("SubnetEVMVMID = %s; update SUBNET_EVM_VMID in the Makefile", got)
	}
}

func TestSubnetEVMGenesis(t *testing.T) {
	var g struct {
		Config struct {
			ChainID   uint64 `json:"chainId"`
			FeeConfig struct {
				GasLimit uint64 `json:"gasLimit"`
			} `json:"feeConfig"`
			WarpConfig *struct {
				BlockTimestamp uint64 `json:"blockTimestamp"`
			} `json:"warpConfig"`
		} `json:"config"`
		Alloc     map[common.Address]struct{ Balance *hexutil.Big } `json:"alloc"`
		Timestamp hexutil.Uint64                                    `json:"timestamp"`
		GasLimit  hexutil.Uint64                                    `json:"gasLimit"`
	}
	if err := json.Unmarshal(SubnetEVMGenesis(), &g); err != nil {
		t.Fatal(err)
	}
	if g.Config.ChainID != SubnetEVMChainID {
		t.Errorf("chainId %d", g.Config.ChainID)
	}
	// subnet-evm rejects a genesis whose header gas limit differs.
	if uint64(g.GasLimit) != g.Config.FeeConfig.GasLimit || g.GasLimit == 0 {
		t.Errorf("gasLimit %d, feeConfig.gasLimit %d", g.GasLimit, g.Config.FeeConfig.GasLimit)
	}
	if g.Config.WarpConfig == nil || g.Config.WarpConfig.BlockTimestamp != uint64(g.Timestamp) {
		t.Errorf("warpConfig %+v, timestamp %d", g.Config.WarpConfig, g.Timestamp)
	}
	ewoq := genesis.EWOQKey.EthAddress()
	if ewoq != common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC") {
		t.Fatalf("EWOQ eth address %s", ewoq)
	}
	minFunds := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	if a, ok := g.Alloc[ewoq]; !ok || a.Balance.ToInt().Cmp(minFunds) < 0 {
		t.Errorf("EWOQ allocation %+v in %v", a, g.Alloc)
	}
}

// The local C-chain ID is computed from the built-in genesis; it is a
// well-known constant of the local network.
func TestEVMChains(t *testing.T) {
	n := &Network{state: state{HTTPPort: 1234}}
	chains := n.EVMChains()
	if len(chains) != 1 {
		t.Fatalf("chains %+v", chains)
	}
	c := chains[0]
	if c.EVMChainID != CChainEVMChainID || c.RPCURL != "http://127.0.0.1:1234/ext/bc/C/rpc" ||
		c.BlockchainID.String() != "2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC" {
		t.Errorf("C-chain %+v", c)
	}
	n.state.SubnetEVM = subnetEVMState{SubnetID: ids.GenerateTestID(), ChainID: ids.GenerateTestID(), EVMChainID: SubnetEVMChainID}
	chains = n.EVMChains()
	if len(chains) != 2 || chains[1].RPCURL != "http://127.0.0.1:1234/ext/bc/"+n.state.SubnetEVM.ChainID.String()+"/rpc" ||
		chains[1].EVMChainID != SubnetEVMChainID || chains[1].SubnetID != n.state.SubnetEVM.SubnetID {
		t.Errorf("chains %+v", chains)
	}
}

// A missing subnet-evm plugin fails Start before any node runs, unless the
// chain is skipped and the data dir has none.
func TestSubnetEVMPluginCheck(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{AvalancheGoPath: "/nonexistent", PluginDir: dir, DataDir: filepath.Join(dir, "data")}
	if err := cfg.checkSubnetEVMPlugin(nil); err == nil || !strings.Contains(err.Error(), "SkipSubnetEVM") {
		t.Errorf("missing plugin, new data dir: %v", err)
	}
	cfg.SkipSubnetEVM = true
	if err := cfg.checkSubnetEVMPlugin(nil); err != nil {
		t.Errorf("skipped: %v", err)
	}
	withChain := &state{SubnetEVM: subnetEVMState{ChainID: ids.GenerateTestID()}}
	if err := cfg.checkSubnetEVMPlugin(withChain); err == nil || !strings.Contains(err.Error(), "has a subnet-evm chain") {
		t.Errorf("skipped, but the data dir has the chain: %v", err)
	}
	if err := os.WriteFile(cfg.subnetEVMPluginPath(), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg.SkipSubnetEVM = false
	if err := cfg.checkSubnetEVMPlugin(withChain); err != nil {
		t.Errorf("plugin present: %v", err)
	}
}
