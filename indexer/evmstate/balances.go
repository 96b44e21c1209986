// Package evmstate reads token balances from an EVM chain's state at a
// given block, for the balance listings: the index says which tokens an
// address may hold, the node says how much, so a token whose balanceOf does
// not follow its Transfer logs (rebasing, fee-on-transfer, balances minted
// without an event) is never shown with an amount derived from its logs.
//
// The state of an accepted block never changes, so every answer is cached
// by (block, token, owner, id), and native balances by (block, owner):
// paging through a listing, or asking again for the same block, reads the
// node only once per balance.
package evmstate

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ava-labs/avalanchego/cache/lru"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/rpc"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// Selectors of the balance calls.
var (
	selBalanceOf     = []byte{0x70, 0xa0, 0x82, 0x31} // balanceOf(address)
	selBalanceOf1155 = []byte{0x00, 0xfd, 0xd5, 0x8e} // balanceOf(address,uint256)
)

// DefaultCacheEntries bounds the cached balances of one chain (about 150
// bytes each).
const DefaultCacheEntries = 1 << 16

// Caller runs read-only calls and reads native balances at a block
// (nodeapi.EVMClient).
type Caller interface {
	CallContractsAt(ctx context.Context, calls []nodeapi.ContractCall, height uint64) error
	BalanceAt(ctx context.Context, addr common.Address, height uint64) (*big.Int, error)
}

// Balances reads one chain's token balances at a block, through a cache.
// It is safe for concurrent use.
type Balances struct {
	node  Caller
	cache *lru.Cache[balanceKey, cachedBalance]
}

// balanceKey is one immutable answer: a balance at a block (the native
// one when native is set).
type balanceKey struct {
	height  uint64
	token   common.Address
	owner   common.Address
	id      [32]byte
	erc1155 bool
	native  bool
}

// cachedBalance is a balance, or nil when the contract gave none (it
// reverted, has no code or answered something other than a uint256).
type cachedBalance struct{ balance *big.Int }

// NewBalances reads balances through node, caching up to entries answers.
func NewBalances(node Caller, entries int) *Balances {
	return &Balances{node: node, cache: lru.NewCache[balanceKey, cachedBalance](max(entries, 1))}
}

// At returns the balance of every call at block height, in order: nil
// where the contract gives none (it is not a token of that standard at
// that block). The returned big.Ints are shared with the cache: read only.
// evmdata.ErrStateUnavailable when the node no longer has the block's
// state; any other failure to reach the node is an error too, so a
// listing is never silently missing a token.
func (b *Balances) At(ctx context.Context, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error) {
	out := make([]*big.Int, len(calls))
	keys := make([]balanceKey, len(calls))
	var missing []int
	for i, c := range calls {
		keys[i] = keyOf(height, c)
		if hit, ok := b.cache.Get(keys[i]); ok {
			out[i] = hit.balance
			continue
		}
		missing = append(missing, i)
	}
	if len(missing) == 0 {
		return out, nil
	}
	reqs := make([]nodeapi.ContractCall, len(missing))
	for j, i := range missing {
		reqs[j] = nodeapi.ContractCall{To: calls[i].Token, Data: callData(calls[i])}
	}
	if err := b.node.CallContractsAt(ctx, reqs, height); err != nil {
		return nil, fmt.Errorf("reading %d balances at block %d: %w", len(reqs), height, err)
	}
	for j, i := range missing {
		balance, err := balanceOf(reqs[j])
		if err != nil {
			return nil, fmt.Errorf("reading the balance of %s in %s at block %d: %w", calls[i].Owner, calls[i].Token, height, err)
		}
		b.cache.Put(keys[i], cachedBalance{balance: balance})
		out[i] = balance
	}
	return out, nil
}

// NativeAt returns owner's native balance at block height (read only);
// evmdata.ErrStateUnavailable when the node no longer has that block's
// state.
func (b *Balances) NativeAt(ctx context.Context, height uint64, owner common.Address) (*big.Int, error) {
	key := balanceKey{height: height, owner: owner, native: true}
	if hit, ok := b.cache.Get(key); ok {
		return hit.balance, nil
	}
	balance, err := b.node.BalanceAt(ctx, owner, height)
	if nodeapi.IsStateUnavailable(err) {
		return nil, fmt.Errorf("%w: %w", evmdata.ErrStateUnavailable, err)
	}
	if err != nil {
		return nil, err
	}
	b.cache.Put(key, cachedBalance{balance: balance})
	return balance, nil
}

func keyOf(height uint64, c evmdata.BalanceCall) balanceKey {
	k := balanceKey{height: height, token: c.Token, owner: c.Owner, erc1155: c.TokenID != nil}
	if c.TokenID != nil {
		c.TokenID.FillBytes(k.id[:])
	}
	return k
}

// callData encodes balanceOf(owner) or balanceOf(owner, id).
func callData(c evmdata.BalanceCall) []byte {
	if c.TokenID == nil {
		return append(append([]byte{}, selBalanceOf...), common.LeftPadBytes(c.Owner[:], 32)...)
	}
	data := append(append(make([]byte, 0, 4+64), selBalanceOf1155...), common.LeftPadBytes(c.Owner[:], 32)...)
	return append(data, common.LeftPadBytes(c.TokenID.Bytes(), 32)...)
}

// balanceOf reads one answer. An error the contract's execution produced
// (a revert, running out of gas) means no balance; a node without the
// block's state, or no answer at all, is an error.
func balanceOf(call nodeapi.ContractCall) (*big.Int, error) {
	if call.Err != nil {
		if nodeapi.IsStateUnavailable(call.Err) {
			return nil, fmt.Errorf("%w: %w", evmdata.ErrStateUnavailable, call.Err)
		}
		var rpcErr rpc.Error
		if errors.As(call.Err, &rpcErr) && !isTransient(rpcErr) {
			return nil, nil
		}
		return nil, call.Err
	}
	if len(call.Result) != 32 {
		return nil, nil // no code at the address, or not a uint256
	}
	return new(big.Int).SetBytes(call.Result), nil
}

// isTransient reports a node error about the request rather than the
// contract: out of time, or over a limit.
func isTransient(err rpc.Error) bool {
	const codeRequestTimeout, codeResponseTooLarge = -32002, -32003
	return err.ErrorCode() == codeRequestTimeout || err.ErrorCode() == codeResponseTooLarge
}
