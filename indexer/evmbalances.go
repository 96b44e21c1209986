package indexer

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// TokenBalancesAt reads token balances on an EVM chain at block height
// from the node (evmstate.Balances.At says what the answers mean).
func (ix *Indexer) TokenBalancesAt(ctx context.Context, chain netinfo.Chain, height uint64,
	calls []evmdata.BalanceCall,
) ([]*big.Int, error) {
	ix.mu.Lock()
	b, ok := ix.balances[chain]
	ix.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("chain %s is not a followed EVM chain", chain)
	}
	return b.At(ctx, height, calls)
}

// NativeBalanceAt reads addr's native balance on an EVM chain at block
// height; evmdata.ErrStateUnavailable when the node no longer has that
// block's state.
func (ix *Indexer) NativeBalanceAt(ctx context.Context, chain netinfo.Chain, addr common.Address,
	height uint64,
) (*big.Int, error) {
	ix.mu.Lock()
	c, ok := ix.evm[chain]
	ix.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("chain %s is not a followed EVM chain", chain)
	}
	balance, err := c.BalanceAt(ctx, addr, height)
	if nodeapi.IsStateUnavailable(err) {
		return nil, fmt.Errorf("%w: %w", evmdata.ErrStateUnavailable, err)
	}
	return balance, err
}
