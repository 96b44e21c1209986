package evm

import (
	"context"
	"math/big"
	"time"

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
	// Blocks and the latest transactions (get_block.go,
	// list_latest_transactions.go): EVMBlock and EVMBlockByHash report
	// false for a block the index does not hold.
	EVMBlocks(ctx context.Context, chain netinfo.Chain, q evmdata.BlockQuery) ([]evmdata.BlockSummary, error)
	EVMBlock(ctx context.Context, chain netinfo.Chain, number uint64) (evmdata.BlockSummary, bool, error)
	EVMBlockByHash(ctx context.Context, chain netinfo.Chain, hash common.Hash) (evmdata.BlockSummary, bool, error)
	EVMBlockTxs(ctx context.Context, chain netinfo.Chain, number uint64, after *uint32, limit int) ([]evmdata.IndexedTx, error)
	LatestEVMTxs(ctx context.Context, chain netinfo.Chain, q evmdata.LatestTxQuery) ([]evmdata.IndexedTx, error)
	// An address's typed histories (its activity rows): the top-level txs
	// it sent, received or created a contract by (without their transfers
	// and internal txs), its token transfers of one standard, and the
	// internal txs it sent or received.
	AddressNativeTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error)
	AddressTransfers(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTransferQuery) ([]evmdata.IndexedTransfer, error)
	AddressInternalTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressInternalQuery) ([]evmdata.IndexedInternalTx, error)
	// NFTMetadata returns a token's URI and metadata; nil when not read yet.
	NFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (*evmdata.NFTMetadata, error)
	// CollectionTokens lists an NFT contract's tokens of one standard now, by
	// token id after the given one; CollectionToken reads one (false: none).
	CollectionTokens(ctx context.Context, chain netinfo.Chain, contract common.Address, kind evmdata.ErcType,
		after *big.Int, limit int) ([]evmdata.CollectionToken, error)
	CollectionToken(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (
		evmdata.CollectionToken, bool, error)
	// RequestNFTReindex queues a token's URI and metadata to be read again,
	// within limits.
	RequestNFTReindex(ctx context.Context, chain netinfo.Chain, ref evmdata.TokenRef, now time.Time,
		limits evmdata.ReindexLimits) (evmdata.ReindexOutcome, error)
	// DeployedBy lists the contracts an address deployed, newest first, up
	// to block pinned (0: all).
	DeployedBy(ctx context.Context, chain netinfo.Chain, deployer common.Address, after *evmdata.DeploymentPos,
		limit int, pinned uint64) ([]evmdata.DeployedContract, error)
	// HasActivity reports whether any indexed tx of the chain involves addr.
	HasActivity(ctx context.Context, chain netinfo.Chain, addr common.Address) (bool, error)
	// TokensOf lists the tokens of a standard addr sent or received, after
	// the given one (the candidates of its ERC-20 balances).
	TokensOf(ctx context.Context, chain netinfo.Chain, addr common.Address, kind evmdata.ErcType,
		after *common.Address, limit int) ([]common.Address, error)
	// NFTCandidates lists the ERC-721 tokens owner holds at pinned and
	// every ERC-1155 id it held by then (kind ErcUnknown: both).
	NFTCandidates(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
		kind evmdata.ErcType, after *evmdata.NFTPos, limit int, pinned uint64) ([]evmdata.NFT, error)
	// HistoryFrom is the first block of chain the index holds: 1 from
	// genesis, higher on a node that state-synced or prunes (history.go).
	// Asked per request: a back-fill lowers it as it goes.
	HistoryFrom(ctx context.Context, chain netinfo.Chain) (uint64, error)
	// RunningStateFrom is where the chain's running state (cumulative tx
	// counts, NFT holdings, holder and collection counts) counts from: it
	// lags HistoryFrom while a back-fill fills, and ok is false while the
	// back-fill re-derives it.
	RunningStateFrom(ctx context.Context, chain netinfo.Chain) (from uint64, ok bool, err error)
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
	// DescribeContract reads a contract's name, symbol, decimals (and its
	// standard, when c's is unknown) from the node now, as the background
	// describer does, without storing them.
	DescribeContract(ctx context.Context, chain netinfo.Chain, c evmdata.Contract) (evmdata.Contract, error)
}
