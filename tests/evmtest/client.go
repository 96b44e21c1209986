// Package evmtest is a small driver that end-to-end tests use to make EVM
// activity on a local node: it deploys the test contracts, sends
// transactions (many back to back, with consecutive nonces), waits for
// receipts and reads call traces.
//
// It talks raw JSON-RPC through libevm's rpc client and decodes answers into
// its own small structs. It deliberately never decodes blocks or headers into
// libevm's types.Header/types.Block: coreth's header extras are not
// registered in a test process, so those decodes would be wrong. Signing with
// libevm's types.NewTx/types.SignTx is independent of that and is used.
package evmtest

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/accounts/abi"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/core/types"
	"github.com/ava-labs/libevm/crypto"
	"github.com/ava-labs/libevm/rpc"
)

// Client sends transactions from one key over one EVM JSON-RPC endpoint.
// It is safe for concurrent use; nonces are handed out in order under a
// lock, so many transactions can be in flight at once.
type Client struct {
	rpc     *rpc.Client
	key     *ecdsa.PrivateKey
	from    common.Address
	chainID *big.Int
	signer  types.Signer

	// mu guards nonce, the next nonce to use. It is held from taking a
	// nonce until the node has the transaction, so transactions reach the
	// node in nonce order.
	mu    sync.Mutex
	nonce uint64
}

// Dial connects to rpcURL (e.g. http://127.0.0.1:9650/ext/bc/C/rpc) and
// prepares to send from key, starting at the account's pending nonce.
func Dial(ctx context.Context, rpcURL string, key *secp256k1.PrivateKey) (*Client, error) {
	if key == nil {
		return nil, errors.New("evmtest: nil key")
	}
	rc, err := rpc.DialContext(ctx, rpcURL)
	if err != nil {
		return nil, fmt.Errorf("evmtest: dialing %s: %w", rpcURL, err)
	}
	// The secp256k1 key caches its public key lazily (not safe for
	// concurrent use), so the ECDSA key and address are derived once here.
	c := &Client{rpc: rc, key: key.ToECDSA(), from: key.EthAddress()}
	var chainID hexutil.Big
	if err := rc.CallContext(ctx, &chainID, "eth_chainId"); err != nil {
		rc.Close()
		return nil, fmt.Errorf("evmtest: reading the chain ID of %s: %w", rpcURL, err)
	}
	c.chainID = chainID.ToInt()
	c.signer = types.LatestSignerForChainID(c.chainID)
	if c.nonce, err = c.pendingNonce(ctx); err != nil {
		rc.Close()
		return nil, err
	}
	return c, nil
}

// Close closes the RPC connection.
func (c *Client) Close() { c.rpc.Close() }

// Address is the sender's address.
func (c *Client) Address() common.Address { return c.from }

// ChainID is the EVM chain ID (43112 on a local network's C-chain).
func (c *Client) ChainID() *big.Int { return new(big.Int).Set(c.chainID) }

// RPC is the underlying client, for calls this package does not wrap.
func (c *Client) RPC() *rpc.Client { return c.rpc }

// Tx is one transaction to send.
type Tx struct {
	// To is the recipient; nil creates a contract from Data.
	To    *common.Address
	Value *big.Int
	Data  []byte
	// Gas is the gas limit; 0 estimates it. A transaction meant to fail
	// needs an explicit limit, because estimation of a failing call fails.
	Gas uint64
	// Legacy sends a type-0 transaction instead of a DynamicFee (type 2).
	Legacy bool
}

// Sent is a transaction the node has accepted into its pool.
type Sent struct {
	Hash  common.Hash
	Nonce uint64
	// Contract is the address a contract-creation transaction deploys to
	// (from the sender and nonce); zero for calls.
	Contract common.Address
}

// Send signs tx with the next nonce and hands it to the node, without
// waiting for it to be mined.
func (c *Client) Send(ctx context.Context, tx Tx) (Sent, error) {
	return c.send(ctx, tx, describe(tx))
}

