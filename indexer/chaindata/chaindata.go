// Package chaindata holds what every followed chain's blocks have in common,
// so the follower and the store can move any chain's domain blocks.
package chaindata

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
