package e2e

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/evmtest"
)

// Ground truth of an EVM chain: blocks, transactions, receipts and
// callTracer traces read from the node's own JSON-RPC and decoded here, with
// the test contracts' ABIs, independently of avadata's parsers. Every EVM
// test compares avadata's answers with this, never with an earlier answer
// of avadata.

// truthBlock is one block as eth_getBlockByNumber reports it.
type truthBlock struct {
	Number    uint64
	Hash      common.Hash
	Timestamp uint64
	BaseFee   *big.Int // nil before EIP-1559
	Txs       []common.Hash
}

// truthTx is one transaction with its block, receipt, trace and what those
// say it moved.
type truthTx struct {
	Hash     common.Hash
	Block    *truthBlock
	Index    uint64
	Type     uint64
	From     common.Address
	To       *common.Address // nil for a contract creation
	Nonce    uint64
	Value    *big.Int
	Gas      uint64
	GasPrice *big.Int // the node's gasPrice field (effective price once mined)
	MaxFee   *big.Int // nil for legacy transactions
	MaxTip   *big.Int
	Input    []byte
	Receipt  *evmtest.Receipt
	Trace    *evmtest.CallFrame
	// Transfers are the token movements of the receipt's logs, one per
	// ERC-1155 batch element.
	Transfers []truthTransfer
	// Internal are the trace frames below the top call that move value or
	// create contracts, depth first.
	Internal []truthInternal
}

// truthTransfer is one token movement decoded from a log.
type truthTransfer struct {
	Kind       string // ERC-20, ERC-721, ERC-1155
	Token      common.Address
	From, To   common.Address
	TokenID    *big.Int // nil for ERC-20
	Value      *big.Int // nil for ERC-721
	LogIndex   uint
	BatchIndex int
}

// truthInternal is one internal transaction from a trace.
type truthInternal struct {
	Type         string
	From, To     common.Address // To is zero for a failed creation
	Value        *big.Int
	Gas, GasUsed uint64
	Reverted     bool // the frame or one of its callers failed
}

// createTypes are the callTracer frame types that deploy a contract.
var createTypes = map[string]bool{"CREATE": true, "CREATE2": true, "CREATE3": true}

// involves reports whether addr is the sender, recipient, created contract,
// a token sender or receiver, or an internal sender or receiver of x: the
// address listing's membership rule (spec endpoint 3).
func (x *truthTx) involves(addr common.Address) bool {
	if addr == (common.Address{}) {
		return false
	}
	if x.From == addr || (x.To != nil && *x.To == addr) {
		return true
	}
	if x.Receipt.Status == 1 && x.Receipt.ContractAddress != nil && *x.Receipt.ContractAddress == addr {
		return true
	}
	for _, tr := range x.Transfers {
		if tr.From == addr || tr.To == addr {
			return true
		}
	}
	for _, in := range x.Internal {
		if in.From == addr || in.To == addr {
			return true
		}
	}
	return false
}

// before orders transactions oldest first: block, then index.
func (x *truthTx) before(y *truthTx) bool {
	if x.Block.Number != y.Block.Number {
		return x.Block.Number < y.Block.Number
	}
	return x.Index < y.Index
}

// chainTruth is what the node says of one EVM chain, read block by block
// from genesis up to a height and extended on demand. Safe for concurrent
// use.
type chainTruth struct {
	rpc *rpc.Client

	mu      sync.Mutex
	scanned uint64 // blocks 1..scanned are read
	blocks  map[uint64]*truthBlock
	txs     map[common.Hash]*truthTx
}

func newChainTruth(c *rpc.Client) *chainTruth {
	return &chainTruth{rpc: c, blocks: map[uint64]*truthBlock{}, txs: map[common.Hash]*truthTx{}}
}

// scanBatch is how many JSON-RPC calls go in one batch request.
const scanBatch = 100

