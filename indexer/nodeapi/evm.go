package nodeapi

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// EVMClient reads one EVM chain (the C-chain or a subnet-evm chain) over the
// node's Ethereum JSON-RPC. Its methods are safe for concurrent use.
type EVMClient struct {
	chain string
	rpc   *rpc.Client
}

const (
	// evmRequestTimeout bounds one HTTP request. It is longer than the
	// other APIs' because a batch of block traces re-executes blocks.
	evmRequestTimeout = 2 * time.Minute
	// blockBatchCalls is coreth's default batch-request-limit: larger
	// batches are refused outright, so never send them.
	blockBatchCalls = 1000
	// traceBatchCalls keeps a trace batch to a few seconds of re-execution
	// and, for typical blocks, under the node's 25 MB batch response limit.
	traceBatchCalls = 32
	// traceTimeout is the callTracer's limit per transaction.
	traceTimeout = "30s"
)

// DialEVM returns a client for the chain's JSON-RPC at
// <nodeURI>/ext/bc/<chain>/rpc; chain is a blockchain ID or an alias ("C").
func DialEVM(ctx context.Context, nodeURI, chain string) (*EVMClient, error) {
	url := fmt.Sprintf("%s/ext/bc/%s/rpc", strings.TrimRight(nodeURI, "/"), chain)
	hc := &http.Client{Timeout: evmRequestTimeout}
	c, err := rpc.DialOptions(ctx, url, rpc.WithHTTPClient(hc))
	if err != nil {
		return nil, fmt.Errorf("dialing %s JSON-RPC at %s: %w", chain, url, err)
	}
	return &EVMClient{chain: chain, rpc: c}, nil
}

// Chain is the blockchain ID or alias the client was dialed with.
func (c *EVMClient) Chain() string { return c.chain }

// Close releases the client's connections.
func (c *EVMClient) Close() { c.rpc.Close() }

// ChainID returns eth_chainId. Subnet-evm chain IDs are not bounded to 64
// bits, hence the big.Int.
func (c *EVMClient) ChainID(ctx context.Context) (*big.Int, error) {
	var id hexutil.Big
	if err := c.rpc.CallContext(ctx, &id, "eth_chainId"); err != nil {
		return nil, fmt.Errorf("%s eth_chainId: %w", c.chain, err)
	}
	return id.ToInt(), nil
}

// BlockNumber returns eth_blockNumber: the last accepted block's height
// (unless the node allows unfinalized queries).
func (c *EVMClient) BlockNumber(ctx context.Context) (uint64, error) {
	var n hexutil.Uint64
	if err := c.rpc.CallContext(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, fmt.Errorf("%s eth_blockNumber: %w", c.chain, err)
	}
	return uint64(n), nil
}

// Blocks fetches blocks from..from+count-1 with full transactions and their
// receipts. A block the node does not have yet ends the result early (it is
// shorter, never with a gap); any other failure is an error naming the
// height.
func (c *EVMClient) Blocks(ctx context.Context, from uint64, count int) ([]EVMBlockData, error) {
	if count <= 0 {
		return nil, nil
	}
	blocks := make([]*EVMBlock, count)
	receipts := make([][]EVMReceipt, count)
	elems := make([]rpc.BatchElem, 0, 2*count)
	for i := range count {
		h := hexutil.Uint64(from + uint64(i))
		elems = append(elems,
			rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{h, true}, Result: &blocks[i]},
			rpc.BatchElem{Method: "eth_getBlockReceipts", Args: []any{h}, Result: &receipts[i]},
		)
	}
	if err := callBatch(ctx, c.rpc, elems, blockBatchCalls); err != nil {
		return nil, fmt.Errorf("%s blocks %d..%d: %w", c.chain, from, from+uint64(count)-1, err)
	}
	out := make([]EVMBlockData, 0, count)
	for i := range count {
		h := from + uint64(i)
		blockElem, receiptsElem := elems[2*i], elems[2*i+1]
		if blocks[i] == nil && (blockElem.Error == nil || isNotAccepted(blockElem.Error)) {
			break
		}
		data, err := blockData(h, blocks[i], blockElem.Error, receipts[i], receiptsElem.Error)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.chain, err)
		}
		out = append(out, data)
	}
	return out, nil
}

