package metricdata

import "github.com/ava-labs/avalanchego/ids"

// The L1 validator fee series (the Metrics API's getMetricsByNodeId,
// getMetricsBySubnetId, getMetricsByValidationId and
// getTotalL1ValidatorMetrics): daily UTC buckets of what the continuous L1
// validator fee (ACP-77) charged the validations' balances during the
// P-chain blocks of the day, in nAVAX.
//
// A validation is charged, while active, the accrued-fee increase of every
// block that advances the chain time; when its balance runs out (platformvm
// deactivates it at the block's advance, or after the block's txs when it
// cannot pay for one more second) the balance it had left is charged too.
// A balance refunded by DisableL1ValidatorTx or a removal
// (SetL1ValidatorWeightTx with weight 0) is not charged. So a validation's
// cumulative fee through a day is what its creating tx and every
// IncreaseL1ValidatorBalanceTx gave it, less the refunds, less its balance
// after the day's last P-chain block.

// L1FeeScope says which validations a series sums.
type L1FeeScope uint8

const (
	L1FeeTotal      L1FeeScope = iota // every L1 validation
	L1FeeSubnet                       // the validations of one subnet
	L1FeeNode                         // the validations of one node, on any subnet
	L1FeeValidation                   // one validation
)

// L1FeeQuery selects a series and the days asked: From and To are any
// Unix seconds of the first and last day (inclusive); the series is
// further limited to the days from the first validation's creation to the
// newest indexed P-chain block.
type L1FeeQuery struct {
	Scope      L1FeeScope
	Subnet     ids.ID     // L1FeeSubnet
	Node       ids.NodeID // L1FeeNode
	Validation ids.ID     // L1FeeValidation
	From, To   int64
}

// L1FeeDay is one day of a series.
type L1FeeDay struct {
	Start int64 // 00:00 UTC of the day, Unix seconds
	// Fees is what the day's P-chain blocks charged, nAVAX.
	Fees uint64
	// Cumulative is what was charged from the validations' creation
	// through the day's last block, nAVAX.
	Cumulative uint64
	// Paying counts the validations charged a fee that day (each one's
	// Fees > 0).
	Paying uint64
}

// L1FeeSeries is the answer to an L1FeeQuery.
type L1FeeSeries struct {
	// Found says the subnet, node or validation is known to the index (a
	// node: it has an L1 validation or has staked; a subnet: the index
	// holds it). Always true for the total.
	Found bool
	// Known says the fee rows cover the series: false when the index's
	// P-chain fee state is unknown, or the store was written before the
	// series existed (a rebuild writes them).
	Known bool
	// Days are dense (a day without blocks is 0, its cumulative carried),
	// newest first.
	Days []L1FeeDay
}