// scanTo reads every block up to height that is not read yet, with its
// transactions, receipts and traces.
func (c *chainTruth) scanTo(ctx context.Context, height uint64) error {
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
func (c *chainTruth) batch(ctx context.Context, elems []rpc.BatchElem) error {
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

func (c *chainTruth) scanRange(ctx context.Context, from, to uint64) error {
	raw := make([]*rpcTruthBlock, to-from+1)
	elems := make([]rpc.BatchElem, len(raw))
	for i := range raw {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(from + uint64(i)), false}, Result: &raw[i]}
	}
	if err := c.batch(ctx, elems); err != nil {
		return fmt.Errorf("reading blocks %d..%d: %w", from, to, err)
	}
	var withTxs []*truthBlock
	for i, rb := range raw {
		if rb == nil {
			return fmt.Errorf("block %d: the node has none", from+uint64(i))
		}
		b := &truthBlock{
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

func newTruthTx(b *truthBlock, index uint64, rt *rpcTruthTx, r *evmtest.Receipt, trace *evmtest.CallFrame) (*truthTx, error) {
	if rt.Hash != b.Txs[index] || r.TxHash != rt.Hash {
		return nil, fmt.Errorf("the node answered for %s / %s", rt.Hash, r.TxHash)
	}
	if rt.BlockHash == nil || *rt.BlockHash != b.Hash || r.BlockHash != b.Hash || r.BlockNumber != b.Number ||
		rt.TransactionIndex == nil || uint64(*rt.TransactionIndex) != index || uint64(r.TransactionIndex) != index {
		return nil, fmt.Errorf("transaction, receipt and block disagree on its position")
	}
	x := &truthTx{
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

// The token events, decoded with the test contracts' ABIs: an ERC-20 and an
// ERC-721 Transfer share topic 0 and differ in the topic count.
var (
	tokenABIs = sync.OnceValue(func() [3]*contracts.Artifact {
		return [3]*contracts.Artifact{contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155()}
	})
	transferTopic = sync.OnceValue(func() common.Hash { return eventID(tokenABIs()[0], "Transfer") })
	singleTopic   = sync.OnceValue(func() common.Hash { return eventID(tokenABIs()[2], "TransferSingle") })
	batchTopic    = sync.OnceValue(func() common.Hash { return eventID(tokenABIs()[2], "TransferBatch") })
)

func eventID(a *contracts.Artifact, name string) common.Hash {
	id, err := a.EventID(name)
	if err != nil {
		panic(err) // the embedded artifacts are fixed; contracts' tests check them
	}
	return id
}

// decodeTransfers decodes the token movements of a receipt's logs.
func decodeTransfers(logs []evmtest.Log) ([]truthTransfer, error) {
	abis := tokenABIs()
	var out []truthTransfer
	for _, l := range logs {
		if len(l.Topics) == 0 {
			continue
		}
		switch {
		case l.Topics[0] == transferTopic() && len(l.Topics) == 3:
			ev, err := abis[0].ParseEvent("Transfer", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			out = append(out, truthTransfer{Kind: "ERC-20", Token: l.Address, LogIndex: l.LogIndex,
				From: ev["from"].(common.Address), To: ev["to"].(common.Address), Value: ev["value"].(*big.Int)})
		case l.Topics[0] == transferTopic() && len(l.Topics) == 4:
			ev, err := abis[1].ParseEvent("Transfer", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			out = append(out, truthTransfer{Kind: "ERC-721", Token: l.Address, LogIndex: l.LogIndex,
				From: ev["from"].(common.Address), To: ev["to"].(common.Address), TokenID: ev["tokenId"].(*big.Int)})
		case l.Topics[0] == singleTopic():
			ev, err := abis[2].ParseEvent("TransferSingle", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			out = append(out, truthTransfer{Kind: "ERC-1155", Token: l.Address, LogIndex: l.LogIndex,
				From: ev["from"].(common.Address), To: ev["to"].(common.Address),
				TokenID: ev["id"].(*big.Int), Value: ev["value"].(*big.Int)})
		case l.Topics[0] == batchTopic():
			ev, err := abis[2].ParseEvent("TransferBatch", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			ids, values := ev["ids"].([]*big.Int), ev["values"].([]*big.Int)
			if len(ids) != len(values) {
				return nil, fmt.Errorf("TransferBatch with %d ids and %d values", len(ids), len(values))
			}
			for i := range ids {
				out = append(out, truthTransfer{Kind: "ERC-1155", Token: l.Address, LogIndex: l.LogIndex, BatchIndex: i,
					From: ev["from"].(common.Address), To: ev["to"].(common.Address), TokenID: ids[i], Value: values[i]})
			}
		}
	}
	return out, nil
}

// internalFrames lists the frames below the top call that move value or
// create a contract, depth first. A DELEGATECALL or CALLCODE frame moves no
// value whatever the tracer shows (it reports the caller's msg.value).
func internalFrames(root *evmtest.CallFrame) []truthInternal {
	var out []truthInternal
	var walk func(f *evmtest.CallFrame, reverted bool)
	walk = func(f *evmtest.CallFrame, reverted bool) {
		for i := range f.Calls {
			c := &f.Calls[i]
			rev := reverted || c.Error != ""
			value := new(big.Int)
			if c.Value != nil && c.Type != "DELEGATECALL" && c.Type != "CALLCODE" {
				value.Set(c.Value)
			}
			if createTypes[c.Type] || c.Type == "SELFDESTRUCT" || value.Sign() > 0 {
				var to common.Address
				if c.To != nil {
					to = *c.To
				}
				out = append(out, truthInternal{Type: c.Type, From: c.From, To: to, Value: value,
					Gas: c.Gas, GasUsed: c.GasUsed, Reverted: rev})
			}
			walk(c, rev)
		}
	}
	walk(root, root.Error != "")
	return out
}

// tx returns the transaction with hash h, which must have been scanned.
func (c *chainTruth) tx(h common.Hash) (*truthTx, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	x, ok := c.txs[h]
	return x, ok
}

// involving lists the scanned transactions in blocks [from, to) (to 0: no
// bound) that involve addr, newest first.
func (c *chainTruth) involving(addr common.Address, from, to uint64) []*truthTx {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*truthTx
	for _, x := range c.txs {
		n := x.Block.Number
		if n >= from && (to == 0 || n < to) && n <= c.scanned && x.involves(addr) {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b *truthTx) int {
		if a.before(b) {
			return 1
		}
		return -1
	})
	return out
}

// all lists every scanned transaction, oldest first.
func (c *chainTruth) all() []*truthTx {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*truthTx, 0, len(c.txs))
	for _, x := range c.txs {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b *truthTx) int {
		if a.before(b) {
			return -1
		}
		return 1
	})
	return out
}

// tokenTransfers lists the scanned transfers of token, newest first (block,
// then log index, then batch element, all descending), with their txs.
func (c *chainTruth) tokenTransfers(token common.Address) []truthTokenTransfer {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []truthTokenTransfer
	for _, x := range c.txs {
		for _, tr := range x.Transfers {
			if tr.Token == token {
				out = append(out, truthTokenTransfer{Tx: x, truthTransfer: tr})
			}
		}
	}
	slices.SortFunc(out, func(a, b truthTokenTransfer) int {
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

// truthTokenTransfer is a transfer with its transaction.
type truthTokenTransfer struct {
	Tx *truthTx
	truthTransfer
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
