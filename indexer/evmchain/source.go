// Package evmchain reads one EVM chain's accepted blocks from the node (the
// C-chain or a subnet-evm chain, over <node>/ext/bc/<chain>/rpc) and turns
// them into evmdata blocks: transactions with their receipts, token
// transfers from logs, and internal transactions and contract creations
// from the node's callTracer.
package evmchain

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/indexer/catomic"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// Options tunes a Source. Start from DefaultOptions: the zero value has
// tracing off.
type Options struct {
	// Trace asks the node's callTracer for internal transactions and the
	// contracts that contracts create.
	Trace bool
	// Log receives the notice, once per Source, that the node cannot trace.
	// Nil discards it.
	Log logging.Logger
	// Atomic, set for the C-chain only, decodes each block's atomic txs
	// from its blockExtraData into evmdata.Block.Atomic.
	Atomic *catomic.Rules
}

// DefaultOptions traces, and logs nothing.
func DefaultOptions() Options { return Options{Trace: true} }

// Source reads one EVM chain. It keeps no state between calls (beyond
// remembering what it already logged), so Fetch may run concurrently for
// different ranges and be retried freely.
type Source struct {
	client *nodeapi.EVMClient
	trace  bool
	atomic *catomic.Rules
	notes  *traceNotes
}

// NewSource returns a source reading the chain client was dialed to.
func NewSource(client *nodeapi.EVMClient, opts Options) *Source {
	log := opts.Log
	if log == nil {
		log = logging.NoLog{}
	}
	return &Source{
		client: client,
		trace:  opts.Trace,
		atomic: opts.Atomic,
		notes:  newTraceNotes(log, client.Chain()),
	}
}

// Head returns the height of the chain's last accepted block.
func (s *Source) Head(ctx context.Context) (uint64, error) { return s.client.BlockNumber(ctx) }

// Fetch returns consecutive blocks starting at from, at most limit of them;
// fewer (never with a gap) when the node has fewer. A block the node cannot
// trace comes with Traced false; any other failure fails the Fetch.
func (s *Source) Fetch(ctx context.Context, from uint64, limit int) ([]*evmdata.Block, error) {
	data, err := s.client.Blocks(ctx, from, limit)
	if err != nil {
		return nil, fmt.Errorf("fetching blocks from %d: %w", from, err)
	}
	traces, err := s.traces(ctx, data)
	if err != nil {
		return nil, err
	}
	out := make([]*evmdata.Block, len(data))
	for i := range data {
		out[i], err = ParseBlock(data[i], traces[i].txs, traces[i].traced)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.client.Chain(), err) // err names the block
		}
		if s.atomic != nil {
			if out[i].Atomic, err = s.atomic.BlockTxs(data[i].Block.BlockExtraData, out[i].Timestamp); err != nil {
				return nil, fmt.Errorf("%s block %d: %w", s.client.Chain(), out[i].Number, err)
			}
		}
	}
	return out, nil
}

// Earliest returns the lowest height from which the node serves every
// block, with its receipts, up to its head: 1 on a node with the chain's
// whole history. What a node serves is a suffix of the chain (it state-
// synced to a height, or prunes below one), but for the receipt-less empty
// blocks a state-synced node holds under its summary block:
// nodeapi.EVMClient.EarliestServed searches, then checks above.
func (s *Source) Earliest(ctx context.Context) (uint64, error) {
	head, err := s.Head(ctx)
	if err != nil {
		return 0, err
	}
	return s.client.EarliestServed(ctx, head)
}
