package evmchain

import (
	"errors"
	"fmt"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// ParseBlock turns a block with its receipts into the domain block. When
// traced is true, traces holds the block's callTracer results, one per tx
// in order, and the txs get their internal transactions and the contracts
// their contracts created; otherwise traces is ignored and Block.Traced is
// false. The input must be the node's answers for one block: mismatched
// receipts or traces are an error, never silently paired.
func ParseBlock(data nodeapi.EVMBlockData, traces []nodeapi.EVMTxTrace, traced bool) (*evmdata.Block, error) {
	b := data.Block
	if b == nil {
		return nil, errors.New("no block")
	}
	if err := checkReceipts(b, data.Receipts); err != nil {
		return nil, fmt.Errorf("block %d: %w", b.Number, err)
	}
	if traced {
		if err := checkTraces(b, traces); err != nil {
			return nil, fmt.Errorf("block %d: %w", b.Number, err)
		}
	}
	out := blockHeader(b)
	out.Traced = traced
	out.Txs = make([]evmdata.Tx, len(b.Transactions))
	for i := range b.Transactions {
		tx, err := parseTx(i, &b.Transactions[i], &data.Receipts[i])
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", b.Number, err)
		}
		addDerived(&tx, data.Receipts[i].Logs)
		tx.Logs = data.Receipts[i].Logs
		if traced {
			addTrace(&tx, traces[i].Result)
		}
		out.Txs[i] = tx
	}
	return out, nil
}

// blockHeader copies the block's own fields.
func blockHeader(b *nodeapi.EVMBlock) *evmdata.Block {
	return &evmdata.Block{
		Number:       uint64(b.Number),
		Hash:         b.Hash,
		ParentHash:   b.ParentHash,
		Timestamp:    uint64(b.Timestamp),
		BaseFee:      bigOrNil(b.BaseFee),
		GasUsed:      uint64(b.GasUsed),
		GasLimit:     uint64(b.GasLimit),
		Miner:        b.Miner,
		Size:         uint64(b.Size),
		ReceiptsRoot: b.ReceiptsRoot,
		// Avalanche header fields (nil when absent).
		BlockGasCost:   bigOrNil(b.BlockGasCost),
		TimestampMs:    (*uint64)(b.TimestampMs),
		MinDelayExcess: (*uint64)(b.MinDelayExcess),
	}
}

// addDerived adds what the receipt implies: token transfers (a reverted tx
// has no logs; only a successful one is read, whatever the node sends) and
// a top-level deployment.
func addDerived(tx *evmdata.Tx, logs []nodeapi.EVMLog) {
	if !tx.Succeeded() {
		return
	}
	tx.Transfers = tokenTransfers(logs)
	if c, ok := topLevelCreation(tx); ok {
		tx.Creations = append(tx.Creations, c)
	}
}

// addTrace adds the internal transactions and the contracts deployed by
// contracts, after any top-level deployment.
func addTrace(tx *evmdata.Tx, root *nodeapi.EVMCallFrame) {
	frames := flattenFrames(root)
	tx.Internal = internalTxs(frames)
	tx.Creations = append(tx.Creations, factoryCreations(frames, tx.From)...)
}

// checkTraces fails unless traces are the block's txs' traces, in order,
// each with a result.
func checkTraces(b *nodeapi.EVMBlock, traces []nodeapi.EVMTxTrace) error {
	if len(traces) != len(b.Transactions) {
		return fmt.Errorf("%d traces for %d txs", len(traces), len(b.Transactions))
	}
	for i := range traces {
		t, tx := &traces[i], &b.Transactions[i]
		switch {
		case t.TxHash != tx.Hash:
			return fmt.Errorf("trace %d is of tx %s, want %s", i, t.TxHash, tx.Hash)
		case t.Error != "":
			return fmt.Errorf("tracing tx %s: %s", tx.Hash, t.Error)
		case t.Result == nil:
			return fmt.Errorf("trace of tx %s has no result", tx.Hash)
		}
	}
	return nil
}
