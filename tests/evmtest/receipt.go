package evmtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
)

// ErrTxFailed is wrapped by the errors of waiting calls whose transaction
// was mined with status 0.
var ErrTxFailed = errors.New("transaction failed (status 0)")

// receiptPoll is how often WaitReceipt asks; a local node answers in well
// under a millisecond and blocks come about 2 s apart, so this is cheap.
const receiptPoll = 20 * time.Millisecond

// Receipt is the part of eth_getTransactionReceipt tests look at.
type Receipt struct {
	TxHash           common.Hash
	Type             uint8
	Status           uint64 // 1 success, 0 failure
	BlockNumber      uint64
	BlockHash        common.Hash
	TransactionIndex uint
	From             common.Address
	To               *common.Address // nil for a contract creation
	// ContractAddress is the created contract; nil unless a creation.
	ContractAddress   *common.Address
	GasUsed           uint64
	CumulativeGasUsed uint64
	EffectiveGasPrice *big.Int
	Logs              []Log
}

// Log is one event log of a receipt.
type Log struct {
	Address     common.Address
	Topics      []common.Hash
	Data        []byte
	LogIndex    uint // index in the block
	BlockNumber uint64
	TxHash      common.Hash
	TxIndex     uint
}

type rpcReceipt struct {
	TxHash            common.Hash     `json:"transactionHash"`
	Type              hexutil.Uint64  `json:"type"`
	Status            hexutil.Uint64  `json:"status"`
	BlockNumber       hexutil.Uint64  `json:"blockNumber"`
	BlockHash         common.Hash     `json:"blockHash"`
	TransactionIndex  hexutil.Uint    `json:"transactionIndex"`
	From              common.Address  `json:"from"`
	To                *common.Address `json:"to"`
	ContractAddress   *common.Address `json:"contractAddress"`
	GasUsed           hexutil.Uint64  `json:"gasUsed"`
	CumulativeGasUsed hexutil.Uint64  `json:"cumulativeGasUsed"`
	EffectiveGasPrice *hexutil.Big    `json:"effectiveGasPrice"`
	Logs              []rpcLog        `json:"logs"`
}

type rpcLog struct {
	Address     common.Address `json:"address"`
	Topics      []common.Hash  `json:"topics"`
	Data        hexutil.Bytes  `json:"data"`
	LogIndex    hexutil.Uint   `json:"logIndex"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
	TxHash      common.Hash    `json:"transactionHash"`
	TxIndex     hexutil.Uint   `json:"transactionIndex"`
}

// UnmarshalJSON decodes the node's hex-quantity receipt into plain Go types.
func (r *Receipt) UnmarshalJSON(b []byte) error {
	var raw rpcReceipt
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = Receipt{
		TxHash: raw.TxHash, Type: uint8(raw.Type), Status: uint64(raw.Status),
		BlockNumber: uint64(raw.BlockNumber), BlockHash: raw.BlockHash, TransactionIndex: uint(raw.TransactionIndex),
		From: raw.From, To: raw.To, ContractAddress: raw.ContractAddress,
		GasUsed: uint64(raw.GasUsed), CumulativeGasUsed: uint64(raw.CumulativeGasUsed),
		EffectiveGasPrice: (*big.Int)(raw.EffectiveGasPrice),
		Logs:              make([]Log, len(raw.Logs)),
	}
	// A null contractAddress decodes to nil; some nodes send the zero
	// address for calls, which means the same.
	if r.ContractAddress != nil && *r.ContractAddress == (common.Address{}) {
		r.ContractAddress = nil
	}
	for i, l := range raw.Logs {
		r.Logs[i] = Log{
			Address: l.Address, Topics: l.Topics, Data: l.Data, LogIndex: uint(l.LogIndex),
			BlockNumber: uint64(l.BlockNumber), TxHash: l.TxHash, TxIndex: uint(l.TxIndex),
		}
	}
	return nil
}

// LogsFrom returns the receipt's logs emitted by addr, in order.
func (r *Receipt) LogsFrom(addr common.Address) []Log {
	var out []Log
	for _, l := range r.Logs {
		if l.Address == addr {
			out = append(out, l)
		}
	}
	return out
}

// Receipt returns the receipt of hash, or nil when the node has none yet.
func (c *Client) Receipt(ctx context.Context, hash common.Hash) (*Receipt, error) {
	var r *Receipt
	if err := c.rpc.CallContext(ctx, &r, "eth_getTransactionReceipt", hash); err != nil {
		return nil, fmt.Errorf("evmtest: reading the receipt of %s: %w", hash, err)
	}
	return r, nil
}

// WaitReceipt polls until hash is mined and returns its receipt, whatever
// its status; it gives up when ctx is done.
func (c *Client) WaitReceipt(ctx context.Context, hash common.Hash) (*Receipt, error) {
	t := time.NewTicker(receiptPoll)
	defer t.Stop()
	for {
		r, err := c.Receipt(ctx, hash)
		if err != nil {
			return nil, err
		}
		if r != nil {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("evmtest: waiting for the receipt of %s: %w", hash, ctx.Err())
		case <-t.C:
		}
	}
}

// WaitReceipts waits for every hash, in order, and returns their receipts
// (any status).
func (c *Client) WaitReceipts(ctx context.Context, hashes ...common.Hash) ([]*Receipt, error) {
	out := make([]*Receipt, len(hashes))
	for i, h := range hashes {
		r, err := c.WaitReceipt(ctx, h)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// waitSuccess is WaitReceipt that also fails on status 0, returning the
// receipt with the error so callers can look at it; what names the
// transaction in that error.
func (c *Client) waitSuccess(ctx context.Context, hash common.Hash, what string) (*Receipt, error) {
	r, err := c.WaitReceipt(ctx, hash)
	if err != nil {
		return nil, err
	}
	if r.Status != 1 {
		return r, fmt.Errorf("evmtest: %s: %s in block %d: %w", what, hash, r.BlockNumber, ErrTxFailed)
	}
	return r, nil
}
