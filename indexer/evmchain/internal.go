package evmchain

import (
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// flatFrame is one call frame below a transaction's top call.
type flatFrame struct {
	// index is the frame's depth-first position, the top call excluded. It
	// counts every frame, kept or not, so a frame's number never depends on
	// which frames avadata keeps.
	index uint32
	frame *nodeapi.EVMCallFrame
	// reverted says the frame or one of its callers failed, which undoes
	// everything the frame did.
	reverted bool
}

// flattenFrames lists the frames below root in depth-first order. The
// nesting is bounded by the EVM's call depth limit (1024).
func flattenFrames(root *nodeapi.EVMCallFrame) []flatFrame {
	var out []flatFrame
	return appendChildFrames(out, root, root.Error != "")
}

func appendChildFrames(out []flatFrame, parent *nodeapi.EVMCallFrame, parentReverted bool) []flatFrame {
	for i := range parent.Calls {
		child := &parent.Calls[i]
		reverted := parentReverted || child.Error != ""
		out = append(out, flatFrame{index: uint32(len(out)), frame: child, reverted: reverted})
		out = appendChildFrames(out, child, reverted)
	}
	return out
}

// internalTxs keeps the frames evmdata.KeepInternal accepts: value
// transfers, creations and self-destructs.
func internalTxs(frames []flatFrame) []evmdata.InternalTx {
	var out []evmdata.InternalTx
	for _, ff := range frames {
		typ := evmdata.ParseCallType(ff.frame.Type)
		value := movedValue(typ, ff.frame)
		if !evmdata.KeepInternal(typ, value) {
			continue
		}
		out = append(out, evmdata.InternalTx{
			Index:    ff.index,
			Type:     typ,
			From:     ff.frame.From,
			To:       frameTo(ff.frame),
			Value:    value,
			Gas:      uint64(ff.frame.Gas),
			GasUsed:  uint64(ff.frame.GasUsed),
			Reverted: ff.reverted,
		})
	}
	return out
}

// movedValue is the value a frame transfers. The tracer reports a
// DELEGATECALL with its caller's msg.value, which the delegate only sees:
// every payable call through a proxy would otherwise show the payment twice.
// A CALLCODE's value goes from the caller to itself. Neither moves anything.
func movedValue(typ evmdata.CallType, f *nodeapi.EVMCallFrame) *big.Int {
	if typ == evmdata.DelegateCall || typ == evmdata.CallCode {
		return new(big.Int)
	}
	return bigOrZero(f.Value)
}

// frameTo is the callee, or the created contract; zero for a failed
// creation, which the tracer reports without an address.
func frameTo(f *nodeapi.EVMCallFrame) common.Address {
	if f.To == nil {
		return common.Address{}
	}
	return *f.To
}
