package localnet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ava-labs/avalanchego/ids"
)

// CChainConfig returns the C-chain config the avadata indexer needs: no
// state sync, so the node holds every block the followers ask for, and the
// default eth APIs plus debug-tracer for internal transactions. The local
// subnet-evm chain gets the same config; subnet-evm reads these keys too.
// Each call returns a new map the caller may change.
//
// pruning-enabled false keeps every block's state, so the node can trace any
// block: a pruned node traces only recent blocks, and an index rebuilt from
// scratch (the kill tests do that) would then lack the internal transactions
// of older ones. A local chain is small enough to keep whole.
//
// min-delay-target (ms) asks for the shortest block delay ACP-226 allows.
// The node, the only block builder, moves each new block's delay excess
// toward it by at most 200, which shortens the minimum delay by only ~0.02 %
// per block: a new chain starts at ~2 s between back-to-back blocks and takes
// ~3600 blocks to halve that. Without it the excess stays where it is.
func CChainConfig() map[string]any {
	return map[string]any{
		"state-sync-enabled": false,
		"eth-apis": []string{
			"eth", "eth-filter", "net", "web3",
			"internal-eth", "internal-blockchain", "internal-transaction",
			"debug-tracer",
		},
		"min-delay-target": 1,
		"pruning-enabled":  false,
	}
}

// writeEVMChainConfigIfMissing writes CChainConfig as the config of the
// chain whose config dir is dirName (an alias or a chain ID) before the node
// next starts. An existing file is left alone: state sync only matters on
// the first start, and a developer may have edited it on purpose.
func writeEVMChainConfigIfMissing(chainConfigDir, dirName string) error {
	path := filepath.Join(chainConfigDir, dirName, "config.json")
	_, err := os.Stat(path)
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("checking %s chain config: %w", dirName, err)
	}
	b, err := json.MarshalIndent(CChainConfig(), "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s chain config: %w", dirName, err)
	}
	if err := writeFileAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("writing %s chain config: %w", dirName, err)
	}
	return nil
}

// writeAvadataChainConfig (re)writes the avadata chain config on every Start,
// because Config.ChainConfig may differ from the previous run. The node hands
// the file's bytes to the plugin as configBytes when it starts.
func writeAvadataChainConfig(chainConfigDir string, chainID ids.ID, nodeURI string, extra map[string]any) error {
	cfg := make(map[string]any, len(extra)+1)
	for k, v := range extra {
		cfg[k] = v
	}
	cfg["nodeURI"] = nodeURI
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding avadata chain config: %w", err)
	}
	path := filepath.Join(chainConfigDir, chainID.String(), "config.json")
	if err := writeFileAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("writing avadata chain config: %w", err)
	}
	return nil
}

// StateSyncServerChainConfig are the EVM chain-config keys (coreth and
// subnet-evm, plugin/evm/config) that make a node offer a state summary
// every interval blocks instead of every 16,384: a node serves a summary at
// the highest multiple of state-sync-commit-interval it has accepted, if it
// holds that block's state. An archive node (pruning-enabled false, as
// CChainConfig) holds every block's state; commit-interval, which must
// divide the state-sync interval on a pruning node, is set alike so the
// keys also work there.
func StateSyncServerChainConfig(interval uint64) map[string]any {
	return map[string]any{
		"state-sync-commit-interval": interval,
		"commit-interval":            interval,
	}
}

// StateSyncClientChainConfig are the EVM chain-config keys that make a new
// node state-sync the chain: state sync on, and done however few blocks
// the summary is ahead (state-sync-min-blocks, 300,000 by default, would
// make a young chain bootstrap instead). Which peers it asks is the node's
// --state-sync-ids (Network.Join sets node 1).
func StateSyncClientChainConfig() map[string]any {
	return map[string]any{
		"state-sync-enabled":    true,
		"state-sync-min-blocks": 1,
	}
}

// writeSubnetEVMChainConfig writes the subnet-evm chain's config: as
// writeEVMChainConfigIfMissing without extra keys, else CChainConfig with
// extra over it, always (the caller asked for these keys now).
func writeSubnetEVMChainConfig(chainConfigDir, dirName string, extra map[string]any) error {
	if extra == nil {
		return writeEVMChainConfigIfMissing(chainConfigDir, dirName)
	}
	return writeEVMChainConfig(chainConfigDir, dirName, extra)
}

// writeEVMChainConfig (re)writes CChainConfig with extra's keys over it as
// the config of the chain whose config dir is dirName.
func writeEVMChainConfig(chainConfigDir, dirName string, extra map[string]any) error {
	cfg := CChainConfig()
	for k, v := range extra {
		cfg[k] = v
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s chain config: %w", dirName, err)
	}
	if err := writeFileAtomic(filepath.Join(chainConfigDir, dirName, "config.json"), append(b, '\n')); err != nil {
		return fmt.Errorf("writing %s chain config: %w", dirName, err)
	}
	return nil
}
