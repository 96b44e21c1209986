package primary

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs/executor"
)

// The node's current primary-network validators (platform.getCurrentValidators
// without node IDs: every validator, no delegators), for the listings that
// filter or sort by live state (listValidators' uptime and delegation
// capacity) and for getNetworkDetails' totals.

// liveSetTTL is how long one read of the node's current validators is
// reused: with thousands of validators the node computes an uptime for
// each, and a few seconds' staleness is below what a client can observe
// between two pages anyway.
const liveSetTTL = 5 * time.Second

var errNoPlatform = errors.New("this node gives avadata no reader of the P-chain's state")

// liveSetCache keeps the node's current validators by staking tx.
type liveSetCache struct {
	// mu is held while the node is read, so that concurrent requests wait
	// for one read instead of each starting its own.
	mu   sync.Mutex
	at   time.Time
	vals []platformvm.ClientPermissionlessValidator
	byTx map[ids.ID]platformvm.ClientPermissionlessValidator
}

// get returns the current validators by staking tx.
func (c *liveSetCache) get(ctx context.Context, s *server) (map[ids.ID]platformvm.ClientPermissionlessValidator, error) {
	if _, err := c.list(ctx, s); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byTx, nil
}

// list returns the current validators as the node listed them.
func (c *liveSetCache) list(ctx context.Context, s *server) ([]platformvm.ClientPermissionlessValidator, error) {
	if s.platform == nil {
		return nil, errNoPlatform
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := s.Now()
	if !c.at.IsZero() && now.Sub(c.at) < liveSetTTL && now.Sub(c.at) >= 0 {
		return c.vals, nil
	}
	vals, err := s.platform.CurrentValidators(ctx, nil)
	if err != nil {
		return nil, err
	}
	byTx := make(map[ids.ID]platformvm.ClientPermissionlessValidator, len(vals))
	for _, v := range vals {
		byTx[v.TxID] = v
	}
	c.vals, c.byTx, c.at = vals, byTx, now
	return vals, nil
}

// delegationCapacity is what a current primary-network validator can still
// take in delegations: platformvm caps a validator's total weight (its own
// stake plus its delegations) at MaxValidatorWeightFactor times its own
// stake and at the network's maximum validator stake (genesis staking
// config of the network's ID), less what is delegated now. The chain checks
// the cap at every moment of a new delegation's period; with the current
// delegations all running to their ends, the cap less their sum is what is
// left now.
func delegationCapacity(networkID uint32, v platformvm.ClientPermissionlessValidator) uint64 {
	limit := genesis.GetStakingConfig(networkID).MaxValidatorStake
	if v.Weight <= limit/executor.MaxValidatorWeightFactor {
		limit = v.Weight * executor.MaxValidatorWeightFactor
	}
	taken := v.Weight
	if v.DelegatorWeight != nil {
		taken += *v.DelegatorWeight
	}
	if taken >= limit {
		return 0
	}
	return limit - taken
}
