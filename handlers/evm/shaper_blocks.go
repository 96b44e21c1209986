package evm

import (
	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// Shaping of the block endpoints (reply_types.go: evmBlock).

// evmBlock shapes an indexed block. gasCost is the header's blockGasCost
// (coreth and subnet-evm; "0" when the header has none), feesSpent what
// the block's transactions paid (gas used times effective gas price), and
// baseFee "0" before EIP-1559.
func (v *shaper) evmBlock(b *evmdata.BlockSummary) evmBlock {
	out := evmBlock{
		ChainID:                    v.evmChainID(),
		BlockNumber:                api.FormatUint(b.Number),
		BlockTimestamp:             b.Timestamp,
		BlockTimestampMilliseconds: b.TimestampMs,
		BlockMinDelayExcess:        b.MinDelayExcess,
		BlockHash:                  b.Hash.Hex(),
		TxCount:                    b.TxCount,
		BaseFee:                    api.Decimal(b.BaseFee),
		GasUsed:                    api.FormatUint(b.GasUsed),
		GasLimit:                   api.FormatUint(b.GasLimit),
		GasCost:                    api.Decimal(b.BlockGasCost),
		ParentHash:                 b.ParentHash.Hex(),
		FeesSpent:                  api.Decimal(b.FeesSpent),
	}
	// The index counts transactions from its first block: the chain's
	// cumulative count only when that is genesis and no back-fill is
	// still counting the blocks it added (history.go).
	if v.countsFromGenesis() {
		out.CumulativeTransactions = api.FormatUint(b.CumulativeTxs)
	}
	return out
}

// nativeTransactions shapes a list of transactions as NativeTransactions.
func (v *shaper) nativeTransactions(txs []evmdata.IndexedTx) []nativeTransaction {
	out := make([]nativeTransaction, len(txs))
	for i := range txs {
		out[i] = v.nativeTransaction(&txs[i])
	}
	return out
}
