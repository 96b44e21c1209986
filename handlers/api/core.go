package api

import (
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Core is what every operation shares whatever its domain: the node it
// answers for, the clock of page tokens, the log, and how errors are
// reported. It is built once by New and only read afterwards.
type Core struct {
	node    NodeView
	log     logging.Logger
	now     func() time.Time
	version string
	// requestTimeout is the time budget of a request, named in the 503 of
	// one that outlives it.
	requestTimeout time.Duration
	// streamNames keeps the cb58 stream name of each non-primary chain
	// (ids.ID → string): every request names every follower's stream, and
	// cb58 (a checksum and a base-58 division loop) cost more than the
	// rest of that.
	streamNames sync.Map
}

// NewCore returns the Core of an API answering for node. log may be nil
// (nothing is logged) and now nil (the wall clock).
func NewCore(node NodeView, log logging.Logger, now func() time.Time, version string, requestTimeout time.Duration) *Core {
	if log == nil {
		log = logging.NoLog{}
	}
	if now == nil {
		now = time.Now
	}
	return &Core{node: node, log: log, now: now, version: version, requestTimeout: requestTimeout}
}

// Network is the identity of the node's network and of its followed chains.
func (c *Core) Network() netinfo.Info { return c.node.Network() }

// Statuses reports the progress of every followed chain.
func (c *Core) Statuses() []follower.Status { return c.node.Statuses() }

// Now is the API's clock.
func (c *Core) Now() time.Time { return c.now() }

// Log is the API's logger.
func (c *Core) Log() logging.Logger { return c.log }

// Version is the avadata version the API reports.
func (c *Core) Version() string { return c.version }

// NodeView is the plugin's view of its node.
type NodeView interface {
	// Network is the identity of the host node's network and of the chains
	// avadata follows.
	Network() netinfo.Info
	// Statuses reports the progress of every followed chain.
	Statuses() []follower.Status
	// PageTokenKey is the secret that signs page tokens: the pageTokenSecret
	// replicas share, else the node's own (persisted, so tokens survive
	// restarts).
	PageTokenKey() []byte
}
