package replies

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// waitPoll is how often WaitCaughtUp asks again.
const waitPoll = 500 * time.Millisecond

// followerStatus is what WaitCaughtUp reads of each chain in /v1/status.
type followerStatus struct {
	Chain         string `json:"chain"`
	IndexedHeight uint64 `json:"indexedHeight"`
	NodeHeight    uint64 `json:"nodeHeight"`
	Lag           uint64 `json:"lag"`
	CaughtUp      bool   `json:"caughtUp"`
	Running       bool   `json:"running"`
	Paused        bool   `json:"paused"`
	LastError     string `json:"lastError"`
}

func (s followerStatus) done() bool { return s.Running && !s.Paused && s.CaughtUp && s.Lag == 0 }

// WaitCaughtUp waits, for at most timeout, until the replies can only
// depend on the data:
//   - avadata's /v1/status shows every follower running and caught up with
//     the node: replies taken while a follower catches up (after a node
//     start) depend on how far it got;
//   - the P-chain's proposed height has reached its height. The signature
//     aggregator reads validator sets at the proposed height, which trails
//     the P-chain's height until its last blocks have left the node's
//     window of recently accepted blocks (avalanchego's
//     validators.RecentlyAcceptedWindowTTL), and its replies name that
//     height: right after the seed they name an older height than any run
//     after a restart would, since a restart empties the window.
func WaitCaughtUp(ctx context.Context, c *Client, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last := "no status yet"
	for {
		var status struct {
			Chains []followerStatus `json:"chains"`
		}
		if err := c.apiGet(ctx, "/v1/status", &status); err != nil {
			last = err.Error()
		} else if pending := notCaughtUp(status.Chains); pending != "" {
			last = pending
		} else if pending, err := proposedHeightBehind(ctx, c); err != nil {
			last = err.Error()
		} else if pending != "" {
			last = pending
		} else {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting %s for avadata's followers to catch up (%s): %w", timeout, last, ctx.Err())
		case <-time.After(waitPoll):
		}
	}
}

// notCaughtUp describes the first follower that is not done, "" when all
// are (and there is at least one).
func notCaughtUp(chains []followerStatus) string {
	if len(chains) == 0 {
		return "no follower listed"
	}
	for _, s := range chains {
		if !s.done() {
			return fmt.Sprintf("follower %s: indexed %d of %d, caughtUp %t, running %t, paused %t, lastError %q",
				s.Chain, s.IndexedHeight, s.NodeHeight, s.CaughtUp, s.Running, s.Paused, s.LastError)
		}
	}
	return ""
}

// proposedHeightBehind describes how far the P-chain's proposed height
// trails its height, "" when it does not.
func proposedHeightBehind(ctx context.Context, c *Client) (string, error) {
	var current, proposed struct {
		Height json.Number `json:"height"`
	}
	if err := c.nodeCall(ctx, "/ext/bc/P", "platform.getHeight", nil, &current); err != nil {
		return "", err
	}
	if err := c.nodeCall(ctx, "/ext/bc/P", "platform.getProposedHeight", nil, &proposed); err != nil {
		return "", err
	}
	if current.Height != proposed.Height {
		return fmt.Sprintf("the P-chain's proposed height %s trails its height %s", proposed.Height, current.Height), nil
	}
	return "", nil
}
