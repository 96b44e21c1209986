// Package xchain reads the X-chain's accepted (post-Cortina, linear) blocks.
package xchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/vms/avm/block"
	"github.com/ava-labs/avalanchego/vms/avm/fxs"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/propertyfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// NewParser returns the X-chain block parser. The fx order fixes the fx
// indices and must match the X-chain's (secp256k1, nft, property).
func NewParser() (block.Parser, error) {
	return block.NewParser([]fxs.Fx{&secp256k1fx.Fx{}, &nftfx.Fx{}, &propertyfx.Fx{}})
}

// NewSource returns the X-chain block source.
func NewSource(client *indexer.Client) (*blockindex.Source[*chaindata.Summary], error) {
	parser, err := NewParser()
	if err != nil {
		return nil, fmt.Errorf("creating X-chain parser: %w", err)
	}
	parse := func(c blockindex.Container) (*chaindata.Summary, error) {
		blk, err := parser.ParseBlock(c.Inner)
		if err != nil {
			return nil, fmt.Errorf("parsing avm block: %w", err)
		}
		return &chaindata.Summary{
			Number:    blk.Height(),
			ID:        c.ID,
			Timestamp: blk.Timestamp().Unix(),
			Txs:       len(blk.Txs()),
		}, nil
	}
	return blockindex.NewSource(netinfo.X, client, parse), nil
}
