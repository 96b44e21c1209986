package follower

import (
	"time"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Status is a snapshot of one follower's progress, shared by the health
// check, the avadata.status JSON-RPC method and the metrics API.
type Status struct {
	Chain         netinfo.Chain `json:"-"`
	ChainName     string        `json:"chain"`
	BlockchainID  string        `json:"blockchainId,omitempty"`
	IndexedHeight uint64        `json:"indexedHeight"`
	// HistoryFrom is the first block the index holds: 1 when it holds the
	// chain from genesis, higher when the node's history (or indexFrom)
	// began later. Answers about earlier blocks are refused, not short.
	HistoryFrom     uint64  `json:"historyFrom"`
	NodeHeight      uint64  `json:"nodeHeight"`
	Lag             uint64  `json:"lag"`
	BlocksPerSecond float64 `json:"blocksPerSecond"`
	// ETASeconds estimates the time to catch up at the current rate (0 when
	// caught up or unknown).
	ETASeconds int64 `json:"etaSeconds,omitempty"`
	// TracesAvailable says whether the node traced the last indexed block
	// (internal transactions recorded); absent for chains without traces.
	TracesAvailable *bool `json:"tracesAvailable,omitempty"`
	// LastApplied is the wall-clock time of the follower's last write to the
	// store (zero before the first one).
	LastApplied time.Time `json:"lastApplied"`
	// LastProgress is the wall-clock time the follower last advanced or saw
	// that it was caught up.
	LastProgress time.Time `json:"lastProgress"`
	// CaughtUp is true once the follower has reached the node's height.
	CaughtUp  bool   `json:"caughtUp"`
	Paused    bool   `json:"paused"`
	Running   bool   `json:"running"`
	LastError string `json:"lastError,omitempty"`
	// Unavailable names what this chain's index cannot know on this node,
	// each with the node flag that would give it, e.g. the proposer
	// details of P-chain blocks on a node without --index-enabled.
	Unavailable []string `json:"unavailable,omitempty"`
	// Backfill is the progress of the chain's back-fill toward the height
	// indexFrom names (EVM chains indexed from a later block); absent when
	// there is none.
	Backfill *BackfillStatus `json:"backfill,omitempty"`

	// NodeHeightKnown is true once the follower has read the node's head:
	// before, NodeHeight 0 says nothing (not "the chain is at genesis").
	NodeHeightKnown bool `json:"-"`
}
