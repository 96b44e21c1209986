package nodeapi

import (
	"context"
	"fmt"

	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// EthBlock is the part of eth_getBlockByNumber(n, false) avadata reads now.
// Decoding only these fields keeps coreth's block extras (which libevm's
// types would need registered) out of the plugin.
type EthBlock struct {
	Number       hexutil.Uint64 `json:"number"`
	Hash         string         `json:"hash"`
	ParentHash   string         `json:"parentHash"`
	Timestamp    hexutil.Uint64 `json:"timestamp"`
	Transactions []string       `json:"transactions"`
}

// EthChainID returns eth_chainId.
func (c *Client) EthChainID(ctx context.Context) (uint64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var id hexutil.Uint64
	if err := c.eth.CallContext(ctx, &id, "eth_chainId"); err != nil {
		return 0, fmt.Errorf("eth_chainId: %w", err)
	}
	return uint64(id), nil
}

// EthBlockNumber returns the height of the last accepted C-chain block.
func (c *Client) EthBlockNumber(ctx context.Context) (uint64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var n hexutil.Uint64
	if err := c.eth.CallContext(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, fmt.Errorf("eth_blockNumber: %w", err)
	}
	return uint64(n), nil
}

// EthBlocks fetches blocks from..from+count-1 in one JSON-RPC batch. A block
// the node does not have yet ends the result early (it is returned shorter).
func (c *Client) EthBlocks(ctx context.Context, from uint64, count int) ([]EthBlock, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	blocks := make([]*EthBlock, count)
	batch := make([]rpc.BatchElem, count)
	for i := range batch {
		batch[i] = rpc.BatchElem{
			Method: "eth_getBlockByNumber",
			Args:   []any{hexutil.Uint64(from + uint64(i)), false},
			Result: &blocks[i],
		}
	}
	if err := c.eth.BatchCallContext(ctx, batch); err != nil {
		return nil, fmt.Errorf("eth_getBlockByNumber batch from %d: %w", from, err)
	}
	out := make([]EthBlock, 0, count)
	for i, elem := range batch {
		if elem.Error != nil {
			return nil, fmt.Errorf("eth_getBlockByNumber(%d): %w", from+uint64(i), elem.Error)
		}
		if blocks[i] == nil {
			break
		}
		if uint64(blocks[i].Number) != from+uint64(i) {
			return nil, fmt.Errorf("eth_getBlockByNumber(%d) returned block %d", from+uint64(i), blocks[i].Number)
		}
		out = append(out, *blocks[i])
	}
	return out, nil
}
