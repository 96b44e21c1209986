package evmchain

import (
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

func gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e9)) }

func ether(num, den int64) *big.Int {
	v := new(big.Int).Mul(big.NewInt(num), big.NewInt(1e18))
	return v.Div(v, big.NewInt(den))
}

func TestParseBlockHeader(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	require.Equal(t, uint64(fixtureHeight), b.Number)
	require.Equal(t, common.HexToHash("0x7d2b3ce5bd1e6a9f2a6e5c1b0f4d8a7c3e9b2d1f0a5c4b3e2d1f0a9b8c7d6e5f"), b.Hash)
	require.Equal(t, common.HexToHash("0x1c9a4f0e3d2b5a6978c1d0e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2"), b.ParentHash)
	require.Equal(t, uint64(1716560832), b.Timestamp)
	require.Equal(t, gwei(25), b.BaseFee)
	require.Equal(t, uint64(1034567), b.GasUsed)
	require.Equal(t, uint64(15000000), b.GasLimit)
	require.Equal(t, common.HexToAddress("0x0100000000000000000000000000000000000000"), b.Miner)
	require.Equal(t, uint64(3127), b.Size)
	require.Equal(t, 0, b.BlockGasCost.Sign(), "blockGasCost 0x0")
	require.Nil(t, b.TimestampMs, "a pre-Granite header")
	require.Nil(t, b.MinDelayExcess, "a pre-Granite header")
	require.True(t, b.Traced)
	require.Len(t, b.Txs, 7)
	for i, tx := range b.Txs {
		require.Equal(t, uint32(i), tx.Index)
		require.Equal(t, data.Block.Transactions[i].Hash, tx.Hash)
	}
}

func TestParseGraniteHeaderFields(t *testing.T) {
	data, traces := fixture(t)
	ms, excess := hexutil.Uint64(1716560832250), hexutil.Uint64(7477290)
	data.Block.TimestampMs, data.Block.MinDelayExcess = &ms, &excess
	data.Block.BlockGasCost = nil
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	require.Equal(t, uint64(1716560832250), *b.TimestampMs)
	require.Equal(t, uint64(7477290), *b.MinDelayExcess)
	require.Nil(t, b.BlockGasCost, "a header without blockGasCost")
}

func TestParseLegacyTx(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	tx := b.Txs[0]
	require.Equal(t, uint8(0), tx.Type)
	require.Equal(t, addrEWOQ, tx.From)
	require.Equal(t, &addrBob, tx.To)
	require.Equal(t, uint64(5), tx.Nonce)
	require.Equal(t, ether(1, 1), tx.Value)
	require.Equal(t, uint64(21000), tx.Gas)
	require.Equal(t, gwei(30), tx.GasPrice)
	require.Nil(t, tx.MaxFeePerGas)
	require.Nil(t, tx.MaxPriorityFeePerGas)
	require.Empty(t, tx.Input)
	require.Nil(t, tx.MethodID())
	require.Equal(t, uint8(1), tx.Status)
	require.Equal(t, uint64(21000), tx.GasUsed)
	require.Equal(t, gwei(30), tx.EffectiveGasPrice)
	require.Nil(t, tx.ContractAddress)
	require.Empty(t, tx.Transfers)
	require.Empty(t, tx.Internal)
	require.Empty(t, tx.Creations)
}

func TestParseDynamicFeeTxWithERC20Transfer(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	tx := b.Txs[1]
	require.Equal(t, uint8(2), tx.Type)
	require.Nil(t, tx.GasPrice, "a dynamic-fee tx has no gas price of its own")
	require.Equal(t, gwei(50), tx.MaxFeePerGas)
	require.Equal(t, gwei(2), tx.MaxPriorityFeePerGas)
	require.Equal(t, gwei(27), tx.EffectiveGasPrice)
	require.Equal(t, uint64(34567), tx.GasUsed)
	require.Equal(t, []byte{0xa9, 0x05, 0x9c, 0xbb}, tx.MethodID())
	require.Len(t, tx.Input, 4+2*32)
	// Log 1 (a Transfer with 64 bytes of data) and log 2 (Approval) are no
	// transfers.
	require.Equal(t, []evmdata.TokenTransfer{{
		LogIndex: 0, Token: addrERC20, Kind: evmdata.Erc20,
		From: addrEWOQ, To: addrBob, Value: big.NewInt(1000),
	}}, tx.Transfers)
}

