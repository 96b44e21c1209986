package truth

import (
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/evmtest"
)

// Ground truth of an EVM chain: blocks, transactions, receipts and
// callTracer traces read from the node's own JSON-RPC and decoded here, with
// the test contracts' ABIs, independently of avadata's parsers. Every EVM
// test compares avadata's answers with this, never with an earlier answer
// of avadata.

// EVMBlock is one block as eth_getBlockByNumber reports it.
type EVMBlock struct {
	Number    uint64
	Hash      common.Hash
	Timestamp uint64
	BaseFee   *big.Int // nil before EIP-1559
	Txs       []common.Hash
}

// EVMTx is one transaction with its block, receipt, trace and what those
// say it moved.
type EVMTx struct {
	Hash     common.Hash
	Block    *EVMBlock
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
	Transfers []EVMTransfer
	// Internal are the trace frames below the top call that move value or
	// create contracts, depth first.
	Internal []EVMInternal
}

// EVMTransfer is one token movement decoded from a log.
type EVMTransfer struct {
	Kind       string // ERC-20, ERC-721, ERC-1155
	Token      common.Address
	From, To   common.Address
	TokenID    *big.Int // nil for ERC-20
	Value      *big.Int // nil for ERC-721
	LogIndex   uint
	BatchIndex int
}

// EVMInternal is one internal transaction from a trace.
type EVMInternal struct {
	Type         string
	From, To     common.Address // To is zero for a failed creation
	Value        *big.Int
	Gas, GasUsed uint64
	Reverted     bool // the frame or one of its callers failed
}

// IsCreation reports whether a callTracer frame of type typ deploys a
// contract.
func IsCreation(typ string) bool {
	switch typ {
	case "CREATE", "CREATE2", "CREATE3":
		return true
	}
	return false
}

// Involves reports whether addr is the sender, recipient, created contract,
// a token sender or receiver, or an internal sender or receiver of x: the
// membership rule of listTransactions (an address's transactions).
func (x *EVMTx) Involves(addr common.Address) bool {
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
func (x *EVMTx) before(y *EVMTx) bool {
	if x.Block.Number != y.Block.Number {
		return x.Block.Number < y.Block.Number
	}
	return x.Index < y.Index
}

// EVMTokenTransfer is a transfer with its transaction.
type EVMTokenTransfer struct {
	Tx *EVMTx
	EVMTransfer
}

// EVMHashes lists the hashes of txs.
func EVMHashes(txs []*EVMTx) []common.Hash {
	out := make([]common.Hash, len(txs))
	for i, x := range txs {
		out[i] = x.Hash
	}
	return out
}
