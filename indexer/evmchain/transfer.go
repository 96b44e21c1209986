package evmchain

import (
	"encoding/binary"
	"math"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// The token standards' event signatures: ERC-20 and ERC-721 Transfer,
// ERC-1155 TransferSingle and TransferBatch. They are computed once and
// never written.
var (
	topicTransfer       = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	topicTransferSingle = crypto.Keccak256Hash([]byte("TransferSingle(address,address,address,uint256,uint256)"))
	topicTransferBatch  = crypto.Keccak256Hash([]byte("TransferBatch(address,address,address,uint256[],uint256[])"))
)

const (
	wordSize = 32
	// maxBatchElements is what TokenTransfer.BatchIndex can number. A real
	// TransferBatch that long would not fit in a block's gas.
	maxBatchElements = math.MaxUint16 + 1
)

// tokenTransfers reads the ERC-20, ERC-721 and ERC-1155 transfers of one
// successful transaction's logs. Logs that only look like transfers (wrong
// topic count or data length, addresses with high bits set, inconsistent
// arrays) are skipped: any contract can emit any event.
func tokenTransfers(logs []nodeapi.EVMLog) []evmdata.TokenTransfer {
	var out []evmdata.TokenTransfer
	for i := range logs {
		out = appendTransfers(out, &logs[i])
	}
	return out
}

func appendTransfers(out []evmdata.TokenTransfer, log *nodeapi.EVMLog) []evmdata.TokenTransfer {
	if log.Removed || len(log.Topics) == 0 || uint64(log.LogIndex) > math.MaxUint32 {
		return out
	}
	switch log.Topics[0] {
	case topicTransfer:
		if t, ok := parseTransfer(log); ok {
			out = append(out, t)
		}
	case topicTransferSingle:
		if t, ok := parseTransferSingle(log); ok {
			out = append(out, t)
		}
	case topicTransferBatch:
		out = append(out, parseTransferBatch(log)...)
	}
	return out
}

// parseTransfer reads Transfer(from, to, value) of ERC-20 (value in data)
// or Transfer(from, to, tokenId) of ERC-721 (all indexed). The two differ
// only in how many parameters are indexed.
func parseTransfer(log *nodeapi.EVMLog) (evmdata.TokenTransfer, bool) {
	from, okFrom := topicAddress(log.Topics, 1)
	to, okTo := topicAddress(log.Topics, 2)
	if !okFrom || !okTo {
		return evmdata.TokenTransfer{}, false
	}
	t := evmdata.TokenTransfer{LogIndex: uint32(log.LogIndex), Token: log.Address, From: from, To: to}
	switch {
	case len(log.Topics) == 3 && len(log.Data) == wordSize:
		t.Kind = evmdata.Erc20
		t.Value = new(big.Int).SetBytes(log.Data)
	case len(log.Topics) == 4 && len(log.Data) == 0:
		t.Kind = evmdata.Erc721
		t.TokenID = log.Topics[3].Big()
		t.Value = big.NewInt(1)
	default:
		return evmdata.TokenTransfer{}, false
	}
	return t, true
}

// parseTransferSingle reads ERC-1155 TransferSingle(operator, from, to; id,
// value).
func parseTransferSingle(log *nodeapi.EVMLog) (evmdata.TokenTransfer, bool) {
	t, ok := erc1155Header(log)
	if !ok || len(log.Data) != 2*wordSize {
		return evmdata.TokenTransfer{}, false
	}
	t.TokenID = new(big.Int).SetBytes(log.Data[:wordSize])
	t.Value = new(big.Int).SetBytes(log.Data[wordSize:])
	return t, true
}

// parseTransferBatch reads ERC-1155 TransferBatch(operator, from, to; ids[],
// values[]) as one transfer per element, numbered by BatchIndex.
func parseTransferBatch(log *nodeapi.EVMLog) []evmdata.TokenTransfer {
	t, ok := erc1155Header(log)
	if !ok {
		return nil
	}
	ids, okIDs := abiUintArray(log.Data, 0)
	values, okValues := abiUintArray(log.Data, wordSize)
	if !okIDs || !okValues || len(ids) != len(values) {
		return nil
	}
	out := make([]evmdata.TokenTransfer, len(ids))
	for i := range ids {
		out[i] = t
		out[i].BatchIndex = uint16(i)
		out[i].TokenID = ids[i]
		out[i].Value = values[i]
	}
	return out
}

// erc1155Header reads the indexed operator, from and to of an ERC-1155
// transfer event.
func erc1155Header(log *nodeapi.EVMLog) (evmdata.TokenTransfer, bool) {
	if len(log.Topics) != 4 {
		return evmdata.TokenTransfer{}, false
	}
	operator, okOp := topicAddress(log.Topics, 1)
	from, okFrom := topicAddress(log.Topics, 2)
	to, okTo := topicAddress(log.Topics, 3)
	if !okOp || !okFrom || !okTo {
		return evmdata.TokenTransfer{}, false
	}
	return evmdata.TokenTransfer{
		LogIndex: uint32(log.LogIndex),
		Token:    log.Address,
		Kind:     evmdata.Erc1155,
		Operator: operator,
		From:     from,
		To:       to,
	}, true
}

// topicAddress reads an indexed address parameter: a topic holding a
// left-padded address. A topic with its high 12 bytes set is no address.
func topicAddress(topics []common.Hash, i int) (common.Address, bool) {
	if i >= len(topics) {
		return common.Address{}, false
	}
	h := topics[i]
	for _, b := range h[:common.HashLength-common.AddressLength] {
		if b != 0 {
			return common.Address{}, false
		}
	}
	return common.BytesToAddress(h[:]), true
}

// abiUintArray decodes the uint256[] whose head (its offset) is at byte
// head of ABI-encoded data. Every offset and length is checked against the
// data, so hostile input yields false, never a panic or a huge allocation.
func abiUintArray(data []byte, head uint64) ([]*big.Int, bool) {
	offset, ok := abiUint64(data, head)
	if !ok {
		return nil, false
	}
	n, ok := abiUint64(data, offset)
	if !ok {
		return nil, false
	}
	start := offset + wordSize // abiUint64 checked that offset+32 <= len(data)
	if n > maxBatchElements || n > (uint64(len(data))-start)/wordSize {
		return nil, false
	}
	out := make([]*big.Int, n)
	for i := range out {
		at := start + uint64(i)*wordSize
		out[i] = new(big.Int).SetBytes(data[at : at+wordSize])
	}
	return out, true
}

// abiUint64 reads the word at byte pos of data as an offset or a length,
// which must fit in 64 bits.
func abiUint64(data []byte, pos uint64) (uint64, bool) {
	if pos > uint64(len(data)) || uint64(len(data))-pos < wordSize {
		return 0, false
	}
	word := data[pos : pos+wordSize]
	for _, b := range word[:wordSize-8] {
		if b != 0 {
			return 0, false
		}
	}
	return binary.BigEndian.Uint64(word[wordSize-8:]), true
}
