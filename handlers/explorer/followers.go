package explorer

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The followers' progress, as /v1/status reports it, for people: the home
// page's chain table and the status page read it the same way.

// statusReply is the part of the API's /v1/status reply the pages show.
type statusReply struct {
	Version string `json:"version"`
	Network struct {
		Name       string `json:"name"`
		NetworkID  uint32 `json:"networkId"`
		EVMChainID uint64 `json:"evmChainId"`
		EVMChains  []struct {
			Name         string `json:"name"`
			BlockchainID string `json:"blockchainId"`
			EVMChainID   uint64 `json:"evmChainId"`
		} `json:"evmChains"`
	} `json:"network"`
	Chains []followerStatus `json:"chains"`
}

// followerStatus is one follower in /v1/status.
type followerStatus struct {
	Chain           string   `json:"chain"`
	BlockchainID    string   `json:"blockchainId"`
	IndexedHeight   uint64   `json:"indexedHeight"`
	HistoryFrom     uint64   `json:"historyFrom"`
	NodeHeight      uint64   `json:"nodeHeight"`
	Lag             uint64   `json:"lag"`
	BlocksPerSecond float64  `json:"blocksPerSecond"`
	ETASeconds      int64    `json:"etaSeconds"`
	LastApplied     string   `json:"lastApplied"`
	LastProgress    string   `json:"lastProgress"`
	CaughtUp        bool     `json:"caughtUp"`
	Paused          bool     `json:"paused"`
	Running         bool     `json:"running"`
	LastError       string   `json:"lastError"`
	Unavailable     []string `json:"unavailable"`
	TracesAvailable *bool    `json:"tracesAvailable"`
	Backfill        *struct {
		Target          uint64  `json:"target"`
		FirstHeight     uint64  `json:"firstHeight"`
		State           string  `json:"state"`
		RederivedTo     uint64  `json:"rederivedTo"`
		BlocksPerSecond float64 `json:"blocksPerSecond"`
		ETASeconds      int64   `json:"etaSeconds"`
		LastError       string  `json:"lastError"`
	} `json:"backfill"`
}

// follower is one followed chain as the pages show it.
type follower struct {
	followerStatus
	// EVMChainID is the chain's EVM chain id (0: P or X).
	EVMChainID uint64
	// State is what the follower does, in a word, and StateClass its badge's
	// class: "ok" caught up, "bad" stopped, "" otherwise.
	State, StateClass string
	// Done and Todo are the blocks the index holds from the first block it
	// keeps, and the blocks up to the node's height: the catch-up progress.
	Done, Todo uint64
	// Percent is Done/Todo in percent, one decimal.
	Percent string
	// ETA is the catch-up's estimate, for people ("" unknown).
	ETA string
	// Rate is the blocks per second, for people.
	Rate string
	// Wrote is when the follower last wrote to the index, for people.
	Wrote string
	// Backfill* are the back-fill's progress where there is one.
	BackfillDone, BackfillTodo   uint64
	BackfillPercent, BackfillETA string
}

// readStatus reads the API's /v1/status.
func (s *server) readStatus(ctx context.Context) (statusReply, error) {
	var out statusReply
	status, err := s.get(ctx, call(nil, "v1", "status"))
	if err != nil {
		return out, err
	}
	raw, err := json.Marshal(status)
	if err != nil {
		return out, fmt.Errorf("reading the status: %w", err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("reading the status: %w", err)
	}
	return out, nil
}

// followers are the status's followers, for people.
func (st statusReply) followers() []follower {
	evmIDs := map[string]uint64{}
	for _, c := range st.Network.EVMChains {
		evmIDs[c.BlockchainID] = c.EVMChainID
	}
	out := make([]follower, 0, len(st.Chains))
	for _, c := range st.Chains {
		f := follower{followerStatus: c, EVMChainID: evmIDs[c.BlockchainID]}
		if c.Chain == "C" && f.EVMChainID == 0 {
			f.EVMChainID = st.Network.EVMChainID
		}
		switch {
		case c.Paused:
			f.State = "paused"
		case !c.Running:
			f.State, f.StateClass = "stopped", "bad"
		case c.CaughtUp:
			f.State, f.StateClass = "caught up", "ok"
		default:
			f.State = "catching up"
		}
		first := max(c.HistoryFrom, 1)
		if c.IndexedHeight >= first {
			f.Done = c.IndexedHeight - first + 1
		}
		if c.NodeHeight >= first {
			f.Todo = c.NodeHeight - first + 1
		}
		f.Todo = max(f.Todo, f.Done)
		f.Percent = percent(f.Done, f.Todo)
		f.ETA = duration(c.ETASeconds)
		f.Rate = fmt.Sprintf("%.1f", c.BlocksPerSecond)
		f.Wrote = wallClock(c.LastApplied)
		if b := c.Backfill; b != nil && b.State != "done" {
			// The back-fill fills down from the first block the index held
			// to Target: the blocks held of those between Target and the
			// indexed height.
			if c.IndexedHeight >= b.FirstHeight {
				f.BackfillDone = c.IndexedHeight - b.FirstHeight + 1
			}
			if c.IndexedHeight >= b.Target {
				f.BackfillTodo = c.IndexedHeight - b.Target + 1
			}
			f.BackfillTodo = max(f.BackfillTodo, f.BackfillDone)
			f.BackfillPercent = percent(f.BackfillDone, f.BackfillTodo)
			f.BackfillETA = duration(b.ETASeconds)
		}
		out = append(out, f)
	}
	return out
}

// percent is done/todo in percent with one decimal; 100 when there is
// nothing to do.
func percent(done, todo uint64) string {
	if todo == 0 {
		return "100"
	}
	return fmt.Sprintf("%.1f", float64(done)*100/float64(todo))
}

// duration writes seconds for people: "" for none.
func duration(secs int64) string {
	if secs <= 0 {
		return ""
	}
	return time.Duration(secs * int64(time.Second)).String()
}

// wallClock writes an RFC 3339 time of the status for people: "never" for
// the zero time (nothing written yet).
func wallClock(rfc3339 string) string {
	t, err := time.Parse(time.RFC3339Nano, rfc3339)
	if err != nil {
		return rfc3339
	}
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}
