package metricdata

// ChainTotals are an EVM chain's running totals after the last block the
// metric rows count (the store's 0x9E row): the values every cumulative*
// metric carries on from.
type ChainTotals struct {
	// LastHeight and LastBlockTs are the last block counted (0: none yet).
	LastHeight  uint64
	LastBlockTs int64

	Txs       uint64 // transactions, reverted ones included
	Addresses uint64 // distinct active addresses ever (Role Active)
	Contracts uint64 // contracts created by successful transactions
	Deployers uint64 // distinct deployers ever (Role Deployer)
}
