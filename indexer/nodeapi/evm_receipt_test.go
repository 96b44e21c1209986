package nodeapi

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// receiptEth answers eth_getTransactionReceipt for one tx with two logs,
// in the JSON a node writes, and null for any other.
type receiptEth struct{ tx common.Hash }

func (s receiptEth) GetTransactionReceipt(hash common.Hash) (map[string]any, error) {
	if hash != s.tx {
		return nil, nil
	}
	return map[string]any{
		"transactionHash": hash, "blockHash": common.Hash{9}, "status": "0x1", "gasUsed": "0x5208",
		"effectiveGasPrice": "0x1", "contractAddress": nil,
		"logs": []any{
			map[string]any{"address": common.Address{1}, "topics": []any{common.Hash{2}, common.Hash{3}},
				"data": "0x00ff", "logIndex": "0x7", "removed": false, "transactionHash": hash},
			map[string]any{"address": common.Address{4}, "topics": []any{}, "data": "0x", "logIndex": "0x8",
				"removed": false, "transactionHash": hash},
		},
	}, nil
}

func dialReceipts(t *testing.T, tx common.Hash) *EVMClient {
	t.Helper()
	rs := rpc.NewServer()
	require.NoError(t, rs.RegisterName("eth", receiptEth{tx: tx}))
	hs := httptest.NewServer(rs)
	t.Cleanup(hs.Close)
	t.Cleanup(rs.Stop)
	c, err := DialEVM(context.Background(), hs.URL+"/", "C")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

func TestTransactionLogsDecodesTheReceiptsLogs(t *testing.T) {
	tx := common.Hash{0xab}
	c := dialReceipts(t, tx)
	logs, ok, err := c.TransactionLogs(context.Background(), tx)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []evmdata.Log{
		{Address: common.Address{1}, Topics: []common.Hash{{2}, {3}}, Data: hexutil.Bytes{0x00, 0xff}, LogIndex: 7},
		{Address: common.Address{4}, Topics: []common.Hash{}, Data: hexutil.Bytes{}, LogIndex: 8},
	}, logs)
}

func TestTransactionLogsOfAnUnknownTx(t *testing.T) {
	c := dialReceipts(t, common.Hash{0xab})
	logs, ok, err := c.TransactionLogs(context.Background(), common.Hash{0xcd})
	require.NoError(t, err)
	require.False(t, ok)
	require.Empty(t, logs)
}
