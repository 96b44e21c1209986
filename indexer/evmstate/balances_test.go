package evmstate

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// fakeNode answers each call by its target: a word, a JSON-RPC error, or
// the error set for the whole request.
type fakeNode struct {
	answers map[common.Address]func(data []byte, height uint64) ([]byte, error)
	err     error
	calls   int // calls sent
}

func (f *fakeNode) BalanceAt(_ context.Context, addr common.Address, height uint64) (*big.Int, error) {
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	return new(big.Int).SetUint64(height + uint64(addr[19])), nil
}

func (f *fakeNode) CallContractsAt(_ context.Context, calls []nodeapi.ContractCall, height uint64) error {
	if f.err != nil {
		return f.err
	}
	for i := range calls {
		f.calls++
		calls[i].Result, calls[i].Err = f.answers[calls[i].To](calls[i].Data, height)
	}
	return nil
}

// rpcErr is a JSON-RPC error as the node returns one for a call.
type rpcErr struct {
	code int
	msg  string
}

func (e rpcErr) Error() string  { return e.msg }
func (e rpcErr) ErrorCode() int { return e.code }

var _ rpc.Error = rpcErr{}

func word(v int64) []byte { return common.BigToHash(big.NewInt(v)).Bytes() }

var (
	owner    = common.HexToAddress("0x1111111111111111111111111111111111111111")
	erc20    = common.HexToAddress("0x2000000000000000000000000000000000000002")
	erc1155  = common.HexToAddress("0x3000000000000000000000000000000000000003")
	reverts  = common.HexToAddress("0x4000000000000000000000000000000000000004")
	noCode   = common.HexToAddress("0x5000000000000000000000000000000000000005")
	timesOut = common.HexToAddress("0x6000000000000000000000000000000000000006")
)

func newFake() *fakeNode {
	return &fakeNode{answers: map[common.Address]func([]byte, uint64) ([]byte, error){
		erc20: func(data []byte, h uint64) ([]byte, error) {
			if len(data) != 36 || common.BytesToAddress(data[4:36]) != owner {
				return nil, errors.New("bad call data")
			}
			return word(int64(h) * 10), nil
		},
		erc1155: func(data []byte, h uint64) ([]byte, error) {
			if len(data) != 68 {
				return nil, errors.New("bad call data")
			}
			return word(int64(h) + new(big.Int).SetBytes(data[36:]).Int64()), nil
		},
		reverts:  func([]byte, uint64) ([]byte, error) { return nil, rpcErr{3, "execution reverted"} },
		noCode:   func([]byte, uint64) ([]byte, error) { return []byte{}, nil },
		timesOut: func([]byte, uint64) ([]byte, error) { return nil, rpcErr{-32002, "request timed out"} },
	}}
}

func TestBalancesAtReadsAndCaches(t *testing.T) {
	node := newFake()
	b := NewBalances(node, 100)
	calls := []evmdata.BalanceCall{
		{Token: erc20, Owner: owner},
		{Token: erc1155, Owner: owner, TokenID: big.NewInt(7)},
		{Token: reverts, Owner: owner},
		{Token: noCode, Owner: owner},
	}
	got, err := b.At(context.Background(), 5, calls)
	require.NoError(t, err)
	require.Equal(t, int64(50), got[0].Int64())
	require.Equal(t, int64(12), got[1].Int64())
	require.Nil(t, got[2], "a reverting balanceOf gives no balance")
	require.Nil(t, got[3], "no code gives no balance")
	require.Equal(t, 4, node.calls)

	again, err := b.At(context.Background(), 5, calls)
	require.NoError(t, err)
	require.Equal(t, got, again)
	require.Equal(t, 4, node.calls, "a block's balances are read once")

	other, err := b.At(context.Background(), 6, calls[:1])
	require.NoError(t, err)
	require.Equal(t, int64(60), other[0].Int64(), "another block is another balance")
	require.Equal(t, 5, node.calls)
}

func TestBalancesAtFailures(t *testing.T) {
	node := newFake()
	node.answers[erc20] = func([]byte, uint64) ([]byte, error) {
		return nil, rpcErr{-32000, "missing trie node 1234 (path ) state 0xabc is not available"}
	}
	b := NewBalances(node, 100)
	_, err := b.At(context.Background(), 5, []evmdata.BalanceCall{{Token: erc20, Owner: owner}})
	require.ErrorIs(t, err, evmdata.ErrStateUnavailable)

	_, err = b.At(context.Background(), 5, []evmdata.BalanceCall{{Token: timesOut, Owner: owner}})
	require.ErrorContains(t, err, "timed out", "a timeout is not a missing balance")

	node.err = errors.New("connection refused")
	_, err = b.At(context.Background(), 5, []evmdata.BalanceCall{{Token: erc1155, Owner: owner, TokenID: big.NewInt(1)}})
	require.ErrorContains(t, err, "connection refused")
	require.NotErrorIs(t, err, evmdata.ErrStateUnavailable)
}

func TestNativeAtCaches(t *testing.T) {
	node := newFake()
	b := NewBalances(node, 100)
	for range 2 {
		got, err := b.NativeAt(context.Background(), 7, owner)
		require.NoError(t, err)
		require.Equal(t, int64(7+0x11), got.Int64())
	}
	require.Equal(t, 1, node.calls, "a block's native balance is read once")

	node.err = rpcErr{-32000, "missing trie node abc (path )"}
	_, err := b.NativeAt(context.Background(), 3, owner)
	require.ErrorIs(t, err, evmdata.ErrStateUnavailable)
	node.err = errors.New("connection refused")
	_, err = b.NativeAt(context.Background(), 3, owner)
	require.ErrorContains(t, err, "connection refused")
	require.NotErrorIs(t, err, evmdata.ErrStateUnavailable)
}
