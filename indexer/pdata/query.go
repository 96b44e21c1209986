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
	// FromTime and ToTime, when set, keep the txs whose time lies within
	// them (inclusive): the heights bound the scan, the times decide. On
	// the X-chain they also reach the DAG txs, which sit at height 0 (before
	// linear block 1) with their vertices' acceptance times by the node:
	// those need not precede the linear blocks' times (a node that
	// bootstrapped the DAG accepted every vertex at bootstrap time), so a
	// height bound alone cannot place them.
	FromTime, ToTime *int64
	Desc             bool
	// After continues a listing after this position (exclusive).
	After *TxPos
	Limit int
	// MaxUTXOs caps the UTXOs one page may hold; a page stops early past it
	// (listLatestPrimaryNetworkTransactions may return fewer txs than the
	// page size once their UTXOs reach a threshold).
	MaxUTXOs int
	// Asset, when set, keeps the txs that consume, produce or create the
	// asset (or move it to or from C-chain accounts) instead of filtering
	// by Addresses.
	Asset *ids.ID
}

// IndexedTx is a tx with its place in the chain and its UTXOs as the index
// knows them now.
type IndexedTx struct {
	Chain     netinfo.Chain
	Pos       TxPos
	BlockID   ids.ID
	BlockTime int64
	Tx        *Tx
	// Vertices are the DAG vertices that hold a pre-Cortina X-chain tx, in
	// acceptance order (a tx may be in several); nil for a tx of a block.
	// BlockID and BlockTime are then the first vertex's.
	Vertices []TxVertex
	// Consumed and Produced follow Tx.Consumed and Tx.Produced; an entry
	// the index does not know (a UTXO of a chain not indexed) is built from
	// the tx alone.
	Consumed []IndexedUTXO
	Produced []IndexedUTXO
}

// TxVertex is one accepted vertex that holds a DAG-era X-chain tx (the
// Data API's TransactionVertexDetail).
type TxVertex struct {
	ID        ids.ID
	DAGHeight uint64
	// Timestamp is the node's acceptance time of the vertex (see Vertex).
	Timestamp int64
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
	// CurrentSupply is the primary network's supply (platformvm's
	// currentSupply, in nAVAX) after the P-chain block; nil when the index
	// cannot derive it (another chain, or a P-chain not indexed from its
	// built-in genesis).
	CurrentSupply *uint64
	// L1Fees is the L1 validator fee state after the P-chain block; nil
	// when the index cannot derive it (as CurrentSupply).
	L1Fees *L1FeeState
}

// L1FeeState is platformvm's L1 validator fee state after a block.
type L1FeeState struct {
	// AccruedFees are the fees (nAVAX) an L1 validator active since Etna
	// would have paid: a validator's balance is its EndAccumulatedFee
	// minus them.
	AccruedFees uint64
	// Excess is the validator fee state's excess (it sets the price).
	Excess uint64
	// ActiveL1Validators counts the L1 validators with a balance left.
	ActiveL1Validators uint64
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
