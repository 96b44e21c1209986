package multinode

import (
	"fmt"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/tests/fixture/tmpnet"
	"github.com/ava-labs/avalanchego/utils/constants"
)

// CChainConfigFunc returns settings to add to every node's C-chain config,
// given the network ID and the C-chain's ID.
type CChainConfigFunc func(networkID uint32, cChainID ids.ID) (map[string]any, error)

// addCChainConfig makes the network's genesis now, instead of leaving it
// to tmpnet, so that the C-chain's ID (the ID of the genesis tx that
// creates it, which depends on the pre-funded keys tmpnet draws at random)
// is known before any node starts, and adds what extra returns for it to
// every node's C-chain config. tmpnet keeps a genesis it is given.
func addCChainConfig(network *tmpnet.Network, extra CChainConfigFunc) error {
	if len(network.PreFundedKeys) == 0 {
		keys, err := tmpnet.NewPrivateKeys(tmpnet.DefaultPreFundedKeyCount)
		if err != nil {
			return fmt.Errorf("making pre-funded keys: %w", err)
		}
		network.PreFundedKeys = keys
	}
	unparsed, err := network.DefaultGenesis()
	if err != nil {
		return fmt.Errorf("making the genesis: %w", err)
	}
	config, err := unparsed.Parse()
	if err != nil {
		return fmt.Errorf("parsing the genesis: %w", err)
	}
	genesisBytes, _, err := genesis.FromConfig(&config)
	if err != nil {
		return fmt.Errorf("building the genesis: %w", err)
	}
	createCChain, err := genesis.VMGenesis(genesisBytes, constants.EVMID)
	if err != nil {
		return fmt.Errorf("finding the C-chain in the genesis: %w", err)
	}
	settings, err := extra(unparsed.NetworkID, createCChain.ID())
	if err != nil {
		return fmt.Errorf("making the C-chain config: %w", err)
	}
	network.Genesis = unparsed
	if network.PrimaryChainConfigs == nil {
		network.PrimaryChainConfigs = map[string]tmpnet.ConfigMap{}
	}
	cChain := network.PrimaryChainConfigs["C"]
	if cChain == nil {
		cChain = tmpnet.ConfigMap{}
		network.PrimaryChainConfigs["C"] = cChain
	}
	for k, v := range settings {
		cChain[k] = v
	}
	return nil
}
