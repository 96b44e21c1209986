package follower

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// IndexFrom says where a chain's index begins when the follower first
// starts it (a started index resumes at its cursor, whatever the setting).
type IndexFrom struct {
	// Height, when not 0, is the first height to index; otherwise
	// Genesis or the earliest block the node serves.
	Height uint64
	// Genesis asks for the whole chain: a node that cannot serve it is an
	// error the status shows until it can.
	Genesis bool
}

// The settings' names, as the configuration spells them.
const (
	IndexFromGenesis  = "genesis"
	IndexFromEarliest = "earliest-available"
)

// EarliestAvailable is the default: from the oldest block the node serves,
// which is genesis on a node that keeps its whole history.
var EarliestAvailable = IndexFrom{}

// String is the setting as the configuration spells it.
func (f IndexFrom) String() string {
	switch {
	case f.Height != 0:
		return strconv.FormatUint(f.Height, 10)
	case f.Genesis:
		return IndexFromGenesis
	default:
		return IndexFromEarliest
	}
}

// ParseIndexFrom reads "genesis", "earliest-available" or a height (a
// JSON number or a decimal string).
func ParseIndexFrom(raw json.RawMessage) (IndexFrom, error) {
	var n uint64
	if err := json.Unmarshal(raw, &n); err == nil {
		return IndexFrom{Height: max(n, 1)}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return IndexFrom{}, fmt.Errorf("indexFrom is %s: want %q, %q or a block height", raw, IndexFromGenesis, IndexFromEarliest)
	}
	switch strings.TrimSpace(s) {
	case IndexFromGenesis:
		return IndexFrom{Genesis: true}, nil
	case IndexFromEarliest, "":
		return EarliestAvailable, nil
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return IndexFrom{}, fmt.Errorf("indexFrom is %q: want %q, %q or a block height", s, IndexFromGenesis, IndexFromEarliest)
	}
	return IndexFrom{Height: max(n, 1)}, nil
}

// HistorySource is a Source that can tell the oldest block the node still
// serves (an EVM chain the node state-synced or prunes). A Source without
// it serves every block from genesis.
type HistorySource interface {
	// Earliest returns the lowest height from which the node serves every
	// block up to its head (1 when it serves the whole chain).
	Earliest(ctx context.Context) (uint64, error)
}

// earliest asks src for its oldest block; 1 when it keeps them all.
func earliest(ctx context.Context, src any) (uint64, error) {
	hs, ok := src.(HistorySource)
	if !ok {
		return 1, nil
	}
	return hs.Earliest(ctx)
}

// firstHeight is where a fresh index of the chain starts, given the
// setting and the oldest block the node serves.
func firstHeight(name string, from IndexFrom, oldest uint64) (uint64, error) {
	oldest = max(oldest, 1)
	switch {
	case from.Height != 0 && from.Height < oldest:
		return 0, fmt.Errorf("indexFrom is %d but the node serves %s only from block %d (it state-synced the chain "+
			"or prunes it): set indexFrom to %q or a height of at least %d, or give the node the chain's full history",
			from.Height, name, oldest, IndexFromEarliest, oldest)
	case from.Height != 0:
		return from.Height, nil
	case from.Genesis && oldest > 1:
		return 0, fmt.Errorf("indexFrom is %q but the node serves %s only from block %d (it state-synced the chain "+
			"or prunes it): set indexFrom to %q or a height of at least %d, or give the node the chain's full history",
			IndexFromGenesis, name, oldest, IndexFromEarliest, oldest)
	case from.Genesis:
		return 1, nil
	default:
		return oldest, nil
	}
}
