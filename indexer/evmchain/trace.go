package evmchain

import (
	"context"
	"fmt"
	"sync"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/nodeapi"
)

// blockTrace is the callTracer's answer for one block, if any.
type blockTrace struct {
	txs    []nodeapi.EVMTxTrace
	traced bool
}

// traces returns one blockTrace per block of data. Blocks without txs are
// not sent to the node: there is nothing to trace (and the genesis block
// cannot be traced), so they count as traced whenever tracing is on.
func (s *Source) traces(ctx context.Context, data []nodeapi.EVMBlockData) ([]blockTrace, error) {
	out := make([]blockTrace, len(data))
	if !s.trace {
		return out, nil
	}
	var heights []uint64
	var at []int // position in data of each traced height
	for i := range data {
		if len(data[i].Block.Transactions) == 0 {
			out[i].traced = true
			continue
		}
		heights = append(heights, uint64(data[i].Block.Number))
		at = append(at, i)
	}
	results, err := s.client.TraceHeights(ctx, heights)
	if err != nil {
		return nil, fmt.Errorf("tracing blocks: %w", err)
	}
	if len(results) < len(heights) {
		// The node served these blocks a moment ago; accepted blocks stay.
		return nil, fmt.Errorf("%s: tracing block %d: the node does not have it", s.client.Chain(), heights[len(results)])
	}
	for k, r := range results {
		t, err := s.notes.use(r)
		if err != nil {
			return nil, err
		}
		out[at[k]] = t
	}
	return out, nil
}

// traceNotes turns a block's trace answer into a blockTrace, and logs the
// first time each reason to go without traces comes up.
type traceNotes struct {
	log        logging.Logger
	chain      string
	noDebugAPI sync.Once
	stateGone  sync.Once
}

func newTraceNotes(log logging.Logger, chain string) *traceNotes {
	return &traceNotes{log: log, chain: chain}
}

// use accepts a trace, or a failure that means the node cannot trace the
// block (debug API off, state pruned); other failures are errors.
func (n *traceNotes) use(r nodeapi.EVMBlockTraces) (blockTrace, error) {
	switch {
	case r.Err == nil:
		return blockTrace{txs: r.Txs, traced: true}, nil
	case nodeapi.IsMethodNotFound(r.Err):
		n.noDebugAPI.Do(func() {
			n.log.Warn("the node does not serve debug_traceBlockByNumber: indexing without internal transactions "+
				"and contracts created by contracts (add \"debug-tracer\" to the chain's eth-apis to get them)",
				zap.String("chain", n.chain), zap.Uint64("height", r.Number), zap.Error(r.Err))
		})
	case nodeapi.IsStateUnavailable(r.Err):
		n.stateGone.Do(func() {
			n.log.Warn("the node cannot trace old blocks whose state it pruned: indexing them without internal "+
				"transactions and contracts created by contracts (an archive node can trace them)",
				zap.String("chain", n.chain), zap.Uint64("height", r.Number), zap.Error(r.Err))
		})
	default:
		return blockTrace{}, r.Err
	}
	return blockTrace{}, nil
}
