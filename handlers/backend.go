package handlers

import (
	"context"
	"math/big"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// Backend is what the HTTP layer reads: the plugin's view of the node and
// one reader per data domain. The store implements the readers itself; the
// VM only supplies what lives outside the store (network identity, follower
// progress, live node state). Unit tests use fakes.
type Backend struct {
	Node    api.NodeView
	Metrics MetricsReader
	EVM     EVMReader
	// EVMState reads live state from the node's EVM chains (current native
	// balances), which the index does not keep.
	EVMState EVMStateReader
	// Primary serves the primary-network endpoints (P, X and C-chain
	// atomic data) from the index.
	Primary PrimaryReader
	// Staking serves validators, delegators and rewards from the index.
	Staking StakingReader
	// Platform reads live P-chain state the index does not keep (uptimes
	// and potential rewards of active validators).
	Platform PlatformStateReader
	// Vertices serves the X-chain DAG vertices from the index; nil (no
	// vertex follower) answers every vertex listing with an empty page.
	Vertices VertexReader
	// SigAgg serves the signature aggregation endpoints; nil answers them
	// as not served yet.
	SigAgg SignatureAggregator
}

// SignatureAggregator gathers validators' signatures of warp messages
// (*aggregator.Aggregator).
type SignatureAggregator interface {
	AggregateSignatures(ctx context.Context, req aggregator.Request) (aggregator.Result, error)
	// AggregateForTx aggregates the warp message of a committed P-chain L1
	// transaction.
	AggregateForTx(ctx context.Context, txID ids.ID) (aggregator.Result, error)
}

// VertexReader serves the X-chain vertex endpoints (spec 13, 15) from the
// index (*store.Store). Vertices are identified by their acceptance index;
// after (exclusive) continues a listing, limit <= 0 means no bound.
type VertexReader interface {
	// LatestVertices lists vertices by acceptance index, newest first.
	LatestVertices(ctx context.Context, after *uint64, limit int) ([]pdata.Vertex, error)
	// VerticesAtHeight lists the vertices of one DAG height by acceptance
	// index, descending when desc.
	VerticesAtHeight(ctx context.Context, dagHeight uint64, desc bool, after *uint64, limit int) ([]pdata.Vertex, error)
}

// MetricsReader serves the metrics service.
type MetricsReader interface {
	// TPSBuckets returns up to limit daily buckets of chain, newest first,
	// starting strictly before `before` (Unix seconds; 0 means no bound).
	TPSBuckets(ctx context.Context, chain netinfo.Chain, before int64, limit int) ([]store.TPSBucket, error)
}

// EVMReader serves the EVM endpoints from the index (*store.Store).
type EVMReader interface {
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
}

// PrimaryReader serves the primary-network endpoints from the index
// (*store.PrimaryReader). Addresses are the 20 bytes of an X/P-chain
// address (or of a 0x address, for C-chain atomic lookups).
type PrimaryReader interface {
	// Txs lists chain's txs as q selects them.
	Txs(ctx context.Context, chain netinfo.Chain, q pdata.TxQuery) ([]pdata.IndexedTx, error)
	// Balances sums the UTXOs of addrs on chain by category and asset as
	// they stood at time at (Unix seconds).
	Balances(ctx context.Context, chain netinfo.Chain, addrs []ids.ShortID, at int64) ([]pdata.BalanceEntry, error)
	// Assets describes the given assets; unknown ones are left out.
	Assets(ctx context.Context, assets []ids.ID) (map[ids.ID]pdata.Asset, error)
	// BlocksByProposer lists chain's blocks proposed by q.NodeID.
	BlocksByProposer(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery) ([]pdata.IndexedBlock, error)
	// HeightAtTime returns the height of the last block of chain with a
	// time <= ts (0 when none), turning timestamp bounds into heights.
	HeightAtTime(ctx context.Context, chain netinfo.Chain, ts int64) (uint64, error)
}

// StakingReader serves the staking endpoints from the index
// (*store.PrimaryReader).
type StakingReader interface {
	Stakers(ctx context.Context, q pdata.StakerQuery) ([]pdata.IndexedStaker, error)
	Rewards(ctx context.Context, q pdata.RewardQuery) ([]pdata.IndexedReward, error)
}

// PlatformStateReader reads the P-chain's current validators from the node
// (platform.getCurrentValidators of the primary network; with nodeIDs, their
// delegators too).
type PlatformStateReader interface {
	CurrentValidators(ctx context.Context, nodeIDs []ids.NodeID) ([]platformvm.ClientPermissionlessValidator, error)
}

// EVMStateReader reads current state from the node's EVM chains.
type EVMStateReader interface {
	NativeBalance(ctx context.Context, chain netinfo.Chain, addr common.Address) (*big.Int, error)
}

// Controller lets operators pause and resume followers over JSON-RPC; it is
// only reachable when the chain config sets adminApiEnabled.
type Controller interface {
	PauseFollower(chain netinfo.Chain) error
	ResumeFollower(chain netinfo.Chain) error
}
