// Package cchain reads the C-chain's accepted blocks over its Ethereum
// JSON-RPC, the same path every EVM chain's data will take.
package cchain

import (
	"context"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/store"
)

// Source implements follower.Source for the C-chain.
type Source struct{ client *nodeapi.Client }

// NewSource returns the C-chain block source.
func NewSource(client *nodeapi.Client) *Source { return &Source{client: client} }

func (*Source) Chain() netinfo.Chain { return netinfo.C }

func (s *Source) Head(ctx context.Context) (uint64, error) { return s.client.EthBlockNumber(ctx) }

// Fetch reads blocks in one JSON-RPC batch.
func (s *Source) Fetch(ctx context.Context, from uint64, max int) ([]store.BlockSummary, error) {
	blocks, err := s.client.EthBlocks(ctx, from, max)
	if err != nil {
		return nil, err
	}
	out := make([]store.BlockSummary, len(blocks))
	for i, b := range blocks {
		out[i] = store.BlockSummary{
			Height:    uint64(b.Number),
			ID:        b.Hash,
			Timestamp: int64(b.Timestamp),
			TxCount:   uint32(len(b.Transactions)),
		}
	}
	return out, nil
}
