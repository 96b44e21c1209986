package metricdata

import (
	"math/big"

	"github.com/ava-labs/avalanchego/ids"
)

// StakingFigures are what platform.getCurrentValidators would answer about
// one subnet's current validator set: how many validators and delegators
// and their summed weights (nAVAX for the primary network, the subnet's own
// units for others; an L1's validators with their L1 weights).
type StakingFigures struct {
	ValidatorCount  uint64
	ValidatorWeight *big.Int // never nil in figures the store returns
	DelegatorCount  uint64
	DelegatorWeight *big.Int
}

// StakingDay is one point of a staking series: the figures after the
// P-chain's last block of the UTC day starting at Day (Unix seconds).
type StakingDay struct {
	Day     int64
	Figures StakingFigures
}

// StakingSeries is what the store holds of one subnet's daily staking
// figures, and the days of one range of it.
type StakingSeries struct {
	// SubnetKnown says the subnet exists (the primary network always does
	// once the P-chain genesis is indexed).
	SubnetKnown bool
	// CountedFrom is the P-chain height the figures are counted from: 0
	// from genesis (exact); above 0 the store was written by a version that
	// kept no staking figures before that block, and they are not exact.
	CountedFrom uint64
	// HasDays says the subnet has had a validator: FirstDay is the day of
	// its first change, LastDay the day of the newest indexed P-chain block.
	HasDays           bool
	FirstDay, LastDay int64
	// Days are the days asked, newest first, each carrying the figures of
	// the newest change at or before it.
	Days []StakingDay
}

// StakingMetric names one figure of the staking series (the SDK's
// NetworkMetric).
type StakingMetric string

const (
	DelegatorCount  StakingMetric = "delegatorCount"
	DelegatorWeight StakingMetric = "delegatorWeight"
	ValidatorCount  StakingMetric = "validatorCount"
	ValidatorWeight StakingMetric = "validatorWeight"
)

// StakingMetrics are the staking metrics, in the SDK's order.
func StakingMetrics() []StakingMetric {
	return []StakingMetric{DelegatorCount, DelegatorWeight, ValidatorCount, ValidatorWeight}
}

// Figure returns the value of metric m; ok is false for an unknown metric.
func (f StakingFigures) Figure(m StakingMetric) (v *big.Int, ok bool) {
	switch m {
	case ValidatorCount:
		return new(big.Int).SetUint64(f.ValidatorCount), true
	case ValidatorWeight:
		return orZero(f.ValidatorWeight), true
	case DelegatorCount:
		return new(big.Int).SetUint64(f.DelegatorCount), true
	case DelegatorWeight:
		return orZero(f.DelegatorWeight), true
	}
	return nil, false
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}

// ValidatorRewardAddresses is one validation of a subnet's validator that
// getValidatorsByDateRange lists: its staking tx, its start (the sort key)
// and the addresses that receive its validation rewards.
type ValidatorRewardAddresses struct {
	TxID      ids.ID
	Start     int64
	Addresses []ids.ShortID
}
