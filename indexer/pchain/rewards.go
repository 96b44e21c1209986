package pchain

import (
	"context"
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/pdata"
)

// resolveReward fills in a decided RewardValidatorTx's effects, which its
// bytes do not hold: the stake it returns (Unstaked) and the rewards it pays
// (Produced). Both depend on the staking tx and on state (the potential
// reward, the accrued delegatee fees), so they come from the node.
func (s *Source) resolveReward(ctx context.Context, tx *pdata.Tx) error {
	// Once the VM knows the reward tx it has committed the block holding
	// it, and the reward UTXOs with it: before that, getRewardUTXOs would
	// answer an empty list, which is also a valid answer.
	err := retry(ctx, s.retryFirst, func() error {
		_, err := s.platform.GetTx(ctx, tx.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("waiting for the VM to commit RewardValidatorTx %s: %w", tx.ID, err)
	}
	var stakingBytes []byte
	err = retry(ctx, s.retryFirst, func() (err error) {
		stakingBytes, err = s.platform.GetTx(ctx, tx.RewardOf)
		return err
	})
	if err != nil {
		return fmt.Errorf("fetching staking tx %s of RewardValidatorTx %s: %w", tx.RewardOf, tx.ID, err)
	}
	staking, err := DecodeTx(stakingBytes)
	if err != nil {
		return fmt.Errorf("staking tx %s of RewardValidatorTx %s: %w", tx.RewardOf, tx.ID, err)
	}
	if staking.Staker == nil {
		return fmt.Errorf("RewardValidatorTx %s ends %s %s, which adds no staker", tx.ID, staking.Type, staking.ID)
	}
	var raw [][]byte
	err = retry(ctx, s.retryFirst, func() (err error) {
		raw, err = s.platform.GetRewardUTXOs(ctx, tx.RewardOf)
		return err
	})
	if err != nil {
		return fmt.Errorf("fetching reward UTXOs of staking tx %s: %w", tx.RewardOf, err)
	}
	rewards, err := rewardUTXOs(staking, tx.Outcome, raw)
	if err != nil {
		return fmt.Errorf("reward UTXOs of staking tx %s: %w", tx.RewardOf, err)
	}
	// The stake comes back on commit and on abort alike, as the same UTXOs
	// (same IDs, same outputs) the staking tx created as stake.
	tx.Unstaked = slices.Clone(staking.Staker.Stake)
	// The returned stake is part of what the tx puts in the UTXO set (the
	// node's getUTXOs shows it from then on), so it is listed with the
	// rewards; the store keeps one row per UTXO and marks it unstaked.
	tx.Produced = append(returnedStake(staking), rewards...)
	tx.NodeID = staking.Staker.NodeID
	return nil
}

// rewardUTXOs describes the reward UTXOs getRewardUTXOs returned for the
// staking tx staking, and tells each one's reward type (platformvm's
// proposalTxExecutor.rewardValidatorTx and rewardDelegatorTx): they follow
// the stake, at n+s on. On commit, the one at n+s is the staker's own reward
// (VALIDATOR, or DELEGATOR) and the next one the delegatee fee
// (VALIDATOR_FEE); a lone UTXO at n+s is the staker's reward only when it
// pays the staker's rewards owner, since a zero potential reward produces
// no UTXO. On abort the staker earns nothing: what is paid is the
// validator's accrued delegatee fee.
func rewardUTXOs(staking *pdata.Tx, outcome pdata.Outcome, raw [][]byte) ([]pdata.UTXO, error) {
	staker := staking.Staker
	first := uint32(len(staking.Produced)) // n outputs, then s stake outputs
	out := make([]pdata.UTXO, 0, len(raw))
	for _, b := range raw {
		var u avax.UTXO
		// The node marshals them with txs.GenesisCodec (same format).
		if _, err := txs.GenesisCodec.Unmarshal(b, &u); err != nil {
			return nil, fmt.Errorf("parsing reward UTXO: %w", err)
		}
		p, err := utxoOf(&u)
		if err != nil {
			return nil, err
		}
		if p.TxID != staking.ID {
			return nil, fmt.Errorf("reward UTXO %s belongs to tx %s", p.ID, p.TxID)
		}
		p.Kind = pdata.KindReward
		p.StakeStart, p.StakeEnd = staker.Start, staker.End
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b pdata.UTXO) int { return int(a.OutputIndex) - int(b.OutputIndex) })

	own := pdata.RewardValidator
	if staker.Delegator {
		own = pdata.RewardDelegator
	}
	for i := range out {
		u := &out[i]
		u.RewardType = pdata.RewardValidatorFee
		if outcome == pdata.OutcomeCommit && u.OutputIndex == first &&
			(len(out) > 1 || sameOwners(&u.Owners, staker.RewardsOwner)) {
			u.RewardType = own
		}
	}
	return out, nil
}

func sameOwners(a, b *pdata.Owners) bool {
	return a != nil && b != nil && a.Threshold == b.Threshold && a.Locktime == b.Locktime &&
		slices.Equal(a.Addrs, b.Addrs)
}

// returnedStake is the staking tx's stake, which its RewardValidatorTx
// returns on commit and abort alike.
func returnedStake(staking *pdata.Tx) []pdata.UTXO {
	var out []pdata.UTXO
	for _, u := range staking.Produced {
		if u.Kind == pdata.KindStake {
			out = append(out, u)
		}
	}
	return out
}