func TestParseTopLevelCreation(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	tx := b.Txs[2]
	require.True(t, tx.IsCreation())
	require.Nil(t, tx.To)
	require.Equal(t, &addrNewContract, tx.ContractAddress)
	// The creation itself is the trace's top frame: counted once, from the
	// receipt; the child its constructor made comes from the trace.
	require.Equal(t, []evmdata.ContractCreation{
		{Address: addrNewContract, Deployer: addrEWOQ},
		{Address: addrNewChild, Deployer: addrEWOQ, DeployerContract: addrNewContract},
	}, tx.Creations)
	require.Equal(t, []evmdata.InternalTx{{
		Index: 0, Type: evmdata.Create2, From: addrNewContract, To: addrNewChild,
		Value: big.NewInt(0), Gas: 300000, GasUsed: 120000,
	}}, tx.Internal)
}

func TestParseERC721Mint(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	require.Equal(t, []evmdata.TokenTransfer{{
		LogIndex: 3, Token: addrERC721, Kind: evmdata.Erc721,
		From: common.Address{}, To: addrEWOQ, TokenID: big.NewInt(7), Value: big.NewInt(1),
	}}, b.Txs[3].Transfers)
}

func TestParseERC1155Transfers(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	single := evmdata.TokenTransfer{
		LogIndex: 4, Token: addrERC1155, Kind: evmdata.Erc1155, Operator: addrEWOQ,
		From: addrEWOQ, To: addrBob, TokenID: big.NewInt(1), Value: big.NewInt(5),
	}
	batch := func(i uint16, id, value int64) evmdata.TokenTransfer {
		return evmdata.TokenTransfer{
			LogIndex: 5, BatchIndex: i, Token: addrERC1155, Kind: evmdata.Erc1155, Operator: addrEWOQ,
			From: common.Address{}, To: addrBob, TokenID: big.NewInt(id), Value: big.NewInt(value),
		}
	}
	// Log 6 is a TransferBatch with 2 ids and 3 values: skipped.
	require.Equal(t, []evmdata.TokenTransfer{single, batch(0, 1, 10), batch(1, 2, 20), batch(2, 3, 30)}, b.Txs[4].Transfers)
	require.Empty(t, b.Txs[4].Internal, "a zero-value call is no internal tx")
}

func TestParseRevertedTx(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	tx := b.Txs[5]
	require.False(t, tx.Succeeded())
	require.Equal(t, uint8(0), tx.Status)
	require.Equal(t, uint64(23456), tx.GasUsed)
	require.Empty(t, tx.Transfers)
	require.Empty(t, tx.Creations)
	require.Equal(t, []evmdata.InternalTx{{
		Index: 0, Type: evmdata.Call, From: addrERC20, To: addrSink,
		Value: big.NewInt(1e15), Gas: 20000, GasUsed: 9000, Reverted: true,
	}}, tx.Internal, "the inner call is reverted with its caller")
}

func TestParseNestedTrace(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	tx := b.Txs[6]
	// Depth-first, top call excluded: 0 STATICCALL and 6 DELEGATECALL carry
	// no value and are not kept, but keep their numbers.
	require.Equal(t, []evmdata.InternalTx{
		{Index: 1, Type: evmdata.Call, From: addrForwarder, To: addrSink, Value: ether(1, 1), Gas: 100000, GasUsed: 30000},
		{Index: 2, Type: evmdata.Call, From: addrSink, To: addrBob, Value: ether(1, 2), Gas: 2300},
		{Index: 3, Type: evmdata.Create2, From: addrForwarder, To: addrChild2, Value: big.NewInt(0), Gas: 150000, GasUsed: 80000},
		{Index: 4, Type: evmdata.Call, From: addrForwarder, To: addrReverter, Value: ether(1, 4), Gas: 50000, GasUsed: 40000, Reverted: true},
		{Index: 5, Type: evmdata.Create, From: addrReverter, To: common.HexToAddress("0xad9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e"),
			Value: big.NewInt(0), Gas: 30000, GasUsed: 28000, Reverted: true},
		{Index: 7, Type: evmdata.Create, From: addrForwarder, Value: big.NewInt(0), Gas: 10000, GasUsed: 10000, Reverted: true},
	}, tx.Internal)
	// Only the CREATE2 survived: the CREATE under the reverted call was
	// undone, and the failed CREATE made nothing.
	require.Equal(t, []evmdata.ContractCreation{
		{Address: addrChild2, Deployer: addrEWOQ, DeployerContract: addrForwarder},
	}, tx.Creations)
}

