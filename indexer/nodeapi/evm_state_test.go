package nodeapi

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http/httptest"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
)

// stateEth answers eth_call and eth_getBalance with the block they were
// asked at, and fails below pruneBelow as a pruned node does.
type stateEth struct{ pruneBelow uint64 }

func (s stateEth) at(block rpc.BlockNumber) (uint64, error) {
	if block < 0 {
		return 1000, nil // "latest"
	}
	if uint64(block) < s.pruneBelow {
		return 0, errors.New("required historical state unavailable (reexec=128)")
	}
	return uint64(block), nil
}

func (s stateEth) Call(args callArgs, block rpc.BlockNumber) (hexutil.Bytes, error) {
	h, err := s.at(block)
	if err != nil {
		return nil, err
	}
	return common.BigToHash(new(big.Int).SetUint64(h)).Bytes(), nil
}

func (s stateEth) GetBalance(addr common.Address, block rpc.BlockNumber) (*hexutil.Big, error) {
	h, err := s.at(block)
	return (*hexutil.Big)(new(big.Int).SetUint64(h * 2)), err
}

func dialState(t *testing.T, pruneBelow uint64) *EVMClient {
	t.Helper()
	rs := rpc.NewServer()
	require.NoError(t, rs.RegisterName("eth", stateEth{pruneBelow: pruneBelow}))
	hs := httptest.NewServer(rs)
	t.Cleanup(hs.Close)
	t.Cleanup(rs.Stop)
	c, err := DialEVM(context.Background(), hs.URL+"/", "C")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

func TestCallContractsAtAsksTheBlock(t *testing.T) {
	c := dialState(t, 10)
	calls := []ContractCall{{To: common.Address{1}}, {To: common.Address{2}}}
	require.NoError(t, c.CallContractsAt(context.Background(), calls, 42))
	for i, call := range calls {
		require.NoError(t, call.Err, "call %d", i)
		require.Equal(t, uint64(42), new(big.Int).SetBytes(call.Result).Uint64(), "call %d", i)
	}
	require.NoError(t, c.CallContracts(context.Background(), calls))
	require.Equal(t, uint64(1000), new(big.Int).SetBytes(calls[0].Result).Uint64(), "latest")

	bal, err := c.BalanceAt(context.Background(), common.Address{3}, 21)
	require.NoError(t, err)
	require.Equal(t, int64(42), bal.Int64())
}

func TestCallContractsAtPrunedState(t *testing.T) {
	c := dialState(t, 10)
	calls := []ContractCall{{To: common.Address{1}}}
	require.NoError(t, c.CallContractsAt(context.Background(), calls, 9))
	require.True(t, IsStateUnavailable(calls[0].Err), "%v", calls[0].Err)
	_, err := c.BalanceAt(context.Background(), common.Address{3}, 9)
	require.True(t, IsStateUnavailable(err), fmt.Sprint(err))
}
