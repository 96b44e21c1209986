package pchain

import (
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/vms/platformvm/reward"
)

// SupplyRules are what the primary network's current supply starts from
// and grows by: the built-in genesis' initial supply (platformvm's
// State.syncGenesis sets it before the genesis validators' rewards), and
// the reward calculator of the network's staking config, the one a node of
// the network runs with its default flags (config.getStakingConfig).
func SupplyRules(networkID uint32) (reward.Calculator, uint64, error) {
	_, gen, err := builtinGenesis(networkID)
	if err != nil {
		return nil, 0, err
	}
	rewards := reward.NewCalculator(genesis.GetStakingConfig(networkID).RewardConfig)
	return rewards, gen.InitialSupply, nil
}
