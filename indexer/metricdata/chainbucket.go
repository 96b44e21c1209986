package metricdata

import "math/big"

// Rate is a count over a number of seconds (a block's transactions or gas
// over the time since the block before it), kept as the two integers so a
// maximum is compared and reported exactly.
type Rate struct {
	Count   uint64
	Seconds uint64
}

// Greater reports whether r is a higher rate than o (a zero-second rate is
// never stored).
func (r Rate) Greater(o Rate) bool {
	if o.Seconds == 0 {
		return r.Seconds != 0
	}
	if r.Seconds == 0 {
		return false
	}
	// r.Count/r.Seconds > o.Count/o.Seconds without division.
	a := new(big.Int).Mul(new(big.Int).SetUint64(r.Count), new(big.Int).SetUint64(o.Seconds))
	b := new(big.Int).Mul(new(big.Int).SetUint64(o.Count), new(big.Int).SetUint64(r.Seconds))
	return a.Cmp(b) > 0
}

// ChainBucket is one EVM chain's activity over one time bucket: the blocks
// whose timestamp falls in [Start, Granularity.Next(Start)). The store keeps
// one per granularity and bucket holding at least one block, written in the
// blocks' own commit; every figure of a ChainMetric is read from it alone.
type ChainBucket struct {
	Granularity Granularity
	Start       int64 // Unix seconds

	Blocks  uint64
	Txs     uint64 // transactions, reverted ones included
	GasUsed uint64 // Σ receipt gasUsed
	// FeesPaid is Σ receipt gasUsed × effectiveGasPrice, in wei.
	FeesPaid *big.Int
	// GasPriceSum is Σ effectiveGasPrice over the transactions, in wei:
	// avgGasPrice is GasPriceSum / Txs.
	GasPriceSum *big.Int
	// MaxGasPrice is the highest effectiveGasPrice of a transaction, in wei.
	MaxGasPrice *big.Int

	FirstBlockTs int64 // timestamp of the bucket's first block
	LastBlockTs  int64 // timestamp of the bucket's last block
	// PrevBlockTs is the timestamp of the block before the bucket's first
	// one (FirstBlockTs when none is indexed): avgTps is
	// Txs / max(1, LastBlockTs - PrevBlockTs).
	PrevBlockTs int64
	// MaxTps and MaxGps are the highest rate of one block: its transactions
	// (gas) over the seconds since the block before it; a block sharing its
	// predecessor's second counts over one second.
	MaxTps Rate
	MaxGps Rate

	// Distinct addresses of each role active in the bucket.
	ActiveAddresses uint64
	ActiveSenders   uint64
	Deployers       uint64
	// Contracts created in the bucket by successful transactions, factory
	// (contract-made) ones included.
	Contracts uint64

	// Running totals from genesis at the bucket's last block.
	CumulativeTxs       uint64
	CumulativeAddresses uint64
	CumulativeContracts uint64
	CumulativeDeployers uint64
}
