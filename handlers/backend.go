package handlers

import (
	"context"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Backend is what the HTTP layer needs from the rest of the plugin. The VM
// implements it over the store and the followers; unit tests use a fake.
type Backend interface {
	// Network is the identity of the host node's network.
	Network() netinfo.Info
	// Statuses reports the progress of every followed chain.
	Statuses() []follower.Status
	// TPSBuckets returns up to limit daily buckets of chain, newest first,
	// starting strictly before `before` (Unix seconds; 0 means no bound).
	TPSBuckets(ctx context.Context, chain netinfo.Chain, before int64, limit int) ([]store.TPSBucket, error)
	// PageTokenKey is the secret that signs page tokens (persisted, so tokens
	// survive restarts).
	PageTokenKey() []byte
}

// Controller lets operators pause and resume followers over JSON-RPC; it is
// only reachable when the chain config sets adminApiEnabled.
type Controller interface {
	PauseFollower(chain netinfo.Chain) error
	ResumeFollower(chain netinfo.Chain) error
}
