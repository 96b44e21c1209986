package evmtest

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/contracts"
)

// SendDeploy sends a transaction creating art with constructor args, without
// waiting. The returned Sent.Contract is where it will be, so later
// transactions of the same burst can already call it (give them a Gas
// limit: estimation runs against the latest block, where it is not yet).
func (c *Client) SendDeploy(ctx context.Context, art *contracts.Artifact, args ...any) (Sent, error) {
	data, err := art.DeployData(args...)
	if err != nil {
		return Sent{}, fmt.Errorf("evmtest: deploying %s: %w", art.Name, err)
	}
	return c.send(ctx, Tx{Data: data}, "deploying "+art.Name)
}

// Deploy creates art with constructor args and waits for it.
func (c *Client) Deploy(ctx context.Context, art *contracts.Artifact, args ...any) (common.Address, *Receipt, error) {
	sent, err := c.SendDeploy(ctx, art, args...)
	if err != nil {
		return common.Address{}, nil, err
	}
	r, err := c.waitSuccess(ctx, sent.Hash, "deploying "+art.Name)
	if err != nil {
		return common.Address{}, r, err
	}
	if r.ContractAddress == nil || *r.ContractAddress != sent.Contract {
		return common.Address{}, r, fmt.Errorf("evmtest: deploying %s: receipt contract address %v, want %s",
			art.Name, r.ContractAddress, sent.Contract)
	}
	return sent.Contract, r, nil
}

// SendTransact sends a call of method on the art contract at `to` with value
// (nil for none), without waiting. The gas limit is estimated.
func (c *Client) SendTransact(ctx context.Context, to common.Address, art *contracts.Artifact, method string, value *big.Int, args ...any) (common.Hash, error) {
	sent, err := c.sendCall(ctx, to, art, method, value, 0, args)
	return sent.Hash, err
}

// Transact calls method on the art contract at `to` with value (nil for
// none) and waits. A failed transaction returns its receipt and an error
// wrapping ErrTxFailed.
func (c *Client) Transact(ctx context.Context, to common.Address, art *contracts.Artifact, method string, value *big.Int, args ...any) (*Receipt, error) {
	hash, err := c.SendTransact(ctx, to, art, method, value, args...)
	if err != nil {
		return nil, err
	}
	return c.waitSuccess(ctx, hash, art.Name+"."+method)
}

// SendWithGas is SendTransact with an explicit gas limit: for calls whose
// estimate would fail (they revert, or depend on transactions still in the
// pool).
func (c *Client) SendWithGas(ctx context.Context, to common.Address, gas uint64, art *contracts.Artifact, method string, value *big.Int, args ...any) (common.Hash, error) {
	if gas == 0 {
		return common.Hash{}, fmt.Errorf("evmtest: %s.%s: SendWithGas needs a gas limit", art.Name, method)
	}
	sent, err := c.sendCall(ctx, to, art, method, value, gas, args)
	return sent.Hash, err
}

// TransactReverting sends a call that is expected to revert, with an
// explicit gas limit (estimation would fail), waits, and returns its receipt.
// It is an error if the transaction succeeded.
func (c *Client) TransactReverting(ctx context.Context, to common.Address, gas uint64, art *contracts.Artifact, method string, args ...any) (*Receipt, error) {
	hash, err := c.SendWithGas(ctx, to, gas, art, method, nil, args...)
	if err != nil {
		return nil, err
	}
	r, err := c.WaitReceipt(ctx, hash)
	if err != nil {
		return nil, err
	}
	if r.Status != 0 {
		return r, fmt.Errorf("evmtest: %s.%s (%s) succeeded, want a revert", art.Name, method, hash)
	}
	return r, nil
}

func (c *Client) sendCall(ctx context.Context, to common.Address, art *contracts.Artifact, method string, value *big.Int, gas uint64, args []any) (Sent, error) {
	data, err := art.Pack(method, args...)
	if err != nil {
		return Sent{}, fmt.Errorf("evmtest: %w", err)
	}
	return c.send(ctx, Tx{To: &to, Value: value, Data: data, Gas: gas}, fmt.Sprintf("%s.%s on %s", art.Name, method, to))
}

// Call runs method on the art contract at `to` with eth_call at the latest
// block, from this client's address, and returns the decoded outputs.
func (c *Client) Call(ctx context.Context, to common.Address, art *contracts.Artifact, method string, args ...any) ([]any, error) {
	data, err := art.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("evmtest: %w", err)
	}
	out, err := c.CallRaw(ctx, Tx{To: &to, Data: data})
	if err != nil {
		return nil, fmt.Errorf("evmtest: calling %s.%s: %w", art.Name, method, err)
	}
	vals, err := art.Unpack(method, out)
	if err != nil {
		return nil, fmt.Errorf("evmtest: %w", err)
	}
	return vals, nil
}
