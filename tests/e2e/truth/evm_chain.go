package truth

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"

	"github.com/avadata/avadata/tests/evmtest"
)

// EVMChain is what the node says of one EVM chain, read block by block
// from genesis up to a height and extended on demand. Safe for concurrent
// use.
type EVMChain struct {
	rpc *rpc.Client

	mu      sync.Mutex
	scanned uint64 // blocks 1..scanned are read
	blocks  map[uint64]*EVMBlock
	txs     map[common.Hash]*EVMTx
}

func NewEVMChain(c *rpc.Client) *EVMChain {
	return &EVMChain{rpc: c, blocks: map[uint64]*EVMBlock{}, txs: map[common.Hash]*EVMTx{}}
}

// scanBatch is how many JSON-RPC calls go in one batch request.
const scanBatch = 100

// ScanTo reads every block up to height that is not read yet, with its
// transactions, receipts and traces.
func (c *EVMChain) ScanTo(ctx context.Context, height uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for from := c.scanned + 1; from <= height; from += scanBatch {
		to := min(from+scanBatch-1, height)
		if err := c.scanRange(ctx, from, to); err != nil {
			return err
		}
		c.scanned = to
	}
	return nil
}

type rpcTruthBlock struct {
	Number       hexutil.Uint64 `json:"number"`
	Hash         common.Hash    `json:"hash"`
	Timestamp    hexutil.Uint64 `json:"timestamp"`
	BaseFee      *hexutil.Big   `json:"baseFeePerGas"`
	Transactions []common.Hash  `json:"transactions"`
}

type rpcTruthTx struct {
	Hash             common.Hash     `json:"hash"`
	Type             hexutil.Uint64  `json:"type"`
	From             common.Address  `json:"from"`
	To               *common.Address `json:"to"`
	Nonce            hexutil.Uint64  `json:"nonce"`
	Value            *hexutil.Big    `json:"value"`
	Gas              hexutil.Uint64  `json:"gas"`
	GasPrice         *hexutil.Big    `json:"gasPrice"`
	MaxFee           *hexutil.Big    `json:"maxFeePerGas"`
	MaxTip           *hexutil.Big    `json:"maxPriorityFeePerGas"`
	Input            hexutil.Bytes   `json:"input"`
	BlockHash        *common.Hash    `json:"blockHash"`
	TransactionIndex *hexutil.Uint64 `json:"transactionIndex"`
}

type rpcTraceResult struct {
	TxHash common.Hash       `json:"txHash"`
	Result evmtest.CallFrame `json:"result"`
	Error  string            `json:"error"`
}

// batch runs elems in one batch request and returns the first error.
func (c *EVMChain) batch(ctx context.Context, elems []rpc.BatchElem) error {
	for start := 0; start < len(elems); start += scanBatch {
		part := elems[start:min(start+scanBatch, len(elems))]
		if err := c.rpc.BatchCallContext(ctx, part); err != nil {
			return err
		}
		for _, e := range part {
			if e.Error != nil {
				return fmt.Errorf("%s%v: %w", e.Method, e.Args, e.Error)
			}
		}
	}
	return nil
}

func (c *EVMChain) scanRange(ctx context.Context, from, to uint64) error {
	raw := make([]*rpcTruthBlock, to-from+1)
	elems := make([]rpc.BatchElem, len(raw))
	for i := range raw {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(from + uint64(i)), false}, Result: &raw[i]}
	}
	if err := c.batch(ctx, elems); err != nil {
		return fmt.Errorf("reading blocks %d..%d: %w", from, to, err)
	}
	var withTxs []*EVMBlock
	for i, rb := range raw {
		if rb == nil {
			return fmt.Errorf("block %d: the node has none", from+uint64(i))
		}
		b := &EVMBlock{
			Number: uint64(rb.Number), Hash: rb.Hash, Timestamp: uint64(rb.Timestamp),
			BaseFee: (*big.Int)(rb.BaseFee), Txs: rb.Transactions,
		}
		if b.Number != from+uint64(i) {
			return fmt.Errorf("asked for block %d, got %d", from+uint64(i), b.Number)
		}
		c.blocks[b.Number] = b
		if len(b.Txs) > 0 {
			withTxs = append(withTxs, b)
		}
	}
	if len(withTxs) == 0 {
		return nil
	}

	var txElems, receiptElems, traceElems []rpc.BatchElem
	var txs []*rpcTruthTx
	var receipts []*evmtest.Receipt
	traces := make([][]rpcTraceResult, len(withTxs))
	for bi, b := range withTxs {
		traceElems = append(traceElems, rpc.BatchElem{
			Method: "debug_traceBlockByNumber",
			Args:   []any{hexutil.Uint64(b.Number), map[string]any{"tracer": "callTracer"}},
			Result: &traces[bi],
		})
		for _, h := range b.Txs {
			tx, r := new(rpcTruthTx), new(evmtest.Receipt)
			txs, receipts = append(txs, tx), append(receipts, r)
			txElems = append(txElems, rpc.BatchElem{Method: "eth_getTransactionByHash", Args: []any{h}, Result: tx})
			receiptElems = append(receiptElems, rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: r})
		}
	}
	if err := c.batch(ctx, slices.Concat(txElems, receiptElems, traceElems)); err != nil {
		return fmt.Errorf("reading the transactions of blocks %d..%d: %w", from, to, err)
	}

	k := 0
	for bi, b := range withTxs {
		if len(traces[bi]) != len(b.Txs) {
			return fmt.Errorf("block %d: %d traces for %d txs", b.Number, len(traces[bi]), len(b.Txs))
		}
		for i, h := range b.Txs {
			rt, r := txs[k], receipts[k]
			k++
			tr := traces[bi][i]
			if tr.Error != "" || (tr.TxHash != common.Hash{} && tr.TxHash != h) {
				return fmt.Errorf("block %d tx %d (%s): trace of %s, error %q", b.Number, i, h, tr.TxHash, tr.Error)
			}
			x, err := newTruthTx(b, uint64(i), rt, r, &tr.Result)
			if err != nil {
				return fmt.Errorf("block %d tx %s: %w", b.Number, h, err)
			}
			c.txs[h] = x
		}
	}
	return nil
}

