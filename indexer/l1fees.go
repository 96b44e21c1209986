package indexer

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"

	"github.com/avadata/avadata/indexer/store"
)

// l1FeeRules gathers what the P writer needs to track the L1 validator
// fees (store/l1fees.go): the node's own validator fee config (a local or
// custom network's comes from the node's flags, avalanchego
// config.getTxFeeConfig, not from a built-in one), the upgrade times, and
// the P-chain genesis time (genesisTime, 0 when the built-in genesis is
// not the node's).
func l1FeeRules(ctx context.Context, platform *platformvm.Client, upgrades upgrade.Config, genesisTime int64,
) (*store.L1FeeRules, error) {
	config, err := platform.GetValidatorFeeConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the node's validator fee config: %w", err)
	}
	rules := &store.L1FeeRules{Config: *config, Upgrades: upgrades, GenesisTime: genesisTime}
	if genesisTime == 0 {
		if rules.GenesisTime, err = genesisTimeOfStakers(ctx, platform); err != nil {
			return nil, err
		}
	}
	return rules, nil
}

// genesisTimeOfStakers finds the genesis time of a network whose genesis
// is not built in, needed only when Etna is active at block 1 (fees then
// accrue from the genesis): avalanchego's genesis.FromConfig starts every
// genesis validator at the genesis time, and every later validator starts
// at or after block 1's time. A current validator that started before
// block 1 is therefore a genesis one, and its start the genesis time; 0
// (unknown) when there is none or block 1 is not a Banff block.
func genesisTimeOfStakers(ctx context.Context, platform *platformvm.Client) (int64, error) {
	b, err := platform.GetBlockByHeight(ctx, 1)
	if err != nil {
		return 0, fmt.Errorf("reading P-chain block 1: %w", err)
	}
	blk, err := block.Parse(block.Codec, b)
	if err != nil {
		return 0, fmt.Errorf("parsing P-chain block 1: %w", err)
	}
	banff, ok := blk.(block.BanffBlock)
	if !ok {
		return 0, nil // an Apricot block 1 predates Etna
	}
	first := banff.Timestamp().Unix()
	vdrs, err := platform.GetCurrentValidators(ctx, constants.PrimaryNetworkID, nil)
	if err != nil {
		return 0, fmt.Errorf("reading the current validators: %w", err)
	}
	var genesis int64
	for _, v := range vdrs {
		if start := int64(v.StartTime); start < first && (genesis == 0 || start < genesis) {
			genesis = start
		}
	}
	return genesis, nil
}
