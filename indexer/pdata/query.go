package pdata

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
)

// TxPos is a tx's place in its chain: block height, then position in the
// block. Listings page by it.
type TxPos struct {
	Height uint64
	Index  uint32
}

// TxQuery selects txs of one chain.
type TxQuery struct {
	// Addresses, when set, keeps txs that involve any of them (as owner of
	// a consumed or produced UTXO, or a signer). Empty: every tx of the chain.
	Addresses []ids.ShortID
	// Types keeps txs of these types (empty: all).
	Types []string
	// Heights bounds the block height: From inclusive, To exclusive (0: no
	// bound). Timestamps are turned into heights first (BlockAtTime).
	FromHeight, ToHeight uint64
	Desc                 bool
	// After continues a listing after this position (exclusive).
	After *TxPos
	Limit int
	// MaxUTXOs caps the UTXOs one page may hold; a page stops early past it
	// (Data API rule 3).
	MaxUTXOs int
}

// IndexedTx is a tx with its place in the chain and its UTXOs as the index
// knows them now.
type IndexedTx struct {
	Chain     netinfo.Chain
	Pos       TxPos
	BlockID   ids.ID
	BlockTime int64
	Tx        *Tx
	// Consumed and Produced follow Tx.Consumed and Tx.Produced; an entry
	// the index does not know (a UTXO of a chain not indexed) is built from
	// the tx alone.
	Consumed []IndexedUTXO
	Produced []IndexedUTXO
}

// BlockQuery selects blocks of one chain proposed by one node.
type BlockQuery struct {
	NodeID               ids.NodeID
	FromHeight, ToHeight uint64 // as in TxQuery
	Desc                 bool
	After                uint64 // continue after this height (0: from the start)
	Limit                int
}

// IndexedBlock is a block summary as the index keeps it.
type IndexedBlock struct {
	Chain    netinfo.Chain
	Number   uint64
	ID       ids.ID
	ParentID ids.ID
	Time     int64
	Type     string
	Size     int
	Proposer *Proposer
	TxIDs    []ids.ID
}

// Balance categories. P-chain balances use all eight; X-chain ones
// Unlocked/Locked (as unlockedUnstaked/lockedPlatform) and the atomic ones;
// C-chain ones only the atomic ones.
type BalanceCategory uint8

const (
	UnlockedUnstaked BalanceCategory = iota
	UnlockedStaked
	LockedPlatform
	LockedStakeable
	LockedStaked
	PendingStaked
	AtomicMemoryUnlocked
	AtomicMemoryLocked
	NumBalanceCategories
)

// BalanceEntry is the sum of one asset in one category.
type BalanceEntry struct {
	Category BalanceCategory
	Asset    ids.ID
	Amount   uint64
	UTXOs    int
	// SharedWith is, for the atomic categories, the chain the UTXOs were
	// exported from.
	SharedWith ids.ID
}