// blockData checks one height's two answers.
func blockData(h uint64, block *EVMBlock, blockErr error, receipts []EVMReceipt, receiptsErr error) (EVMBlockData, error) {
	switch {
	case blockErr != nil:
		return EVMBlockData{}, fmt.Errorf("eth_getBlockByNumber(%d): %w", h, blockErr)
	case uint64(block.Number) != h:
		return EVMBlockData{}, fmt.Errorf("eth_getBlockByNumber(%d) returned block %d", h, block.Number)
	case receiptsErr != nil:
		return EVMBlockData{}, fmt.Errorf("eth_getBlockReceipts(%d): %w", h, receiptsErr)
	case receipts == nil:
		// The block was accepted before the receipts call ran, and accepted
		// blocks stay: a null here is the node's fault, not a race.
		return EVMBlockData{}, fmt.Errorf("eth_getBlockReceipts(%d) returned null for a block the node has", h)
	}
	return EVMBlockData{Block: block, Receipts: receipts}, nil
}

// TraceBlocks runs the callTracer over blocks from..from+count-1. See
// TraceHeights.
func (c *EVMClient) TraceBlocks(ctx context.Context, from uint64, count int) ([]EVMBlockTraces, error) {
	heights := make([]uint64, max(count, 0))
	for i := range heights {
		heights[i] = from + uint64(i)
	}
	return c.TraceHeights(ctx, heights)
}

// TraceHeights runs debug_traceBlockByNumber with the callTracer (all
// frames, no logs) over the given heights, in order. A block the node does
// not have yet ends the result early. A block the node refuses to trace gets
// its error in EVMBlockTraces.Err (the caller decides whether that is fatal:
// a node without the debug API or with pruned state cannot trace); the
// returned error is for failures of the request itself.
func (c *EVMClient) TraceHeights(ctx context.Context, heights []uint64) ([]EVMBlockTraces, error) {
	if len(heights) == 0 {
		return nil, nil
	}
	results := make([][]EVMTxTrace, len(heights))
	elems := make([]rpc.BatchElem, len(heights))
	for i, h := range heights {
		elems[i] = rpc.BatchElem{
			Method: "debug_traceBlockByNumber",
			Args:   []any{hexutil.Uint64(h), callTracerConfig()},
			Result: &results[i],
		}
	}
	if err := callBatch(ctx, c.rpc, elems, traceBatchCalls); err != nil {
		return nil, fmt.Errorf("%s traces of blocks %d..%d: %w", c.chain, heights[0], heights[len(heights)-1], err)
	}
	out := make([]EVMBlockTraces, 0, len(heights))
	for i, h := range heights {
		err := elems[i].Error
		if isBlockNotFound(err) || isNotAccepted(err) {
			break
		}
		if err == nil && results[i] == nil {
			err = errors.New("null result")
		}
		if err != nil {
			err = fmt.Errorf("%s debug_traceBlockByNumber(%d): %w", c.chain, h, err)
		}
		out = append(out, EVMBlockTraces{Number: h, Txs: results[i], Err: err})
	}
	return out, nil
}

// traceConfig is debug_traceBlockByNumber's config argument.
type traceConfig struct {
	Tracer       string            `json:"tracer"`
	TracerConfig callTracerOptions `json:"tracerConfig"`
	Timeout      string            `json:"timeout"`
}

type callTracerOptions struct {
	OnlyTopCall bool `json:"onlyTopCall"`
	WithLog     bool `json:"withLog"`
}

// callTracerConfig asks for every frame (internal txs are below the top
// call) and no logs (receipts already have them).
func callTracerConfig() traceConfig {
	return traceConfig{Tracer: "callTracer", Timeout: traceTimeout}
}
