package evm

import (
	"context"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// server serves the EVM operations from the index of every EVM chain the
// node follows.
type server struct {
	*api.Core
	cfg    Config
	reader Reader
	// state reads live state (native balances); nil: those operations
	// answer 503.
	state   StateReader
	methods methodTable
}

// Routes returns the routes of the EVM operations.
func Routes(core *api.Core, cfg Config, reader Reader, state StateReader) []api.Route {
	s := &server{Core: core, cfg: cfg, reader: reader, state: state, methods: newMethodTable()}
	return s.evmRoutes()
}

// Reader serves the EVM endpoints from the index (*store.Store).
type Reader interface {
	AddressTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error)
	TxByHash(ctx context.Context, chain netinfo.Chain, hash common.Hash) (evmdata.IndexedTx, bool, error)
	TokenTransfers(ctx context.Context, chain netinfo.Chain, q evmdata.TransferQuery) ([]evmdata.IndexedTransfer, error)
	// Contract returns what the index knows of a contract; false when the
	// address was never seen as one.
	Contract(ctx context.Context, chain netinfo.Chain, addr common.Address) (evmdata.Contract, bool, error)
	// NFTsOf and Holders answer as of block pinned (0: now).
	NFTsOf(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
		after *evmdata.NFTPos, limit int, pinned uint64) ([]evmdata.NFT, error)
	Holders(ctx context.Context, chain netinfo.Chain, contract common.Address, after *common.Address,
		limit int, pinned uint64) ([]evmdata.Holder, evmdata.Collection, error)
	// TokensOf lists the tokens of a standard addr sent or received, after
	// the given one (the candidates of its ERC-20 balances).
	TokensOf(ctx context.Context, chain netinfo.Chain, addr common.Address, kind evmdata.ErcType,
		after *common.Address, limit int) ([]common.Address, error)
	// NFTCandidates lists the ERC-721 tokens owner holds at pinned and
	// every ERC-1155 id it held by then (kind ErcUnknown: both).
	NFTCandidates(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
		kind evmdata.ErcType, after *evmdata.NFTPos, limit int, pinned uint64) ([]evmdata.NFT, error)
}

// StateReader reads current state from the node's EVM chains.
type StateReader interface {
	NativeBalance(ctx context.Context, chain netinfo.Chain, addr common.Address) (*big.Int, error)
	// TokenBalancesAt reads balanceOf at block height, one answer per call:
	// nil where the contract gives none. evmdata.ErrStateUnavailable when
	// the node no longer has that block's state.
	TokenBalancesAt(ctx context.Context, chain netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error)
	// NativeBalanceAt reads a native balance at block height.
	NativeBalanceAt(ctx context.Context, chain netinfo.Chain, addr common.Address, height uint64) (*big.Int, error)
}