// send is Send with what naming the transaction in errors.
func (c *Client) send(ctx context.Context, tx Tx, what string) (Sent, error) {
	if tx.Gas == 0 {
		gas, err := c.EstimateGas(ctx, tx)
		if err != nil {
			return Sent{}, fmt.Errorf("evmtest: %s: %w", what, err)
		}
		// A margin, because state can change between the estimate and the
		// block (other transactions of the same burst).
		tx.Gas = gas + gas/5
	}
	gasPrice, tip, err := c.fees(ctx)
	if err != nil {
		return Sent{}, fmt.Errorf("evmtest: %s: %w", what, err)
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	nonce := c.nonce
	signed, err := types.SignTx(c.newTx(tx, nonce, gasPrice, tip), c.signer, c.key)
	if err != nil {
		return Sent{}, fmt.Errorf("evmtest: signing %s: %w", what, err)
	}
	raw, err := signed.MarshalBinary()
	if err != nil {
		return Sent{}, fmt.Errorf("evmtest: encoding %s: %w", what, err)
	}
	if err := c.rpc.CallContext(ctx, nil, "eth_sendRawTransaction", hexutil.Bytes(raw)); err != nil {
		// The node may or may not have kept it (a timeout after delivery);
		// its pending nonce says which, so the next send neither reuses a
		// taken nonce nor leaves a gap.
		if n, nerr := c.pendingNonce(ctx); nerr == nil {
			c.nonce = n
		}
		return Sent{}, fmt.Errorf("evmtest: sending %s with nonce %d: %w", what, nonce, err)
	}
	c.nonce++
	sent := Sent{Hash: signed.Hash(), Nonce: nonce}
	if tx.To == nil {
		sent.Contract = crypto.CreateAddress(c.from, nonce)
	}
	return sent, nil
}

// SendAndWait sends tx and waits for its receipt. A transaction that failed
// (status 0) returns its receipt and an error wrapping ErrTxFailed.
func (c *Client) SendAndWait(ctx context.Context, tx Tx) (*Receipt, error) {
	sent, err := c.Send(ctx, tx)
	if err != nil {
		return nil, err
	}
	return c.waitSuccess(ctx, sent.Hash, describe(tx))
}

// SendValue sends wei to `to` (a DynamicFee transaction; use Send with
// Legacy for a legacy one) without waiting.
func (c *Client) SendValue(ctx context.Context, to common.Address, wei *big.Int) (common.Hash, error) {
	sent, err := c.Send(ctx, Tx{To: &to, Value: wei})
	return sent.Hash, err
}

// Resync sets the next nonce to the account's pending nonce on the node, for
// when transactions from the same key were sent by someone else.
func (c *Client) Resync(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.pendingNonce(ctx)
	if err != nil {
		return err
	}
	c.nonce = n
	return nil
}

// newTx builds the unsigned transaction. Fee caps are twice the node's
// suggestion so a burst that raises the base fee does not strand the later
// transactions of the same burst; a DynamicFee transaction pays only the
// base fee plus tip whatever its cap.
func (c *Client) newTx(tx Tx, nonce uint64, gasPrice, tip *big.Int) *types.Transaction {
	value := tx.Value
	if value == nil {
		value = new(big.Int)
	}
	doubled := new(big.Int).Mul(gasPrice, big.NewInt(2))
	if tx.Legacy {
		return types.NewTx(&types.LegacyTx{
			Nonce: nonce, GasPrice: doubled, Gas: tx.Gas, To: tx.To, Value: value, Data: tx.Data,
		})
	}
	return types.NewTx(&types.DynamicFeeTx{
		ChainID: c.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: doubled.Add(doubled, tip),
		Gas: tx.Gas, To: tx.To, Value: value, Data: tx.Data,
	})
}

// fees asks the node for its gas price (base fee plus tip) and tip.
func (c *Client) fees(ctx context.Context) (gasPrice, tip *big.Int, err error) {
	var price, priority hexutil.Big
	if err := c.rpc.CallContext(ctx, &price, "eth_gasPrice"); err != nil {
		return nil, nil, fmt.Errorf("reading eth_gasPrice: %w", err)
	}
	if err := c.rpc.CallContext(ctx, &priority, "eth_maxPriorityFeePerGas"); err != nil {
		return nil, nil, fmt.Errorf("reading eth_maxPriorityFeePerGas: %w", err)
	}
	return price.ToInt(), priority.ToInt(), nil
}

func (c *Client) pendingNonce(ctx context.Context) (uint64, error) {
	var n hexutil.Uint64
	if err := c.rpc.CallContext(ctx, &n, "eth_getTransactionCount", c.from, "pending"); err != nil {
		return 0, fmt.Errorf("evmtest: reading the pending nonce of %s: %w", c.from, err)
	}
	return uint64(n), nil
}

// callArgs is the transaction object of eth_call and eth_estimateGas.
type callArgs struct {
	From  common.Address  `json:"from"`
	To    *common.Address `json:"to,omitempty"`
	Value *hexutil.Big    `json:"value,omitempty"`
	Data  hexutil.Bytes   `json:"data,omitempty"`
	Gas   *hexutil.Uint64 `json:"gas,omitempty"`
}

func (c *Client) callArgs(tx Tx) callArgs {
	args := callArgs{From: c.from, To: tx.To, Data: tx.Data}
	if tx.Value != nil {
		args.Value = (*hexutil.Big)(tx.Value)
	}
	if tx.Gas != 0 {
		g := hexutil.Uint64(tx.Gas)
		args.Gas = &g
	}
	return args
}

// EstimateGas asks the node how much gas tx needs, against the latest
// state (so it does not see transactions still in the pool).
func (c *Client) EstimateGas(ctx context.Context, tx Tx) (uint64, error) {
	var gas hexutil.Uint64
	if err := c.rpc.CallContext(ctx, &gas, "eth_estimateGas", c.callArgs(tx)); err != nil {
		return 0, fmt.Errorf("estimating gas: %w", withRevertReason(err))
	}
	return uint64(gas), nil
}

// CallRaw runs tx as eth_call at the latest block and returns the output.
func (c *Client) CallRaw(ctx context.Context, tx Tx) ([]byte, error) {
	var out hexutil.Bytes
	if err := c.rpc.CallContext(ctx, &out, "eth_call", c.callArgs(tx), "latest"); err != nil {
		return nil, fmt.Errorf("evmtest: eth_call of %s: %w", describe(tx), withRevertReason(err))
	}
	return out, nil
}

// Balance is addr's balance in wei at the latest block.
func (c *Client) Balance(ctx context.Context, addr common.Address) (*big.Int, error) {
	var b hexutil.Big
	if err := c.rpc.CallContext(ctx, &b, "eth_getBalance", addr, "latest"); err != nil {
		return nil, fmt.Errorf("evmtest: reading the balance of %s: %w", addr, err)
	}
	return b.ToInt(), nil
}

// Code is the runtime code at addr at the latest block.
func (c *Client) Code(ctx context.Context, addr common.Address) ([]byte, error) {
	var code hexutil.Bytes
	if err := c.rpc.CallContext(ctx, &code, "eth_getCode", addr, "latest"); err != nil {
		return nil, fmt.Errorf("evmtest: reading the code at %s: %w", addr, err)
	}
	return code, nil
}

// BlockNumber is the number of the latest accepted block.
func (c *Client) BlockNumber(ctx context.Context) (uint64, error) {
	var n hexutil.Uint64
	if err := c.rpc.CallContext(ctx, &n, "eth_blockNumber"); err != nil {
		return 0, fmt.Errorf("evmtest: reading the block number: %w", err)
	}
	return uint64(n), nil
}

// withRevertReason adds the decoded revert reason, when the node sent revert
// data with the error, to the error's text.
func withRevertReason(err error) error {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return err
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return err
	}
	data, derr := hexutil.Decode(s)
	if derr != nil {
		return err
	}
	reason, uerr := abi.UnpackRevert(data)
	if uerr != nil {
		return err
	}
	return fmt.Errorf("%w (reason %q)", err, reason)
}

// describe names a transaction in error messages.
func describe(tx Tx) string {
	switch {
	case tx.To == nil:
		return "contract creation"
	case len(tx.Data) >= 4:
		return fmt.Sprintf("call %#x to %s", tx.Data[:4], tx.To)
	default:
		return fmt.Sprintf("transfer to %s", tx.To)
	}
}
