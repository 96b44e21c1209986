package evm

import (
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

func TestExportRows(t *testing.T) {
	from := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	to := common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	made := common.HexToAddress("0x000000000000000000000000000000000000c0de")
	block := evmdata.BlockRef{Number: 7, Hash: common.HexToHash("0x07"), Timestamp: 1_700_000_000}
	rows := NewExportRows()
	row := func(tx evmdata.Tx) []string {
		return rows.Row(43112, &evmdata.IndexedTx{Block: block, Tx: tx})
	}
	require.Len(t, ExportColumns(), 18)

	transfer := row(evmdata.Tx{Hash: common.HexToHash("0x01"), Index: 2, Type: 2, From: from, To: &to, Nonce: 5,
		Value: big.NewInt(10), Gas: 21000, GasUsed: 21000, EffectiveGasPrice: big.NewInt(30), MaxFeePerGas: big.NewInt(50), Status: 1})
	require.Equal(t, []string{"7", "1700000000", block.Hash.Hex(), "43112", "2", common.HexToHash("0x01").Hex(), "1", "2",
		"21000", "21000", "30", "5", from.Hex(), to.Hex(), "NATIVE_TRANSFER", "", "Native Transfer", "10"}, transfer)

	creation := row(evmdata.Tx{From: from, ContractAddress: &made, Input: []byte{0x60}, GasPrice: big.NewInt(25), Status: 1})
	require.Equal(t, made.Hex(), creation[13], "to is the contract created")
	require.Equal(t, []string{"CONTRACT_CREATION", "", "Contract Created", "0"}, creation[14:])
	require.Equal(t, "25", creation[10], "a legacy price without a receipt price")

	failed := row(evmdata.Tx{From: from, To: &to, Input: []byte{0xa9, 0x05, 0x9c, 0xbb, 0}, Status: 0})
	require.Equal(t, "0", failed[6])
	require.Equal(t, []string{"CONTRACT_CALL", "0xa9059cbb", "transfer(address,uint256)"}, failed[14:17])
}
