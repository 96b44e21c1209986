package evmdata

import (
	"math/big"

	"github.com/ava-labs/libevm/common"
)

// ErcType is a token standard.
type ErcType uint8

const (
	ErcUnknown ErcType = iota
	Erc20
	Erc721
	Erc1155
)

// String is the Data API's ercType value.
func (e ErcType) String() string {
	switch e {
	case Erc20:
		return "ERC-20"
	case Erc721:
		return "ERC-721"
	case Erc1155:
		return "ERC-1155"
	default:
		return "UNKNOWN"
	}
}

// TokenTransfer is one token movement read from a receipt log: an ERC-20 or
// ERC-721 Transfer, an ERC-1155 TransferSingle, or one element of an ERC-1155
// TransferBatch (which share the log index and differ in BatchIndex).
type TokenTransfer struct {
	LogIndex   uint32 // block-global log index, as in receipts
	BatchIndex uint16 // element of a TransferBatch; 0 otherwise
	Token      common.Address
	Kind       ErcType
	Operator   common.Address // ERC-1155 only
	From       common.Address // zero address: mint
	To         common.Address // zero address: burn
	TokenID    *big.Int       // ERC-721 and ERC-1155; nil for ERC-20
	Value      *big.Int       // ERC-20 and ERC-1155 amount; 1 for ERC-721
}

// Involves reports whether addr is the sender or the receiver.
func (t *TokenTransfer) Involves(addr common.Address) bool { return t.From == addr || t.To == addr }
