package xchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/vms/avm/block"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// BlockType is the type name of every linear X-chain block.
const BlockType = "StandardBlock"

// NewSource returns the X-chain block source (a follower.Source): the
// node's index of accepted blocks, decoded. It keeps no state between
// fetches.
func NewSource(client *indexer.Client) (*blockindex.Source[*pdata.Block], error) {
	return NewSourceFrom(blockindex.NewIndexAPI(netinfo.X, client))
}

// NewSourceFrom returns the X-chain block source reading its blocks through
// blocks (the index API, or avm.getBlockByHeight on a node without it:
// blockindex.ByHeight), decoded.
func NewSourceFrom(blocks blockindex.Reader) (*blockindex.Source[*pdata.Block], error) {
	d, err := NewDecoder()
	if err != nil {
		return nil, err
	}
	return blockindex.NewSourceFrom(netinfo.X, blocks, d.DecodeBlock), nil
}

// DecodeBlock decodes one accepted block from the index.
func (d *Decoder) DecodeBlock(c blockindex.Container) (*pdata.Block, error) {
	blk, err := d.parser.ParseBlock(c.Inner)
	if err != nil {
		return nil, fmt.Errorf("parsing avm block: %w", err)
	}
	out, err := d.fromBlock(blk)
	if err != nil {
		return nil, err
	}
	out.ID = c.ID
	if c.Wrapped {
		// The inner block's parent is the inner parent; the index and the
		// Data API chain blocks by their outer (proposervm) IDs.
		out.ParentID = c.ParentID
	}
	out.Size = c.Size
	out.Proposer = c.Proposer
	return out, nil
}

// fromBlock decodes the avm block's own fields and txs.
func (d *Decoder) fromBlock(blk block.Block) (*pdata.Block, error) {
	out := &pdata.Block{
		Chain:     netinfo.X,
		Number:    blk.Height(),
		ID:        blk.ID(),
		ParentID:  blk.Parent(),
		Timestamp: blk.Timestamp().Unix(),
		Type:      BlockType,
		Size:      len(blk.Bytes()),
		Txs:       make([]*pdata.Tx, len(blk.Txs())),
	}
	for i, tx := range blk.Txs() {
		t, err := d.fromTx(tx)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", out.Number, err)
		}
		out.Txs[i] = t
	}
	return out, nil
}
