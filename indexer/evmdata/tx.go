package evmdata

import (
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/core/types"
)

// Tx is a transaction with the parts of its receipt and trace avadata keeps.
type Tx struct {
	Hash  common.Hash
	Index uint32 // position in the block
	Type  uint8  // 0 legacy, 1 access list, 2 EIP-1559, ...
	From  common.Address
	To    *common.Address // nil for a contract creation
	Nonce uint64
	Value *big.Int
	Gas   uint64 // gas limit
	// GasPrice is the legacy gas price; for EIP-1559 txs it is nil and
	// MaxFeePerGas / MaxPriorityFeePerGas are set.
	GasPrice             *big.Int
	MaxFeePerGas         *big.Int
	MaxPriorityFeePerGas *big.Int
	Input                []byte

	// From the receipt.
	Status            uint8 // 1 success, 0 failure
	GasUsed           uint64
	EffectiveGasPrice *big.Int
	// ContractAddress is the contract a creation tx deployed (successful
	// creations only).
	ContractAddress *common.Address

	// Derived from the receipt's logs and the trace.
	Transfers []TokenTransfer
	Internal  []InternalTx
	Creations []ContractCreation
	// Logs are the receipt's event logs (none for a reverted tx); kept for
	// the webhooks, never stored.
	Logs []Log
	// AccessList is the tx's EIP-2930 access list, nil when its type has
	// none; kept for the webhooks, never stored.
	AccessList types.AccessList
}

// IsCreation reports whether the tx deploys a contract at top level.
func (t *Tx) IsCreation() bool { return t.To == nil }

// MethodID is the first four bytes of the input, or nil for a plain transfer.
func (t *Tx) MethodID() []byte {
	if len(t.Input) < 4 {
		return nil
	}
	return t.Input[:4]
}

// Succeeded reports the receipt status.
func (t *Tx) Succeeded() bool { return t.Status == 1 }
