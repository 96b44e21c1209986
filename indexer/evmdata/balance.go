package evmdata

import (
	"errors"
	"math/big"

	"github.com/ava-labs/libevm/common"
)

// BalanceCall asks for Owner's balance of Token at a block, read from the
// node's state: ERC-20 balanceOf(Owner), or ERC-1155 balanceOf(Owner,
// TokenID) when TokenID is set.
type BalanceCall struct {
	Token   common.Address
	Owner   common.Address
	TokenID *big.Int // nil: ERC-20
}

// ErrStateUnavailable says the node no longer has the state of the asked
// block (a pruned, non-archive node), so no balance at it can be read.
var ErrStateUnavailable = errors.New("the node does not have the state of that block")
