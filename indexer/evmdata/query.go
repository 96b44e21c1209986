package evmdata

import (
	"math/big"

	"github.com/ava-labs/libevm/common"
)

// The read side: what the store answers and the handlers shape into
// responses.

// BlockRef is what a listed item shows of its block.
type BlockRef struct {
	Number    uint64
	Hash      common.Hash
	Timestamp uint64
	BaseFee   *big.Int // nil before EIP-1559
}

// TxPos orders transactions within a chain: block, then index in the block.
type TxPos struct {
	Block uint64
	Index uint32
}

// Less reports whether p comes before q.
func (p TxPos) Less(q TxPos) bool {
	return p.Block < q.Block || (p.Block == q.Block && p.Index < q.Index)
}

// BlockRange bounds a listing by block number: From inclusive, To exclusive
// (0 means no bound), as the spec's startBlock/endBlock.
type BlockRange struct {
	From uint64
	To   uint64
}

// Contains reports whether block n is inside the range.
func (r BlockRange) Contains(n uint64) bool { return n >= r.From && (r.To == 0 || n < r.To) }

// IndexedTx is a transaction with its block. In address listings its
// Transfers and Internal lists hold only the entries that involve the
// address, as listTransactions gives them.
type IndexedTx struct {
	Block BlockRef
	Tx    Tx
	// Traced says whether the block's internal transactions were recorded.
	Traced bool
}

// AddressTxQuery lists the transactions that involve an address.
type AddressTxQuery struct {
	Address common.Address
	Blocks  BlockRange
	Desc    bool
	// After is the last position of the previous page; nil for the first.
	After *TxPos
	// Pinned is the highest block the listing may show: the indexed height
	// when the first page was served, so paging while blocks arrive never
	// repeats or skips an item.
	Pinned uint64
	Limit  int
}

// TransferPos orders token transfers within a chain.
type TransferPos struct {
	Block      uint64
	LogIndex   uint32
	BatchIndex uint16
}

// IndexedTransfer is a token transfer with its block and transaction.
type IndexedTransfer struct {
	Block   BlockRef
	TxHash  common.Hash
	TxIndex uint32
	TokenTransfer
}

// TransferQuery lists the transfers of one token contract, newest first.
type TransferQuery struct {
	Token  common.Address
	Blocks BlockRange
	After  *TransferPos
	Pinned uint64
	Limit  int
}

// Deployment is how a contract came to be.
type Deployment struct {
	ContractCreation
	TxHash  common.Hash
	TxPos   TxPos
	Factory bool // created by a contract (from a trace), not by a top-level creation
}

// Contract is what the index knows of a contract address.
type Contract struct {
	Address    common.Address
	Kind       ErcType
	Name       string
	Symbol     string
	Decimals   uint8
	HasDecimal bool // Decimals was read from the contract
	// Deployment is nil when the creation was not seen (a factory-made
	// contract on a block without traces).
	Deployment *Deployment
	// MetadataRead says whether name/symbol/decimals/ERC-165 were read on
	// chain yet (a background task reads them after the contract is seen).
	MetadataRead bool
}

// NFT is one ERC-721 token (or an ERC-1155 token id) with its owner.
type NFT struct {
	Contract common.Address
	Kind     ErcType
	TokenID  *big.Int
	Owner    common.Address
	Balance  *big.Int // ERC-1155 balance of Owner; 1 for ERC-721
	// Metadata is nil until the token's URI has been read.
	Metadata *NFTMetadata
}

// TokenRef names one NFT: a token id of a contract of a standard.
type TokenRef struct {
	Contract common.Address
	TokenID  *big.Int
	Kind     ErcType
}

// IndexStatus says how far reading a token's metadata got: the Data API's
// NftTokenMetadataStatus values, in lower case as the spec's sample
// ("indexed") shows them.
type IndexStatus string