func newTruthTx(b *EVMBlock, index uint64, rt *rpcTruthTx, r *evmtest.Receipt, trace *evmtest.CallFrame) (*EVMTx, error) {
	if rt.Hash != b.Txs[index] || r.TxHash != rt.Hash {
		return nil, fmt.Errorf("the node answered for %s / %s", rt.Hash, r.TxHash)
	}
	if rt.BlockHash == nil || *rt.BlockHash != b.Hash || r.BlockHash != b.Hash || r.BlockNumber != b.Number ||
		rt.TransactionIndex == nil || uint64(*rt.TransactionIndex) != index || uint64(r.TransactionIndex) != index {
		return nil, fmt.Errorf("transaction, receipt and block disagree on its position")
	}
	x := &EVMTx{
		Hash: rt.Hash, Block: b, Index: index, Type: uint64(rt.Type), From: rt.From, To: rt.To,
		Nonce: uint64(rt.Nonce), Value: bigOrZero(rt.Value), Gas: uint64(rt.Gas),
		GasPrice: (*big.Int)(rt.GasPrice), MaxFee: (*big.Int)(rt.MaxFee), MaxTip: (*big.Int)(rt.MaxTip),
		Input: rt.Input, Receipt: r, Trace: trace,
	}
	var err error
	if x.Transfers, err = decodeTransfers(r.Logs); err != nil {
		return nil, err
	}
	x.Internal = internalFrames(trace)
	return x, nil
}

func bigOrZero(v *hexutil.Big) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return new(big.Int).Set((*big.Int)(v))
}

// Tx returns the transaction with hash h, which must have been scanned.
func (c *EVMChain) Tx(h common.Hash) (*EVMTx, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	x, ok := c.txs[h]
	return x, ok
}

// Involving lists the scanned transactions in blocks [from, to) (to 0: no
// bound) that involve addr, newest first.
func (c *EVMChain) Involving(addr common.Address, from, to uint64) []*EVMTx {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*EVMTx
	for _, x := range c.txs {
		n := x.Block.Number
		if n >= from && (to == 0 || n < to) && n <= c.scanned && x.Involves(addr) {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b *EVMTx) int {
		if a.before(b) {
			return 1
		}
		return -1
	})
	return out
}

// All lists every scanned transaction, oldest first.
func (c *EVMChain) All() []*EVMTx {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*EVMTx, 0, len(c.txs))
	for _, x := range c.txs {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b *EVMTx) int {
		if a.before(b) {
			return -1
		}
		return 1
	})
	return out
}

// TokenTransfers lists the scanned transfers of token, newest first (block,
// then log index, then batch element, all descending), with their txs.
func (c *EVMChain) TokenTransfers(token common.Address) []EVMTokenTransfer {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []EVMTokenTransfer
	for _, x := range c.txs {
		for _, tr := range x.Transfers {
			if tr.Token == token {
				out = append(out, EVMTokenTransfer{Tx: x, EVMTransfer: tr})
			}
		}
	}
	slices.SortFunc(out, func(a, b EVMTokenTransfer) int {
		switch {
		case a.Tx.Block.Number != b.Tx.Block.Number:
			return cmpDesc(a.Tx.Block.Number, b.Tx.Block.Number)
		case a.LogIndex != b.LogIndex:
			return cmpDesc(uint64(a.LogIndex), uint64(b.LogIndex))
		default:
			return cmpDesc(uint64(a.BatchIndex), uint64(b.BatchIndex))
		}
	})
	return out
}

func cmpDesc(a, b uint64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
