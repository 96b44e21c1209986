package evmdata

import (
	"math/big"

	"github.com/ava-labs/libevm/common"
)

// CallType is the opcode of an internal call frame.
type CallType uint8

const (
	CallUnknown CallType = iota
	Call
	Create
	Create2
	Create3
	CallCode
	DelegateCall
	StaticCall
	SelfDestruct
)

// String is the Data API's internalTxType value.
func (c CallType) String() string {
	switch c {
	case Call:
		return "CALL"
	case Create:
		return "CREATE"
	case Create2:
		return "CREATE2"
	case Create3:
		return "CREATE3"
	case CallCode:
		return "CALLCODE"
	case DelegateCall:
		return "DELEGATECALL"
	case StaticCall:
		return "STATICCALL"
	case SelfDestruct:
		return "SELFDESTRUCT"
	default:
		return "UNKNOWN"
	}
}

// ParseCallType maps a callTracer frame type ("CALL", "CREATE2", ...).
func ParseCallType(s string) CallType {
	for c := Call; c <= SelfDestruct; c++ {
		if c.String() == s {
			return c
		}
	}
	return CallUnknown
}

// IsCreate reports whether the frame deploys a contract.
func (c CallType) IsCreate() bool { return c == Create || c == Create2 || c == Create3 }

// InternalTx is one call frame below the transaction's top call. avadata
// keeps the frames that move value or create or destroy contracts, the ones
// explorers call internal transactions: zero-value calls (most of a DeFi
// trace) would multiply the index for nothing a user asks about.
type InternalTx struct {
	Index    uint32 // depth-first position of the frame in the trace, root excluded
	Type     CallType
	From     common.Address
	To       common.Address // the created contract for CREATE*
	Value    *big.Int
	Gas      uint64
	GasUsed  uint64
	Reverted bool // the frame or one of its callers reverted
}

// Involves reports whether addr is the sender or the receiver.
func (t *InternalTx) Involves(addr common.Address) bool { return t.From == addr || t.To == addr }

// KeepInternal says whether a frame is worth recording (see InternalTx).
func KeepInternal(typ CallType, value *big.Int) bool {
	return typ.IsCreate() || typ == SelfDestruct || (value != nil && value.Sign() > 0)
}

// ContractCreation is a contract deployed by a transaction, at top level or
// by another contract.
type ContractCreation struct {
	Address common.Address
	// Deployer is the externally owned account that sent the transaction.
	Deployer common.Address
	// DeployerContract is the contract whose CREATE/CREATE2 deployed it; zero
	// for a top-level deployment.
	DeployerContract common.Address
}
