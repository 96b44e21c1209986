package vm

import (
	"context"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TokenBalancesAt reads token balances at a block from the node.
func (vm *VM) TokenBalancesAt(ctx context.Context, chain netinfo.Chain, height uint64,
	calls []evmdata.BalanceCall,
) ([]*big.Int, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return nil, err
	}
	return ix.TokenBalancesAt(ctx, chain, height, calls)
}

// NativeBalanceAt reads a native balance at a block from the node.
func (vm *VM) NativeBalanceAt(ctx context.Context, chain netinfo.Chain, addr common.Address,
	height uint64,
) (*big.Int, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return nil, err
	}
	return ix.NativeBalanceAt(ctx, chain, addr, height)
}

// DescribeContract reads a contract's on-chain metadata from the node now.
func (vm *VM) DescribeContract(ctx context.Context, chain netinfo.Chain, c evmdata.Contract) (evmdata.Contract, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return c, err
	}
	return ix.DescribeContract(ctx, chain, c)
}
