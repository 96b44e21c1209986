package evmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
)

// CallFrame is one frame of a callTracer trace: the transaction itself at
// the top, internal calls and creations below it.
type CallFrame struct {
	// Type is CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE, CREATE2 or
	// SELFDESTRUCT.
	Type string
	From common.Address
	// To is the callee, or the created contract of a CREATE/CREATE2. It can
	// be nil for a creation that failed.
	To *common.Address
	// Value is nil when the frame carries none (STATICCALL, DELEGATECALL).
	Value   *big.Int
	Gas     uint64
	GasUsed uint64
	Input   []byte
	Output  []byte
	// Error is set when the frame failed ("execution reverted", ...), even
	// if an outer frame caught the failure.
	Error        string
	RevertReason string
	Calls        []CallFrame
}

type rpcCallFrame struct {
	Type         string          `json:"type"`
	From         common.Address  `json:"from"`
	To           *common.Address `json:"to"`
	Value        *hexutil.Big    `json:"value"`
	Gas          hexutil.Uint64  `json:"gas"`
	GasUsed      hexutil.Uint64  `json:"gasUsed"`
	Input        hexutil.Bytes   `json:"input"`
	Output       hexutil.Bytes   `json:"output"`
	Error        string          `json:"error"`
	RevertReason string          `json:"revertReason"`
	Calls        []CallFrame     `json:"calls"`
}

// UnmarshalJSON decodes the tracer's hex quantities into plain Go types.
func (f *CallFrame) UnmarshalJSON(b []byte) error {
	var raw rpcCallFrame
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*f = CallFrame{
		Type: raw.Type, From: raw.From, To: raw.To, Value: (*big.Int)(raw.Value),
		Gas: uint64(raw.Gas), GasUsed: uint64(raw.GasUsed), Input: raw.Input, Output: raw.Output,
		Error: raw.Error, RevertReason: raw.RevertReason, Calls: raw.Calls,
	}
	return nil
}

// Walk calls fn on f and every frame below it, depth first in execution
// order, with each frame's depth (0 for f).
func (f *CallFrame) Walk(fn func(frame *CallFrame, depth int)) {
	f.walk(fn, 0)
}

func (f *CallFrame) walk(fn func(*CallFrame, int), depth int) {
	fn(f, depth)
	for i := range f.Calls {
		f.Calls[i].walk(fn, depth+1)
	}
}

// Internal returns every frame below the top one, in execution order: the
// transaction's internal calls and creations.
func (f *CallFrame) Internal() []*CallFrame {
	var out []*CallFrame
	f.Walk(func(frame *CallFrame, depth int) {
		if depth > 0 {
			out = append(out, frame)
		}
	})
	return out
}

// Find returns the frames of type typ (e.g. "CREATE2") at any depth,
// including the top one.
func (f *CallFrame) Find(typ string) []*CallFrame {
	var out []*CallFrame
	f.Walk(func(frame *CallFrame, _ int) {
		if frame.Type == typ {
			out = append(out, frame)
		}
	})
	return out
}

// TraceTx traces a mined transaction with the node's callTracer
// (debug_traceTransaction; the C-chain needs "debug-tracer" in its eth-apis,
// which scripts/localnet enables).
func (c *Client) TraceTx(ctx context.Context, hash common.Hash) (*CallFrame, error) {
	var top CallFrame
	cfg := map[string]any{"tracer": "callTracer"}
	if err := c.rpc.CallContext(ctx, &top, "debug_traceTransaction", hash, cfg); err != nil {
		return nil, fmt.Errorf("evmtest: tracing %s: %w", hash, err)
	}
	return &top, nil
}
