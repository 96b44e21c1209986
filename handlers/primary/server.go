package primary

import (
	"context"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// VertexReader serves the X-chain vertex operations (getVertexByHeight,
// listLatestXChainVertices) from the index (*store.Store). Vertices are
// identified by their acceptance index; after (exclusive) continues a listing,
// limit <= 0 means no bound.
type VertexReader interface {
	// LatestVertices lists vertices by acceptance index, newest first.
	LatestVertices(ctx context.Context, after *uint64, limit int) ([]pdata.Vertex, error)
	// VerticesAtHeight lists the vertices of one DAG height by acceptance
	// index, descending when desc.
	VerticesAtHeight(ctx context.Context, dagHeight uint64, desc bool, after *uint64, limit int) ([]pdata.Vertex, error)
	// VertexByID returns the vertex with that ID; false when none is
	// indexed.
	VertexByID(ctx context.Context, id ids.ID) (pdata.Vertex, bool, error)
}

// Reader serves the primary-network endpoints from the index
// (*store.PrimaryReader). Addresses are the 20 bytes of an X/P-chain
// address (or of a 0x address, for C-chain atomic lookups).
type Reader interface {
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
	// Blocks lists chain's blocks (P or X) by height as q selects them
	// (q.NodeID is not a filter).
	Blocks(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery) ([]pdata.IndexedBlock, error)
	// BlockByID returns chain's block (P or X) with that (outer) ID; false
	// when none is indexed.
	BlockByID(ctx context.Context, chain netinfo.Chain, id ids.ID) (pdata.IndexedBlock, bool, error)
	// ChainSource says how chain's (P or X) index was built: from the
	// node's index API, or from getBlockByHeight on a node without it (no
	// proposers, no DAG vertices).
	ChainSource(ctx context.Context, chain netinfo.Chain) (pdata.ChainSource, error)
	// Subnet returns a subnet with its blockchains; found is false when the
	// index holds none.
	Subnet(ctx context.Context, id ids.ID) (pdata.Subnet, bool, error)
	// Subnets lists subnets, with their blockchains, in creation order.
	Subnets(ctx context.Context, q pdata.RegistryQuery) ([]pdata.Subnet, error)
	// Blockchain returns a blockchain; found is false when the index holds
	// none.
	Blockchain(ctx context.Context, id ids.ID) (pdata.IndexedBlockchain, bool, error)
	// Blockchains lists blockchains in creation order.
	Blockchains(ctx context.Context, q pdata.RegistryQuery) ([]pdata.IndexedBlockchain, error)
	// Tx reads one tx by its ID, as Txs lists it; found is false when the
	// index holds no tx of that ID on any chain.
	Tx(ctx context.Context, id ids.ID) (tx pdata.IndexedTx, found bool, err error)
	// AvaxSupply is the supply and the burns after the last indexed block
	// of each primary-network chain, and the AVAX locked at time at.
	AvaxSupply(ctx context.Context, at int64) (pdata.AvaxSupply, error)
	// UTXOs lists the UTXOs chain holds (its own and its atomic memory's)
	// for any of q.Addresses, each once.
	UTXOs(ctx context.Context, chain netinfo.Chain, q pdata.UTXOQuery) (pdata.UTXOPage, error)
	// LastActivity is the newest tx of chain that involves any of addrs;
	// false when none does.
	LastActivity(ctx context.Context, chain netinfo.Chain, addrs []ids.ShortID) (pdata.AddressActivity, bool, error)
	// ChainsWithActivity lists, per address, the chains among chains on
	// which it has a tx or a UTXO.
	ChainsWithActivity(ctx context.Context, addrs []ids.ShortID, chains []netinfo.Chain) ([][]netinfo.Chain, error)
	// HistoryFrom is the first block of chain the index holds (1: from
	// genesis); the C-chain's may be higher on a node that state-synced it
	// (history.go).
	HistoryFrom(ctx context.Context, chain netinfo.Chain) (uint64, error)
}

// StakingReader serves the staking endpoints from the index
// (*store.PrimaryReader).
type StakingReader interface {
	Stakers(ctx context.Context, q pdata.StakerQuery) ([]pdata.IndexedStaker, error)
	Rewards(ctx context.Context, q pdata.RewardQuery) ([]pdata.IndexedReward, error)
	// L1Validations lists the L1 validations q selects as they stand.
	L1Validations(ctx context.Context, q pdata.L1ValidationQuery) (pdata.L1Validations, error)
}

// PlatformStateReader reads the P-chain's current validators from the node
// (platform.getCurrentValidators of the primary network; with nodeIDs, their
// delegators too).
type PlatformStateReader interface {
	CurrentValidators(ctx context.Context, nodeIDs []ids.NodeID) ([]platformvm.ClientPermissionlessValidator, error)
	// SubnetValidators reads platform.getCurrentValidators of one subnet
	// (an L1's validators with their validation IDs, weights and balances).
	SubnetValidators(ctx context.Context, subnetID ids.ID) ([]platformvm.ClientPermissionlessValidator, error)
	// L1Validator reads platform.getL1Validator: the validation's state and
	// the P-chain height it was read at; found is false for a validation
	// the P-chain does not hold (never registered, or removed).
	L1Validator(ctx context.Context, validationID ids.ID) (v platformvm.L1Validator, height uint64, found bool, err error)
	// CurrentSupply reads platform.getCurrentSupply of the primary network.
	CurrentSupply(ctx context.Context) (uint64, error)
}

// server serves the primary network's operations: P-chain, X-chain
// and C-chain atomic transactions, balances, blocks, vertices and staking.
type server struct {
	*api.Core
	reader  Reader
	staking StakingReader
	// platform reads live P-chain state (uptimes, potential rewards).
	platform PlatformStateReader
	// vertices is nil without a vertex follower: every vertex listing is
	// then an empty page.
	vertices VertexReader
	// totalStake caches the primary network's total stake (a validator's
	// stakePercentage); the one member written after construction.
	totalStake totalStakeCache
	// liveSet caches the node's current primary validators (listValidators'
	// live filters, getNetworkDetails).
	liveSet liveSetCache
	// validatorRows caches every validation's row at one indexed P-chain
	// height (listValidators).
	validatorRows validatorRowsCache
}

// Routes returns the routes of the primary network's operations.
func Routes(core *api.Core, reader Reader, staking StakingReader, platform PlatformStateReader,
	vertices VertexReader,
) []api.Route {
	s := &server{Core: core, reader: reader, staking: staking, platform: platform, vertices: vertices}
	return s.routes()
}
