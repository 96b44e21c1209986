package nodeapi

import (
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/core/types"

	"github.com/avadata/avadata/indexer/evmdata"
)

// The JSON shapes of an EVM chain's answers (coreth and subnet-evm marshal
// them the same way), decoded field by field into our own structs: libevm's
// types.Block would need coreth's header extras registered, and these keep
// only what avadata reads (no signatures, blooms or trace inputs).

// EVMBlock is eth_getBlockByNumber(n, true): a block with full transactions.
type EVMBlock struct {
	Number       hexutil.Uint64 `json:"number"`
	Hash         common.Hash    `json:"hash"`
	ParentHash   common.Hash    `json:"parentHash"`
	Timestamp    hexutil.Uint64 `json:"timestamp"`
	BaseFee      *hexutil.Big   `json:"baseFeePerGas"` // absent before EIP-1559
	GasUsed      hexutil.Uint64 `json:"gasUsed"`
	GasLimit     hexutil.Uint64 `json:"gasLimit"`
	Miner        common.Address `json:"miner"`
	Size         hexutil.Uint64 `json:"size"`
	ReceiptsRoot common.Hash    `json:"receiptsRoot"`
	Transactions []EVMTx        `json:"transactions"`
	// BlockGasCost, TimestampMs and MinDelayExcess are Avalanche header
	// fields (coreth and subnet-evm), absent before the upgrades that
	// added them (Apricot Phase 4, Granite).
	BlockGasCost   *hexutil.Big    `json:"blockGasCost"`
	TimestampMs    *hexutil.Uint64 `json:"timestampMilliseconds"`
	MinDelayExcess *hexutil.Uint64 `json:"minDelayExcess"`
	// BlockExtraData is coreth's: a C-chain block's atomic txs (absent on
	// subnet-evm chains).
	BlockExtraData hexutil.Bytes `json:"blockExtraData"`
}

// EVMTx is one transaction of an EVMBlock.
type EVMTx struct {
	Hash  common.Hash     `json:"hash"`
	Type  hexutil.Uint64  `json:"type"`
	From  common.Address  `json:"from"`
	To    *common.Address `json:"to"` // null for a contract creation
	Nonce hexutil.Uint64  `json:"nonce"`
	Value *hexutil.Big    `json:"value"`
	Gas   hexutil.Uint64  `json:"gas"`
	// GasPrice is the price a legacy or access-list tx offered; for a
	// dynamic-fee tx in a block the node reports the effective price here.
	GasPrice             *hexutil.Big  `json:"gasPrice"`
	MaxFeePerGas         *hexutil.Big  `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *hexutil.Big  `json:"maxPriorityFeePerGas"`
	Input                hexutil.Bytes `json:"input"`
	// AccessList is absent on legacy txs.
	AccessList types.AccessList `json:"accessList"`
}

// EVMReceipt is one element of eth_getBlockReceipts(n).
type EVMReceipt struct {
	TxHash    common.Hash `json:"transactionHash"`
	BlockHash common.Hash `json:"blockHash"`
	// Status is absent only on pre-Byzantium receipts (which carry a state
	// root instead); no Avalanche EVM chain has those.
	Status            *hexutil.Uint64 `json:"status"`
	GasUsed           hexutil.Uint64  `json:"gasUsed"`
	EffectiveGasPrice *hexutil.Big    `json:"effectiveGasPrice"`
	// ContractAddress is set for every creation tx, failed ones included.
	ContractAddress *common.Address `json:"contractAddress"`
	Logs            []EVMLog        `json:"logs"`
}

// EVMLog is one event log of a receipt: the domain's own type, so that the
// parser keeps the decoded logs on the tx without copying them.
type EVMLog = evmdata.Log

// EVMBlockData is one block with its receipts, in transaction order.
type EVMBlockData struct {
	Block    *EVMBlock
	Receipts []EVMReceipt
}

// EVMTxTrace is one element of debug_traceBlockByNumber with the callTracer.
type EVMTxTrace struct {
	TxHash common.Hash   `json:"txHash"`
	Result *EVMCallFrame `json:"result"`
	Error  string        `json:"error"` // the tracer failed on this tx
}

// EVMCallFrame is one callTracer frame; the top frame is the tx itself.
// Input and output are not decoded: avadata keeps neither.
type EVMCallFrame struct {
	Type    string          `json:"type"` // CALL, CREATE2, ...
	From    common.Address  `json:"from"`
	To      *common.Address `json:"to"` // null for a failed CREATE
	Value   *hexutil.Big    `json:"value"`
	Gas     hexutil.Uint64  `json:"gas"`
	GasUsed hexutil.Uint64  `json:"gasUsed"`
	Error   string          `json:"error"` // the frame reverted or failed
	Calls   []EVMCallFrame  `json:"calls"`
}

// EVMBlockTraces is the callTracer's answer for one block. Err is set when
// the node could not trace it (e.g. debug API off, state pruned); it names
// the height and carries the node's error for errors.As.
type EVMBlockTraces struct {
	Number uint64
	Txs    []EVMTxTrace
	Err    error
}
