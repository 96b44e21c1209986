package evmchain

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

func TestTopicsAreTheStandardEvents(t *testing.T) {
	// The topics the standards publish.
	require.Equal(t, "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", topicTransfer.Hex())
	require.Equal(t, "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62", topicTransferSingle.Hex())
	require.Equal(t, "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb", topicTransferBatch.Hex())
}

// words concatenates 32-byte big-endian words.
func words(vs ...uint64) []byte {
	var out []byte
	for _, v := range vs {
		out = append(out, common.BigToHash(new(big.Int).SetUint64(v)).Bytes()...)
	}
	return out
}

func addrTopic(a common.Address) common.Hash { return common.BytesToHash(a.Bytes()) }

func TestMalformedLogsAreSkipped(t *testing.T) {
	from, to, op := addrTopic(addrEWOQ), addrTopic(addrBob), addrTopic(addrEWOQ)
	dirty := to
	dirty[0] = 1 // high bytes set: no address
	tests := map[string]nodeapi.EVMLog{
		"no topics":                          {},
		"Transfer with 2 topics":             {Topics: []common.Hash{topicTransfer, from}, Data: words(1)},
		"ERC-20 Transfer with short data":    {Topics: []common.Hash{topicTransfer, from, to}, Data: words(1)[:31]},
		"ERC-20 Transfer with long data":     {Topics: []common.Hash{topicTransfer, from, to}, Data: words(1, 2)},
		"ERC-721 Transfer with data":         {Topics: []common.Hash{topicTransfer, from, to, {7}}, Data: words(1)},
		"legacy NFT Transfer (1 topic)":      {Topics: []common.Hash{topicTransfer}, Data: words(1, 2, 3)},
		"Transfer to a non-address":          {Topics: []common.Hash{topicTransfer, from, dirty}, Data: words(1)},
		"removed log":                        {Topics: []common.Hash{topicTransfer, from, to}, Data: words(1), Removed: true},
		"TransferSingle with 3 topics":       {Topics: []common.Hash{topicTransferSingle, op, from}, Data: words(1, 2)},
		"TransferSingle with short data":     {Topics: []common.Hash{topicTransferSingle, op, from, to}, Data: words(1)},
		"TransferSingle from a non-address":  {Topics: []common.Hash{topicTransferSingle, op, dirty, to}, Data: words(1, 2)},
		"TransferBatch without data":         {Topics: []common.Hash{topicTransferBatch, op, from, to}},
		"TransferBatch with unequal arrays":  {Topics: []common.Hash{topicTransferBatch, op, from, to}, Data: words(0x40, 0x80, 1, 9, 2, 10, 11)},
		"TransferBatch with offset past end": {Topics: []common.Hash{topicTransferBatch, op, from, to}, Data: words(0x40, 0x1000, 1, 9)},
		"TransferBatch with absurd offset":   {Topics: []common.Hash{topicTransferBatch, op, from, to}, Data: absurdOffset()},
		"TransferBatch with absurd length":   {Topics: []common.Hash{topicTransferBatch, op, from, to}, Data: words(0x40, 0x40, 1<<62)},
		"TransferBatch with length past end": {Topics: []common.Hash{topicTransferBatch, op, from, to}, Data: words(0x40, 0x40, 3, 1, 2)},
		"TransferBatch with offset overflow": {Topics: []common.Hash{topicTransferBatch, op, from, to}, Data: words(^uint64(0)-8, 0x40, 0)},
	}
	for name, log := range tests {
		t.Run(name, func(t *testing.T) {
			require.Empty(t, tokenTransfers([]nodeapi.EVMLog{log}))
		})
	}
}

// absurdOffset is a TransferBatch whose ids offset has bits above 64 set.
func absurdOffset() []byte {
	data := words(0x40, 0x40, 0)
	data[0] = 0xff
	return data
}

func TestTransferBatchSharedArray(t *testing.T) {
	// ABI encoding lets both heads point at the same array.
	log := nodeapi.EVMLog{
		Address:  addrERC1155,
		Topics:   []common.Hash{topicTransferBatch, addrTopic(addrEWOQ), addrTopic(addrEWOQ), addrTopic(addrBob)},
		Data:     words(0x40, 0x40, 2, 4, 5),
		LogIndex: hexutil.Uint64(9),
	}
	got := tokenTransfers([]nodeapi.EVMLog{log})
	require.Len(t, got, 2)
	require.Equal(t, big.NewInt(5), got[1].TokenID)
	require.Equal(t, big.NewInt(5), got[1].Value)
	require.Equal(t, uint16(1), got[1].BatchIndex)
	require.Equal(t, uint32(9), got[1].LogIndex)
}

func TestEmptyTransferBatch(t *testing.T) {
	log := nodeapi.EVMLog{
		Topics: []common.Hash{topicTransferBatch, addrTopic(addrEWOQ), addrTopic(addrEWOQ), addrTopic(addrBob)},
		Data:   words(0x40, 0x60, 0, 0),
	}
	require.Empty(t, tokenTransfers([]nodeapi.EVMLog{log}))
}

func TestERC20Mint(t *testing.T) {
	log := nodeapi.EVMLog{
		Address: addrERC20,
		Topics:  []common.Hash{topicTransfer, {}, addrTopic(addrBob)},
		Data:    common.BigToHash(new(big.Int).Lsh(big.NewInt(1), 255)).Bytes(),
	}
	got := tokenTransfers([]nodeapi.EVMLog{log})
	require.Equal(t, []evmdata.TokenTransfer{{
		Token: addrERC20, Kind: evmdata.Erc20, To: addrBob, Value: new(big.Int).Lsh(big.NewInt(1), 255),
	}}, got)
}

// FuzzTransferBatch checks that no input makes the decoder panic or
// allocate beyond the data it was given.
func FuzzTransferBatch(f *testing.F) {
	f.Add(words(0x40, 0xc0, 3, 1, 2, 3, 3, 10, 20, 30))
	f.Add(words(0x40, 0x40, 1<<40))
	f.Add([]byte(strings.Repeat("\xff", 100)))
	f.Add([]byte{})
	topics := []common.Hash{topicTransferBatch, addrTopic(addrEWOQ), addrTopic(addrEWOQ), addrTopic(addrBob)}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := tokenTransfers([]nodeapi.EVMLog{{Topics: topics, Data: data}})
		require.LessOrEqual(t, len(got)*wordSize, len(data))
	})
}
