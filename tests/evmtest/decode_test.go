package evmtest

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"
)

// The node sends quantities as hex strings; these check the conversion to
// plain Go types without a node.
func TestReceiptJSON(t *testing.T) {
	const in = `{
	  "transactionHash": "0x00000000000000000000000000000000000000000000000000000000000000aa",
	  "type": "0x2", "status": "0x1", "blockNumber": "0x10",
	  "blockHash": "0x00000000000000000000000000000000000000000000000000000000000000bb",
	  "transactionIndex": "0x3", "from": "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc",
	  "to": "0x0000000000000000000000000000000000000001", "contractAddress": null,
	  "gasUsed": "0x5208", "cumulativeGasUsed": "0xa410", "effectiveGasPrice": "0x3b9aca00",
	  "logs": [{"address": "0x0000000000000000000000000000000000000001",
	    "topics": ["0x00000000000000000000000000000000000000000000000000000000000000cc"],
	    "data": "0x0102", "logIndex": "0x7", "blockNumber": "0x10",
	    "transactionHash": "0x00000000000000000000000000000000000000000000000000000000000000aa",
	    "transactionIndex": "0x3", "removed": false}]
	}`
	var r Receipt
	require.NoError(t, json.Unmarshal([]byte(in), &r))
	require.Equal(t, uint8(2), r.Type)
	require.Equal(t, uint64(1), r.Status)
	require.Equal(t, uint64(16), r.BlockNumber)
	require.Equal(t, uint(3), r.TransactionIndex)
	require.Nil(t, r.ContractAddress)
	require.Equal(t, uint64(21000), r.GasUsed)
	require.Equal(t, big.NewInt(1e9), r.EffectiveGasPrice)
	require.Len(t, r.Logs, 1)
	require.Equal(t, uint(7), r.Logs[0].LogIndex)
	require.Equal(t, []byte{1, 2}, r.Logs[0].Data)
	require.Len(t, r.LogsFrom(common.HexToAddress("0x01")), 1)
	require.Empty(t, r.LogsFrom(common.HexToAddress("0x02")))

	var none *Receipt
	require.NoError(t, json.Unmarshal([]byte("null"), &none))
	require.Nil(t, none, "a pending transaction has a null receipt")
}

func TestCallFrameJSON(t *testing.T) {
	const in = `{"type": "CALL", "from": "0x0000000000000000000000000000000000000001",
	  "to": "0x0000000000000000000000000000000000000002", "value": "0x64", "gas": "0x100", "gasUsed": "0x80",
	  "input": "0x", "calls": [
	    {"type": "CREATE2", "from": "0x0000000000000000000000000000000000000002",
	     "to": "0x0000000000000000000000000000000000000003", "value": "0x32", "gas": "0x10", "gasUsed": "0x8", "input": "0x60"},
	    {"type": "STATICCALL", "from": "0x0000000000000000000000000000000000000002",
	     "to": "0x0000000000000000000000000000000000000004", "gas": "0x10", "gasUsed": "0x8", "input": "0x",
	     "error": "execution reverted", "revertReason": "no", "calls": [
	       {"type": "CALL", "from": "0x0000000000000000000000000000000000000004",
	        "to": "0x0000000000000000000000000000000000000005", "value": "0x0", "gas": "0x1", "gasUsed": "0x1", "input": "0x"}]}]}`
	var f CallFrame
	require.NoError(t, json.Unmarshal([]byte(in), &f))
	require.Equal(t, big.NewInt(100), f.Value)
	require.Equal(t, uint64(256), f.Gas)
	require.Len(t, f.Calls, 2)
	require.Nil(t, f.Calls[1].Value, "a STATICCALL carries no value")
	require.Equal(t, "no", f.Calls[1].RevertReason)

	var types []string
	var depths []int
	f.Walk(func(fr *CallFrame, d int) { types = append(types, fr.Type); depths = append(depths, d) })
	require.Equal(t, []string{"CALL", "CREATE2", "STATICCALL", "CALL"}, types)
	require.Equal(t, []int{0, 1, 1, 2}, depths)
	require.Len(t, f.Internal(), 3)
	require.Len(t, f.Find("CALL"), 2)
	require.Equal(t, common.HexToAddress("0x03"), *f.Find("CREATE2")[0].To)
}
