// Package chaindata holds what every followed chain's blocks have in common,
// so the follower and the store can move any chain's domain blocks, and the
// block summary the P and X followers emit until the primary-network model
// replaces it.
package chaindata

import "github.com/ava-labs/avalanchego/ids"

// Block is what the follower and the store's commit loop need of a domain
// block, whatever the chain.
type Block interface {
	// Height is the block's height (EVM: number).
	Height() uint64
	// Time is the block timestamp in Unix seconds.
	Time() int64
	// TxCount is the number of transactions the block holds.
	TxCount() int
}

// Summary is what the store keeps of a P- or X-chain block today.
type Summary struct {
	Number    uint64
	ID        ids.ID
	Timestamp int64
	Txs       int
}

func (s *Summary) Height() uint64 { return s.Number }
func (s *Summary) Time() int64    { return s.Timestamp }
func (s *Summary) TxCount() int   { return s.Txs }
