package evm

import (
	"encoding/binary"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// Cursors of the EVM listings: the position of a page's last item, kept in
// PageToken.Extra (see pinned_listing.go for the pinned height).

const (
	txPosLen       = 8 + 4
	transferPosLen = 8 + 4 + 2
	tokenIDLen     = 32 // token ids are uint256
	nftPosLen      = common.AddressLength + tokenIDLen
)

func encodeTxPos(p evmdata.TxPos) []byte {
	b := binary.BigEndian.AppendUint64(nil, p.Block)
	return binary.BigEndian.AppendUint32(b, p.Index)
}

func decodeTxPos(b []byte) (evmdata.TxPos, bool) {
	if len(b) != txPosLen {
		return evmdata.TxPos{}, false
	}
	return evmdata.TxPos{Block: binary.BigEndian.Uint64(b), Index: binary.BigEndian.Uint32(b[8:])}, true
}

func encodeTransferPos(p evmdata.TransferPos) []byte {
	b := binary.BigEndian.AppendUint64(nil, p.Block)
	b = binary.BigEndian.AppendUint32(b, p.LogIndex)
	return binary.BigEndian.AppendUint16(b, p.BatchIndex)
}

func decodeTransferPos(b []byte) (evmdata.TransferPos, bool) {
	if len(b) != transferPosLen {
		return evmdata.TransferPos{}, false
	}
	return evmdata.TransferPos{
		Block:      binary.BigEndian.Uint64(b),
		LogIndex:   binary.BigEndian.Uint32(b[8:]),
		BatchIndex: binary.BigEndian.Uint16(b[12:]),
	}, true
}

// encodeNFTPos keeps the token id as 32 big-endian bytes; an id that does
// not fit (not a uint256) cannot come from the index.
func encodeNFTPos(p evmdata.NFTPos) []byte {
	id := make([]byte, tokenIDLen)
	if p.TokenID != nil && p.TokenID.Sign() >= 0 && p.TokenID.BitLen() <= 8*tokenIDLen {
		p.TokenID.FillBytes(id)
	}
	return append(p.Contract.Bytes(), id...)
}

func decodeNFTPos(b []byte) (evmdata.NFTPos, bool) {
	if len(b) != nftPosLen {
		return evmdata.NFTPos{}, false
	}
	return evmdata.NFTPos{
		Contract: common.BytesToAddress(b[:common.AddressLength]),
		TokenID:  new(big.Int).SetBytes(b[common.AddressLength:]),
	}, true
}

func decodeAddress(b []byte) (common.Address, bool) {
	if len(b) != common.AddressLength {
		return common.Address{}, false
	}
	return common.BytesToAddress(b), true
}

// txListingPositions places an address's transactions: by block, then index.
func txListingPositions() listingPositions[evmdata.IndexedTx, evmdata.TxPos] {
	return listingPositions[evmdata.IndexedTx, evmdata.TxPos]{decode: decodeTxPos, encode: encodeTxPos, posOf: txPosOf}
}

func txPosOf(tx evmdata.IndexedTx) evmdata.TxPos {
	return evmdata.TxPos{Block: tx.Block.Number, Index: tx.Tx.Index}
}

// transferListingPositions places a token's transfers: by block, log index, then
// the index within a batch transfer.
func transferListingPositions() listingPositions[evmdata.IndexedTransfer, evmdata.TransferPos] {
	return listingPositions[evmdata.IndexedTransfer, evmdata.TransferPos]{
		decode: decodeTransferPos, encode: encodeTransferPos, posOf: transferPosOf,
	}
}

func transferPosOf(t evmdata.IndexedTransfer) evmdata.TransferPos {
	return evmdata.TransferPos{Block: t.Block.Number, LogIndex: t.LogIndex, BatchIndex: t.BatchIndex}
}
