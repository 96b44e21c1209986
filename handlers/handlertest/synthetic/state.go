package synthetic

import (
	"context"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/evmstate"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// constantBalances answers every balanceOf with 1e18 and every native
// balance with 5e18: the node's answers, which the cache then keeps.
type constantBalances struct{}

func (constantBalances) CallContractsAt(_ context.Context, calls []nodeapi.ContractCall, _ uint64) error {
	for i := range calls {
		calls[i].Result = common.LeftPadBytes(big.NewInt(1e18).Bytes(), 32)
	}
	return nil
}

func (constantBalances) BalanceAt(context.Context, common.Address, uint64) (*big.Int, error) {
	return big.NewInt(5e18), nil
}

// State is the evm StateReader over one chain's evmstate.Balances, as the
// VM's is, with a node that answers constants.
type State struct{ balances *evmstate.Balances }

// NewState returns a State with the default balance cache.
func NewState() State {
	return State{balances: evmstate.NewBalances(constantBalances{}, evmstate.DefaultCacheEntries)}
}

func (s State) NativeBalance(ctx context.Context, _ netinfo.Chain, addr common.Address) (*big.Int, error) {
	return s.balances.NativeAt(ctx, 0, addr)
}

func (s State) TokenBalancesAt(ctx context.Context, _ netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error) {
	return s.balances.At(ctx, height, calls)
}

func (s State) NativeBalanceAt(ctx context.Context, _ netinfo.Chain, addr common.Address, height uint64) (*big.Int, error) {
	return s.balances.NativeAt(ctx, height, addr)
}

// DescribeContract answers as a node whose contracts revert every call.
func (State) DescribeContract(_ context.Context, _ netinfo.Chain, c evmdata.Contract) (evmdata.Contract, error) {
	return c, nil
}

// TransactionLogs answers as a node whose every tx emitted one ERC-20
// Transfer of 1e18 between two fixed addresses.
func (State) TransactionLogs(_ context.Context, _ netinfo.Chain, _ common.Hash) ([]evmdata.Log, bool, error) {
	transfer := crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	return []evmdata.Log{{
		Address: common.Address{0xee},
		Topics:  []common.Hash{transfer, common.BytesToHash([]byte{1}), common.BytesToHash([]byte{2})},
		Data:    common.LeftPadBytes(big.NewInt(1e18).Bytes(), 32),
	}}, true, nil
}
