package evmdata

import (
	"math/big"
	"time"

	"github.com/ava-labs/libevm/common"
)

// CollectionToken is one token of an NFT collection as the index holds it
// now: an ERC-721 token with its owner, or an ERC-1155 id with its supply.
type CollectionToken struct {
	Kind    ErcType
	TokenID *big.Int
	Owner   common.Address // ERC-721 only
	Supply  *big.Int       // ERC-1155 only: minted minus burnt
	// Metadata is nil until the token's URI has been read.
	Metadata *NFTMetadata
}

// DeploymentPos orders a deployer's contracts: by the creating tx's
// position, then the contract's address (one tx may create several).
type DeploymentPos struct {
	Tx       TxPos
	Contract common.Address
}

// DeployedContract is one contract a deployer made, where its creation tx
// sits, and what the index knows of it.
type DeployedContract struct {
	Pos      DeploymentPos
	Contract Contract
}

// ReindexLimits bound the reindex requests of one chain.
type ReindexLimits struct {
	// Cooldown is how long after a token was queued again it may be queued
	// again.
	Cooldown time.Duration
	// MaxQueued is how many tokens the chain's queue may hold (minted tokens
	// waiting included) for a request to be accepted.
	MaxQueued int
}

// ReindexOutcome is what became of a reindex request.
type ReindexOutcome struct {
	// Queued is true when the token is on the queue (now, or already was).
	Queued bool
	// RetryAfter is how long until the token's cooldown ends, when it has
	// not (Queued is false).
	RetryAfter time.Duration
	// QueueFull is true when the queue held MaxQueued tokens already.
	QueueFull bool
}
