package pchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/vms/platformvm/block"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/pdata"
)

// outcomeOf is the verdict an option block gives on the proposal block
// before it.
func outcomeOf(option block.Block) (pdata.Outcome, error) {
	switch option.(type) {
	case *block.ApricotCommitBlock, *block.BanffCommitBlock:
		return pdata.OutcomeCommit, nil
	case *block.ApricotAbortBlock, *block.BanffAbortBlock:
		return pdata.OutcomeAbort, nil
	default:
		return 0, fmt.Errorf("block %d after a proposal block is a %s, not an option", option.Height(), typeName(option))
	}
}

// decide applies the option's verdict to a decoded proposal block: the
// proposal tx is its last tx (a BanffProposalBlock's decision txs come
// first and apply whatever the option). The effects of a RewardValidatorTx
// need the node and are filled in later (rewards.go).
func decide(p parsedBlock, b *pdata.Block, option block.Block) error {
	outcome, err := outcomeOf(option)
	if err != nil {
		return err
	}
	proposal := p.blk.Txs()[len(p.blk.Txs())-1]
	tx := b.Txs[len(b.Txs)-1]
	tx.Outcome = outcome

	switch utx := proposal.Unsigned.(type) {
	case *txs.AdvanceTimeTx:
		// An abort leaves the chain time where it was.
		if outcome == pdata.OutcomeCommit {
			b.NextChainTime = int64(utx.Time)
		}
	case *txs.AddValidatorTx, *txs.AddDelegatorTx, *txs.AddSubnetValidatorTx:
		// Apricot staking txs were proposals. Aborted, the inputs are still
		// spent, no staker is added, and the stake comes back at once as
		// ordinary outputs right after Outs, at the indices the stake would
		// have had (proposalTxExecutor: onAbortOuts = Outs then StakeOuts).
		if outcome == pdata.OutcomeAbort {
			unstake(tx)
		}
	}
	return nil
}

// unstake turns an aborted staking tx's stake into ordinary outputs.
func unstake(tx *pdata.Tx) {
	tx.Staker = nil
	for i := range tx.Produced {
		u := &tx.Produced[i]
		if u.Kind == pdata.KindStake {
			u.Kind = pdata.KindTransfer
			u.StakeStart, u.StakeEnd = 0, 0
		}
	}
}
