package truth

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// EVMHeader is a block's header as eth_getBlockByNumber reports it, with
// the fees its transactions paid (from eth_getBlockReceipts) and the
// chain's transaction count up to it, counted from block 1.
type EVMHeader struct {
	Number, Timestamp, GasUsed, GasLimit uint64
	Hash, ParentHash                     common.Hash
	BaseFee                              *big.Int // nil before EIP-1559
	BlockGasCost                         *big.Int // nil: the header has none
	TimestampMs, MinDelayExcess          *uint64  // nil before Granite
	Txs                                  []common.Hash
	FeesSpent                            *big.Int // sum of gasUsed * effectiveGasPrice of the receipts
	CumulativeTxs                        uint64
}

type rpcHeader struct {
	Number         hexutil.Uint64  `json:"number"`
	Hash           common.Hash     `json:"hash"`
	ParentHash     common.Hash     `json:"parentHash"`
	Timestamp      hexutil.Uint64  `json:"timestamp"`
	GasUsed        hexutil.Uint64  `json:"gasUsed"`
	GasLimit       hexutil.Uint64  `json:"gasLimit"`
	BaseFee        *hexutil.Big    `json:"baseFeePerGas"`
	BlockGasCost   *hexutil.Big    `json:"blockGasCost"`
	TimestampMs    *hexutil.Uint64 `json:"timestampMilliseconds"`
	MinDelayExcess *hexutil.Uint64 `json:"minDelayExcess"`
	Transactions   []common.Hash   `json:"transactions"`
}

type rpcFeeReceipt struct {
	TxHash            common.Hash    `json:"transactionHash"`
	GasUsed           hexutil.Uint64 `json:"gasUsed"`
	EffectiveGasPrice *hexutil.Big   `json:"effectiveGasPrice"`
}

// EVMHeaders reads blocks 1..to from the node: their headers, and the
// receipts of those with transactions.
func EVMHeaders(ctx context.Context, c *rpc.Client, to uint64) ([]*EVMHeader, error) {
	raw := make([]*rpcHeader, to)
	elems := make([]rpc.BatchElem, to)
	for i := range raw {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(i + 1), false}, Result: &raw[i]}
	}
	chain := &EVMChain{rpc: c}
	if err := chain.batch(ctx, elems); err != nil {
		return nil, fmt.Errorf("reading blocks 1..%d: %w", to, err)
	}
	out := make([]*EVMHeader, to)
	var receiptElems []rpc.BatchElem
	receipts := make([][]rpcFeeReceipt, to)
	for i, rh := range raw {
		if rh == nil || uint64(rh.Number) != uint64(i+1) {
			return nil, fmt.Errorf("block %d: the node answered %+v", i+1, rh)
		}
		h := &EVMHeader{
			Number: uint64(rh.Number), Timestamp: uint64(rh.Timestamp), GasUsed: uint64(rh.GasUsed), GasLimit: uint64(rh.GasLimit),
			Hash: rh.Hash, ParentHash: rh.ParentHash, BaseFee: (*big.Int)(rh.BaseFee), BlockGasCost: (*big.Int)(rh.BlockGasCost),
			TimestampMs: (*uint64)(rh.TimestampMs), MinDelayExcess: (*uint64)(rh.MinDelayExcess), Txs: rh.Transactions,
			FeesSpent: new(big.Int),
		}
		out[i] = h
		if len(h.Txs) > 0 {
			receiptElems = append(receiptElems, rpc.BatchElem{Method: "eth_getBlockReceipts", Args: []any{hexutil.Uint64(h.Number)}, Result: &receipts[i]})
		}
	}
	if err := chain.batch(ctx, receiptElems); err != nil {
		return nil, fmt.Errorf("reading the receipts of blocks 1..%d: %w", to, err)
	}
	var cumulative uint64
	for i, h := range out {
		if len(receipts[i]) != len(h.Txs) {
			return nil, fmt.Errorf("block %d: %d receipts for %d txs", h.Number, len(receipts[i]), len(h.Txs))
		}
		for j, r := range receipts[i] {
			if r.TxHash != h.Txs[j] || r.EffectiveGasPrice == nil {
				return nil, fmt.Errorf("block %d: receipt %d is of %s without effectiveGasPrice %v", h.Number, j, r.TxHash, r.EffectiveGasPrice)
			}
			h.FeesSpent.Add(h.FeesSpent, new(big.Int).Mul(new(big.Int).SetUint64(uint64(r.GasUsed)), (*big.Int)(r.EffectiveGasPrice)))
		}
		cumulative += uint64(len(h.Txs))
		h.CumulativeTxs = cumulative
	}
	return out, nil
}