func TestParseUntracedBlock(t *testing.T) {
	data, _ := fixture(t)
	b, err := ParseBlock(data, nil, false)
	require.NoError(t, err)
	require.False(t, b.Traced)
	for _, tx := range b.Txs {
		require.Empty(t, tx.Internal)
	}
	require.Equal(t, []evmdata.ContractCreation{{Address: addrNewContract, Deployer: addrEWOQ}}, b.Txs[2].Creations,
		"without a trace only the top-level creation is known")
	require.Len(t, b.Txs[4].Transfers, 4, "transfers come from receipts, not traces")
}

func TestParseBlockRejectsMismatchedReceipts(t *testing.T) {
	tests := map[string]func(t *testing.T) error{
		"missing receipt": func(t *testing.T) error {
			data, _ := fixture(t)
			data.Receipts = data.Receipts[:6]
			return parseErr(ParseBlock(data, nil, false))
		},
		"receipts out of order": func(t *testing.T) error {
			data, _ := fixture(t)
			data.Receipts[1], data.Receipts[2] = data.Receipts[2], data.Receipts[1]
			return parseErr(ParseBlock(data, nil, false))
		},
		"receipt of another block": func(t *testing.T) error {
			data, _ := fixture(t)
			data.Receipts[3].BlockHash = common.Hash{1}
			return parseErr(ParseBlock(data, nil, false))
		},
		"receipt without status": func(t *testing.T) error {
			data, _ := fixture(t)
			data.Receipts[0].Status = nil
			return parseErr(ParseBlock(data, nil, false))
		},
		"successful creation without address": func(t *testing.T) error {
			data, _ := fixture(t)
			data.Receipts[2].ContractAddress = nil
			return parseErr(ParseBlock(data, nil, false))
		},
		"missing trace": func(t *testing.T) error {
			data, traces := fixture(t)
			return parseErr(ParseBlock(data, traces[1:], true))
		},
		"trace of another tx": func(t *testing.T) error {
			data, traces := fixture(t)
			traces[0], traces[1] = traces[1], traces[0]
			return parseErr(ParseBlock(data, traces, true))
		},
		"tracer failed on a tx": func(t *testing.T) error {
			data, traces := fixture(t)
			traces[3].Result, traces[3].Error = nil, "execution timeout"
			return parseErr(ParseBlock(data, traces, true))
		},
	}
	for name, run := range tests {
		t.Run(name, func(t *testing.T) {
			err := run(t)
			require.Error(t, err)
			require.Contains(t, err.Error(), "block 42")
		})
	}
}

func parseErr(_ *evmdata.Block, err error) error { return err }

func TestParseFailedCreation(t *testing.T) {
	data, traces := fixture(t)
	failed := *data.Receipts[2].Status
	failed = 0
	data.Receipts[2].Status = &failed
	traces[2].Result.Error = "execution reverted"
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	tx := b.Txs[2]
	require.Nil(t, tx.ContractAddress, "the node reports the would-be address of a failed creation too")
	require.Empty(t, tx.Creations)
	require.Len(t, tx.Internal, 1)
	require.True(t, tx.Internal[0].Reverted)
}

// The webhooks send a tx's logs and access list and the header's receipts
// root: the parser keeps the node's decoded values, never copies.
func TestParseKeepsLogsAccessListAndReceiptsRoot(t *testing.T) {
	data, traces := fixture(t)
	b, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	require.Equal(t, common.HexToHash("0xabc"), b.ReceiptsRoot)
	tx := b.Txs[1]
	require.Len(t, tx.Logs, 3, "every log, the ones that are no transfer too")
	require.Same(t, &data.Receipts[1].Logs[0], &tx.Logs[0], "the receipt's own logs")
	require.Equal(t, addrERC20, tx.Logs[0].Address)
	require.Nil(t, b.Txs[0].AccessList, "a legacy tx has none")
	require.NotNil(t, tx.AccessList, "a dynamic-fee tx has one, here empty")
	require.Empty(t, tx.AccessList)
	require.Empty(t, b.Txs[5].Logs, "a reverted tx has none")
}
