package indexer

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/evmstate"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TokenBalancesAt reads token balances on an EVM chain at block height
// from the node (evmstate.Balances.At says what the answers mean).
func (ix *Indexer) TokenBalancesAt(ctx context.Context, chain netinfo.Chain, height uint64,
	calls []evmdata.BalanceCall,
) ([]*big.Int, error) {
	b, err := ix.balancesOf(chain)
	if err != nil {
		return nil, err
	}
	return b.At(ctx, height, calls)
}

// NativeBalanceAt reads addr's native balance on an EVM chain at block
// height (cached); evmdata.ErrStateUnavailable when the node no longer has
// that block's state.
func (ix *Indexer) NativeBalanceAt(ctx context.Context, chain netinfo.Chain, addr common.Address,
	height uint64,
) (*big.Int, error) {
	b, err := ix.balancesOf(chain)
	if err != nil {
		return nil, err
	}
	return b.NativeAt(ctx, height, addr)
}

func (ix *Indexer) balancesOf(chain netinfo.Chain) (*evmstate.Balances, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	b, ok := ix.balances[chain]
	if !ok {
		return nil, fmt.Errorf("chain %s is not a followed EVM chain", chain)
	}
	return b, nil
}
