package evmdata

import (
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/pdata"
)

// Block is one accepted block with everything avadata indexes of it.
type Block struct {
	Number     uint64
	Hash       common.Hash
	ParentHash common.Hash
	Timestamp  uint64   // Unix seconds
	BaseFee    *big.Int // nil before EIP-1559
	GasUsed    uint64
	GasLimit   uint64
	Miner      common.Address
	Size       uint64
	// ReceiptsRoot is the header's receipts trie root; kept for the
	// webhooks, never stored.
	ReceiptsRoot common.Hash
	// BlockGasCost, TimestampMs and MinDelayExcess are Avalanche header
	// fields (coreth and subnet-evm): the block gas cost (Apricot Phase 4
	// on), the timestamp in milliseconds and the minimum block delay excess
	// (Granite on). nil when the header has none.
	BlockGasCost   *big.Int
	TimestampMs    *uint64
	MinDelayExcess *uint64
	Txs            []Tx
	// Traced says whether internal transactions and contract creations by
	// contracts were recorded from the node's callTracer. A node that cannot
	// trace a block leaves it false rather than inventing an empty trace.
	Traced bool
	// Atomic are the C-chain atomic (import/export) txs of the block, from
	// its blockExtraData; nil on every other EVM chain.
	Atomic []*pdata.Tx
}

// Height and the other accessors let the follower handle any domain block.
func (b *Block) Height() uint64 { return b.Number }

// Time is the block timestamp in Unix seconds.
func (b *Block) Time() int64 { return int64(b.Timestamp) }

// TxCount is the number of transactions in the block.
func (b *Block) TxCount() int { return len(b.Txs) }

// HasTraces reports Traced, for the follower's status.
func (b *Block) HasTraces() bool { return b.Traced }
