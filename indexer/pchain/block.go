package pchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// parsedBlock is one container with its platformvm block parsed.
type parsedBlock struct {
	c   blockindex.Container
	blk block.Block
}

func parseContainer(c blockindex.Container) (parsedBlock, error) {
	// GenesisCodec: the same types with no size cap, right for blocks the
	// chain already accepted (the VM's own state reader uses it).
	blk, err := block.Parse(block.GenesisCodec, c.Inner)
	if err != nil {
		return parsedBlock{}, fmt.Errorf("parsing platformvm block %s: %w", c.ID, err)
	}
	return parsedBlock{c: c, blk: blk}, nil
}

// isProposal says the block is a proposal block: the effects of its
// proposal tx depend on the option block accepted after it.
func (p parsedBlock) isProposal() bool {
	switch p.blk.(type) {
	case *block.ApricotProposalBlock, *block.BanffProposalBlock:
		return true
	default:
		return false
	}
}

// decodeBlock turns a parsed block into its domain block, every tx decoded
// with the effects the bytes decide; a proposal block's proposal tx (the
// last of Txs) still waits for its option (see decide).
func decodeBlock(p parsedBlock, upgrades *upgrade.Config) (*pdata.Block, error) {
	out := &pdata.Block{
		Chain:    netinfo.P,
		Number:   p.blk.Height(),
		ID:       p.c.ID,
		ParentID: p.blk.Parent(),
		Type:     typeName(p.blk),
		Size:     p.c.Size,
		Proposer: p.c.Proposer,
	}
	if p.c.Wrapped {
		out.ParentID = p.c.ParentID
	}
	// Apricot blocks carry no time: 0 stands for the chain time, which the
	// store tracks. (A proposervm wrapper's time is the proposer's clock, not
	// the chain time.)
	banff, isBanff := p.blk.(block.BanffBlock)
	if isBanff {
		out.Timestamp = banff.Timestamp().Unix()
	}
	for _, tx := range p.blk.Txs() {
		decoded, err := decodeParsed(tx)
		if err != nil {
			return nil, fmt.Errorf("block %d (%s): %w", out.Number, out.ID, err)
		}
		out.Txs = append(out.Txs, decoded)
	}
	// From Durango on a staker starts when its tx is accepted, whatever the
	// tx's Start says (standardTxExecutor.putStaker); a Banff block's
	// time is the chain time its txs execute at.
	// Banff standard and proposal blocks advance the chain time to their
	// own before their txs (platformvm's verifier calls AdvanceTimeTo);
	// option blocks keep their proposal's.
	switch p.blk.(type) {
	case *block.BanffStandardBlock, *block.BanffProposalBlock:
		out.AdvancesTime = true
	}
	if isBanff && upgrades.IsDurangoActivated(banff.Timestamp()) {
		out.Durango = true
		for _, tx := range out.Txs {
			startStaker(tx, out.Timestamp)
		}
	}
	return out, nil
}

// startStaker sets a staking tx's start, and its stake's, to start.
func startStaker(tx *pdata.Tx, start int64) {
	if tx.Staker == nil {
		return
	}
	tx.Staker.Start = start
	for i := range tx.Produced {
		if tx.Produced[i].Kind == pdata.KindStake {
			tx.Produced[i].StakeStart = start
		}
	}
}
