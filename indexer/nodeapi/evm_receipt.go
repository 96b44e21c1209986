package nodeapi

import (
	"context"
	"fmt"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// TransactionLogs reads one transaction's event logs from its receipt
// (eth_getTransactionReceipt), decoded as the blocks' receipts are: the
// index keeps no logs, so a page that shows them asks the node. False when
// the node has no receipt for hash (no such tx, or one it no longer
// indexes).
func (c *EVMClient) TransactionLogs(ctx context.Context, hash common.Hash) ([]evmdata.Log, bool, error) {
	var receipt *EVMReceipt
	if err := c.rpc.CallContext(ctx, &receipt, "eth_getTransactionReceipt", hash); err != nil {
		return nil, false, fmt.Errorf("%s eth_getTransactionReceipt(%s): %w", c.chain, hash, err)
	}
	if receipt == nil {
		return nil, false, nil
	}
	if receipt.TxHash != hash {
		return nil, false, fmt.Errorf("%s eth_getTransactionReceipt(%s) returned the receipt of %s", c.chain, hash, receipt.TxHash)
	}
	return receipt.Logs, true, nil
}
