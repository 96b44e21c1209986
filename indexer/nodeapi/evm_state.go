package nodeapi

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// Current state of an EVM chain, read at the latest accepted block: what the
// index does not keep (native balances) or reads once in the background
// (token names, symbols, URIs).

// Balance returns addr's native balance (eth_getBalance at "latest").
func (c *EVMClient) Balance(ctx context.Context, addr common.Address) (*big.Int, error) {
	return c.balance(ctx, addr, "latest")
}

// BalanceAt returns addr's native balance at block height.
func (c *EVMClient) BalanceAt(ctx context.Context, addr common.Address, height uint64) (*big.Int, error) {
	return c.balance(ctx, addr, hexutil.Uint64(height))
}

func (c *EVMClient) balance(ctx context.Context, addr common.Address, block any) (*big.Int, error) {
	var bal hexutil.Big
	if err := c.rpc.CallContext(ctx, &bal, "eth_getBalance", addr, block); err != nil {
		return nil, fmt.Errorf("%s eth_getBalance(%s, %v): %w", c.chain, addr, block, err)
	}
	return bal.ToInt(), nil
}

// ContractCall is one read-only call: its result or its error (a revert is
// an answer, not a failure of the batch).
type ContractCall struct {
	To     common.Address
	Data   []byte
	Result []byte
	Err    error
}

type callArgs struct {
	To   common.Address `json:"to"`
	Data hexutil.Bytes  `json:"data"`
}

// CallContracts runs eth_call at "latest" for every call, in JSON-RPC
// batches within the node's limits, filling Result or Err of each.
func (c *EVMClient) CallContracts(ctx context.Context, calls []ContractCall) error {
	return c.callContracts(ctx, calls, "latest")
}

// CallContractsAt is CallContracts at block height. A node that no longer
// has that block's state fails each call with an error IsStateUnavailable
// reports.
func (c *EVMClient) CallContractsAt(ctx context.Context, calls []ContractCall, height uint64) error {
	return c.callContracts(ctx, calls, hexutil.Uint64(height))
}

func (c *EVMClient) callContracts(ctx context.Context, calls []ContractCall, block any) error {
	results := make([]hexutil.Bytes, len(calls))
	elems := make([]rpc.BatchElem, len(calls))
	for i := range calls {
		elems[i] = rpc.BatchElem{
			Method: "eth_call",
			Args:   []any{callArgs{To: calls[i].To, Data: calls[i].Data}, block},
			Result: &results[i],
		}
	}
	if err := callBatch(ctx, c.rpc, elems, blockBatchCalls); err != nil {
		return fmt.Errorf("%s eth_call batch: %w", c.chain, err)
	}
	for i := range calls {
		calls[i].Result, calls[i].Err = results[i], elems[i].Error
	}
	return nil
}