const (
	IndexStatusIndexed         IndexStatus = "indexed"
	IndexStatusUnindexed       IndexStatus = "unindexed"
	IndexStatusMissingToken    IndexStatus = "missing_token"
	IndexStatusInvalidTokenURI IndexStatus = "invalid_token_uri"
	IndexStatusInvalidMetadata IndexStatus = "invalid_metadata"
	IndexStatusUnreachable     IndexStatus = "unreachable_token_uri"
	IndexStatusInvalidScheme   IndexStatus = "invalid_token_uri_scheme"
	IndexStatusTooLarge        IndexStatus = "metadata_content_too_large"
)

// NFTMetadata is a token's URI and what its metadata document says.
type NFTMetadata struct {
	TokenURI     string
	Status       IndexStatus
	UpdatedAt    int64 // Unix seconds of the last read
	Name         string
	Description  string
	ImageURI     string
	AnimationURI string
	ExternalURL  string
	Background   string
	// Attributes holds the document's attributes (ERC-721) or properties
	// (ERC-1155) as JSON text.
	Attributes string
	Decimals   *uint8 // ERC-1155 only
}

// NFTPos orders an owner's NFTs: by contract, then token id.
type NFTPos struct {
	Contract common.Address
	TokenID  *big.Int
}

// Holder is an address holding tokens of an NFT contract.
type Holder struct {
	Address common.Address
	// Tokens is how many tokens it holds (ERC-721: token count; ERC-1155:
	// number of token ids with a positive balance).
	Tokens uint64
}

// Collection totals an NFT contract's holdings.
type Collection struct {
	Holders uint64 // addresses holding at least one token
	Tokens  uint64 // tokens with an owner other than the zero address
}

// BlockSummary is an indexed block as the block endpoints show it: its
// header fields and what the index derives from its transactions.
type BlockSummary struct {
	BlockRef
	ParentHash     common.Hash
	GasUsed        uint64
	GasLimit       uint64
	BlockGasCost   *big.Int // nil: the header has none
	TimestampMs    *uint64  // nil before Granite
	MinDelayExcess *uint64  // nil before Granite
	TxCount        uint64
	// FeesSpent is what the block's transactions paid: the sum of gas used
	// times effective gas price.
	FeesSpent *big.Int
	// CumulativeTxs counts the chain's transactions up to and including
	// this block.
	CumulativeTxs uint64
}

// BlockQuery lists a chain's blocks, newest first.
type BlockQuery struct {
	// After is the last block of the previous page (the next are below
	// it); nil for the first.
	After  *uint64
	Pinned uint64 // highest block to show; 0: no bound
	Limit  int
}

// TxStatusFilter selects transactions by receipt status.
type TxStatusFilter uint8

const (
	AnyStatus TxStatusFilter = iota
	FailedOnly
	SucceededOnly
)

// LatestTxQuery lists a chain's transactions, newest first.
type LatestTxQuery struct {
	Status TxStatusFilter
	// After is the last position of the previous page; nil for the first.
	After  *TxPos
	Pinned uint64 // highest block to show; 0: no bound
	Limit  int
}

// AddressTransferQuery lists the token transfers of one standard an address
// sent or received (its typed ERC-20, ERC-721 or ERC-1155 history; an
// ERC-1155 batch's elements are separate transfers).
type AddressTransferQuery struct {
	Address common.Address
	Kind    ErcType
	Blocks  BlockRange
	Desc    bool
	After   *TransferPos
	Pinned  uint64
	Limit   int
}

// InternalPos orders internal transactions within a chain: block, index of
// the tx in the block, then the frame's depth-first position in its trace.
type InternalPos struct {
	Block   uint64
	TxIndex uint32
	Frame   uint32
}

// IndexedInternalTx is an internal transaction with its block and
// transaction.
type IndexedInternalTx struct {
	Block   BlockRef
	TxHash  common.Hash
	TxIndex uint32
	InternalTx
}

// AddressInternalQuery lists the internal transactions an address sent or
// received.
type AddressInternalQuery struct {
	Address common.Address
	Blocks  BlockRange
	Desc    bool
	After   *InternalPos
	Pinned  uint64
	Limit   int
}
