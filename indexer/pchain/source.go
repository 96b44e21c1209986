// Package pchain reads the P-chain's accepted blocks.
package pchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// NewSource returns the P-chain block source. lastBlockTs is the timestamp
// of the last indexed block: Apricot option blocks carry no time of their
// own and inherit it.
func NewSource(client *indexer.Client, lastBlockTs int64) *blockindex.Source[*chaindata.Summary] {
	p := &parser{lastTs: lastBlockTs}
	return blockindex.NewSource(netinfo.P, client, p.parse)
}

type parser struct{ lastTs int64 }

func (p *parser) parse(c blockindex.Container) (*chaindata.Summary, error) {
	blk, err := block.Parse(block.GenesisCodec, c.Inner)
	if err != nil {
		return nil, fmt.Errorf("parsing platformvm block: %w", err)
	}
	p.lastTs = blockTime(blk, c, p.lastTs)
	return &chaindata.Summary{
		Number:    blk.Height(),
		ID:        c.ID,
		Timestamp: p.lastTs,
		Txs:       len(blk.Txs()),
	}, nil
}

// blockTime is the Banff block time, else the proposervm time, else (an
// Apricot option block) the time of the block before it.
func blockTime(blk block.Block, c blockindex.Container, previous int64) int64 {
	if banff, ok := blk.(block.BanffBlock); ok {
		return banff.Timestamp().Unix()
	}
	if c.Proposer != nil {
		return c.Proposer.Timestamp
	}
	return previous
}
