// Package pdata is the domain model of the primary network's data: P-chain
// and X-chain blocks, C-chain atomic transactions, the UTXOs they consume and
// create, stakers and rewards. The chain readers (pchain, xchain, evmchain
// for C-chain atomic txs) produce it; the store writes and reads it; the
// handlers render it. Nothing here depends on how it is stored.
package pdata

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Block is one accepted block of the P- or X-chain with its transactions.
// (C-chain atomic txs travel inside evmdata.Block.)
type Block struct {
	Chain    netinfo.Chain
	Number   uint64
	ID       ids.ID // the accepted (outer, proposervm) block ID
	ParentID ids.ID // the outer parent ID
	// Timestamp is the block time in Unix seconds. Zero means "the chain
	// time": a pre-Banff P-chain block carries no time of its own, and the
	// store's ordered writer fills in the chain time it tracks.
	Timestamp int64
	// NextChainTime, when non-zero, is the P-chain time from this block on:
	// a committed Apricot AdvanceTimeTx moves the chain time.
	NextChainTime int64
	// Type is the block's type name: platformvm's (BanffStandardBlock,
	// ApricotProposalBlock, ...) or avm's (StandardBlock).
	Type     string
	Size     int       // bytes of the accepted (outer) block
	Proposer *Proposer // nil for option blocks and blocks before the proposervm fork
	Txs      []*Tx
	// AdvancesTime says the P-chain time moves to Timestamp before the
	// block's txs execute (Banff standard and proposal blocks), promoting
	// the pending stakers that start by then.
	AdvancesTime bool
	// Durango says the block's txs execute under Durango's rules: a staker
	// is current from its acceptance, with its reward computed then.
	Durango bool
}

func (b *Block) Height() uint64 { return b.Number }
func (b *Block) Time() int64    { return b.Timestamp }
func (b *Block) TxCount() int   { return len(b.Txs) }

// Proposer is the proposervm wrapper of a block (Data API proposerDetails).
type Proposer struct {
	ID           ids.ID // the outer block ID
	ParentID     ids.ID
	NodeID       ids.NodeID // empty when any node could build the block
	PChainHeight uint64
	Timestamp    int64
}

// Outcome is what became of a P-chain proposal tx: the option block accepted
// after its proposal block.
type Outcome uint8

const (
	// OutcomeDecided: not a proposal tx; its effects always apply.
	OutcomeDecided Outcome = iota
	OutcomeCommit
	OutcomeAbort
)

func (o Outcome) String() string {
	switch o {
	case OutcomeCommit:
		return "commit"
	case OutcomeAbort:
		return "abort"
	default:
		return "decided"
	}
}
