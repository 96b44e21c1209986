package aggregator

import (
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/utils/constants"
)

// healthyStakePercent is the connected share of the primary network's
// weight below which the aggregator reports itself unhealthy: below it, a
// C-chain or P-chain message cannot reach the default 67% quorum.
const healthyStakePercent = 67

// Health is the aggregator's part of the plugin's health check.
type Health struct {
	NodeID string `json:"nodeID"`
	// Peers is how many peers are connected.
	Peers int `json:"peers"`
	// ConnectedStake is, per subnet whose validators are kept connected,
	// the connected weight at the last refresh.
	ConnectedStake map[string]StakeHealth `json:"connectedStake"`
	// Cached is how many messages have cached signatures.
	Cached int    `json:"cachedMessages"`
	Error  string `json:"error,omitempty"`
}

// StakeHealth is one subnet's connectivity.
type StakeHealth struct {
	ConnectedWeight uint64  `json:"connectedWeight"`
	TotalWeight     uint64  `json:"totalWeight"`
	Percent         float64 `json:"percent"`
}

// Health reports connectivity; the error says what is wrong, once the
// aggregator has had startupGrace to connect. A network without validators
// (sybil protection off) is healthy: there is nobody to connect to.
func (a *Aggregator) Health() (Health, error) {
	stakes, keepErr := a.keeper.status()
	h := Health{
		NodeID:         a.identity.NodeID.String(),
		Peers:          a.net.peerCount(),
		ConnectedStake: map[string]StakeHealth{},
		Cached:         a.cache.len(),
	}
	for subnetID, s := range stakes {
		sh := StakeHealth{ConnectedWeight: s.Connected, TotalWeight: s.Total}
		if s.Total > 0 {
			sh.Percent = 100 * float64(s.Connected) / float64(s.Total)
		}
		h.ConnectedStake[subnetID.String()] = sh
	}
	a.mu.Lock()
	running := a.running
	a.mu.Unlock()
	var problem error
	primary := stakes[constants.PrimaryNetworkID]
	switch {
	case !running && time.Since(a.createdAt) > startupGrace:
		problem = fmt.Errorf("signature aggregator %s is not running", a.identity.NodeID)
	case time.Since(a.createdAt) < startupGrace:
	case keepErr != nil:
		problem = fmt.Errorf("signature aggregator %s cannot keep its validator connections: %w", a.identity.NodeID, keepErr)
	case primary.Total > 0 && primary.Connected < weightFor(primary.Total, healthyStakePercent):
		problem = fmt.Errorf("signature aggregator %s is connected to %s of the primary network's weight (%d of %d), less than %d%%",
			a.identity.NodeID, percentOf(primary.Connected, primary.Total), primary.Connected, primary.Total, healthyStakePercent)
	}
	if problem != nil {
		h.Error = problem.Error()
	}
	return h, problem
}
