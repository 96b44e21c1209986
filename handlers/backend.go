package handlers

import (
	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/explorer"
	"github.com/avadata/avadata/handlers/metrics"
	"github.com/avadata/avadata/handlers/operations"
	"github.com/avadata/avadata/handlers/primary"
	"github.com/avadata/avadata/handlers/sigagg"
	"github.com/avadata/avadata/handlers/webhooks"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Backend is what the HTTP layer reads: the plugin's view of the node and
// one reader per data domain. The store implements the readers itself; the
// VM only supplies what lives outside the store (network identity, follower
// progress, live node state). Unit tests use fakes.
type Backend struct {
	Node    api.NodeView
	Metrics metrics.Reader
	EVM     evm.Reader
	// EVMState reads live state from the node's EVM chains (current native
	// balances), which the index does not keep.
	EVMState evm.StateReader
	// Primary serves the primary-network endpoints (P, X and C-chain
	// atomic data) from the index.
	Primary primary.Reader
	// Staking serves validators, delegators and rewards from the index.
	Staking primary.StakingReader
	// Platform reads live P-chain state the index does not keep (uptimes
	// and potential rewards of active validators).
	Platform primary.PlatformStateReader
	// Vertices serves the X-chain DAG vertices from the index; nil (no
	// vertex follower) answers every vertex listing with an empty page.
	Vertices primary.VertexReader
	// SigAgg serves the signature aggregation endpoints; nil answers them
	// as not served yet.
	SigAgg sigagg.Aggregator
	// Health judges avadata's health for data-health-check; nil judges the
	// followers only by whether they run (as live-check does).
	Health HealthReporter
	// Exports runs transaction exports; nil answers the operations as not
	// served yet.
	Exports operations.Exports
	// Webhooks keeps the webhooks; nil answers their operations as not
	// served yet.
	Webhooks webhooks.Backend
	// Tokens finds tokens by name or symbol for the explorer's search; nil
	// searches no token names.
	Tokens explorer.TokenSearcher
	// Logs reads a transaction's event logs from the node for the
	// explorer's tx page (the index keeps none); nil shows none.
	Logs explorer.LogReader
	// Holders reads an ERC-20 token's parties from the index and their
	// balances from the node for the explorer's token page; nil shows none.
	Holders explorer.TokenHolders
}

// Controller lets operators pause and resume followers over JSON-RPC; it is
// only reachable when the chain config sets adminApiEnabled.
type Controller interface {
	PauseFollower(chain netinfo.Chain) error
	ResumeFollower(chain netinfo.Chain) error
}
