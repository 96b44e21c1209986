package blockindex

import (
	"context"
	"fmt"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/utils/rpc"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// byHeightConcurrency bounds the getBlockByHeight calls one range runs at
// once: the node serves the plugin and everyone else on the same API.
const byHeightConcurrency = 8

// VMBlocks is what ByHeight reads of a chain's own API (platform.* or avm.*,
// *platformvm.Client and *avm.Client are both one): the last accepted height
// and the VM's block bytes at a height.
type VMBlocks interface {
	GetHeight(ctx context.Context, options ...rpc.Option) (uint64, error)
	GetBlockByHeight(ctx context.Context, height uint64, options ...rpc.Option) ([]byte, error)
}

// ByHeight reads a chain's accepted blocks through its VM's getBlockByHeight,
// for a node started without --index-enabled. The node serves every accepted
// block there, but only the VM's own (inner) block: no proposervm wrapper,
// so no proposer, and the block ID is the VM's block ID (the hash of its
// bytes, what platform.getBlock / avm.getBlock accept), not the ID the
// index API gives the same block. Its containers are never Wrapped.
type ByHeight struct {
	chain netinfo.Chain
	api   VMBlocks
	// slots bounds the calls in flight across every range read at once
	// (the follower's pipeline runs several).
	slots chan struct{}
}

// NewByHeight returns the reader of chain's blocks through api.
func NewByHeight(chain netinfo.Chain, api VMBlocks) *ByHeight {
	return &ByHeight{chain: chain, api: api, slots: make(chan struct{}, byHeightConcurrency)}
}

// Head returns the height of the last accepted block.
func (b *ByHeight) Head(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	h, err := b.api.GetHeight(ctx)
	if err != nil {
		return 0, fmt.Errorf("%s.getHeight: %w", b.vmName(), err)
	}
	return h, nil
}

// Containers returns the blocks of heights from.. (at most max, MaxRange at
// most, none past the last accepted block), at most byHeightConcurrency
// calls at a time across all ranges; the first error fails the range.
func (b *ByHeight) Containers(ctx context.Context, from uint64, max int) ([]Container, error) {
	if from == 0 {
		return nil, fmt.Errorf("%s genesis block is not followed", b.chain)
	}
	head, err := b.Head(ctx)
	if err != nil {
		return nil, err
	}
	if from > head || max <= 0 {
		return nil, nil
	}
	n := int(min(uint64(min(max, MaxRange)), head-from+1))
	out := make([]Container, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		slots    = b.slots
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	for i := range n {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			defer func() {
				if r := recover(); r != nil {
					fail(fmt.Errorf("%s(%d) panicked: %v", b.method(), from+uint64(i), r))
				}
			}()
			c, err := b.block(ctx, from+uint64(i))
			if err != nil {
				fail(err)
				return
			}
			out[i] = c
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *ByHeight) block(ctx context.Context, h uint64) (Container, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	bytes, err := b.api.GetBlockByHeight(ctx, h)
	if err != nil {
		return Container{}, fmt.Errorf("%s(%d): %w", b.method(), h, err)
	}
	// platformvm and avm blocks are identified by the hash of their bytes.
	return Container{ID: ids.ID(hashing.ComputeHash256Array(bytes)), Inner: bytes, Size: len(bytes)}, nil
}

// vmName is the chain's API namespace.
func (b *ByHeight) vmName() string { return pdata.VMAPI(b.chain) }

func (b *ByHeight) method() string { return b.vmName() + ".getBlockByHeight" }
