package vm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"time"

	"github.com/ava-labs/avalanchego/database"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/consensus/snowman"
)

// avadata's chain exists only so the node hosts the plugin: it has a genesis
// block and never builds another, so consensus has nothing to do.

var errNoBlocks = errors.New("avadata never builds blocks")

type genesisBlock struct {
	id    ids.ID
	bytes []byte
}

func newGenesisBlock(genesisBytes []byte) *genesisBlock {
	return &genesisBlock{id: ids.ID(sha256.Sum256(genesisBytes)), bytes: genesisBytes}
}

func (b *genesisBlock) ID() ids.ID                               { return b.id }
func (*genesisBlock) Accept(context.Context) error               { return nil }
func (*genesisBlock) Reject(context.Context) error               { return errNoBlocks }
func (*genesisBlock) Parent() ids.ID                             { return ids.Empty }
func (*genesisBlock) Verify(context.Context) error               { return nil }
func (b *genesisBlock) Bytes() []byte                            { return b.bytes }
func (*genesisBlock) Height() uint64                             { return 0 }
func (*genesisBlock) Timestamp() time.Time                       { return time.Unix(0, 0) }
func (vm *VM) BuildBlock(context.Context) (snowman.Block, error) { return nil, errNoBlocks }
func (*VM) SetPreference(context.Context, ids.ID) error          { return nil }

func (vm *VM) LastAccepted(context.Context) (ids.ID, error) { return vm.genesis.id, nil }

func (vm *VM) GetBlock(_ context.Context, id ids.ID) (snowman.Block, error) {
	if id != vm.genesis.id {
		return nil, database.ErrNotFound
	}
	return vm.genesis, nil
}

func (vm *VM) ParseBlock(_ context.Context, b []byte) (snowman.Block, error) {
	if !bytes.Equal(b, vm.genesis.bytes) {
		return nil, errNoBlocks
	}
	return vm.genesis, nil
}

func (vm *VM) GetBlockIDAtHeight(_ context.Context, height uint64) (ids.ID, error) {
	if height != 0 {
		return ids.Empty, database.ErrNotFound
	}
	return vm.genesis.id, nil
}
