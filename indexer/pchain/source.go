// Package pchain reads the P-chain's accepted blocks into the primary
// network's domain model (pdata): blocks from the node's index API, txs
// decoded with platformvm's own types, and the effects of proposal txs
// decided by the option block accepted after them.
package pchain

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/upgrade"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pdata"
)

// nodeConcurrency bounds the platform API calls one Fetch runs at once: the
// node serves the plugin and everyone else on the same API.
const nodeConcurrency = 8

// Source implements follower.Source[*pdata.Block] for the P-chain. Fetch is
// stateless: a block's effects depend only on the block, the option after
// it (looked ahead at) and the node's state, never on an earlier Fetch.
type Source struct {
	index      Index
	platform   Platform
	upgrades   upgrade.Config
	retryFirst time.Duration
	// refundOwners, when set, reads the index's record of an L1
	// validation's remaining-balance owner (refund.go).
	refundOwners RefundOwners
}

// NewSource returns the P-chain source reading from the node client reaches,
// with the network's upgrade times (for the post-Durango staker start).
func NewSource(client *nodeapi.Client, upgrades upgrade.Config) (*Source, error) {
	if client == nil {
		return nil, errors.New("P-chain source: no node client")
	}
	return NewSourceFrom(client, blockindex.NewSource[*pdata.Block](netinfo.P, client.BlockIndex(netinfo.P), nil), upgrades)
}

// NewSourceFrom returns the P-chain source reading its blocks through
// blocks (the index API, or platform.getBlockByHeight on a node without
// it: blockindex.ByHeight) and the rest from the node client reaches.
func NewSourceFrom(client *nodeapi.Client, blocks Index, upgrades upgrade.Config) (*Source, error) {
	if client == nil {
		return nil, errors.New("P-chain source: no node client")
	}
	return New(blocks, platformClient{client.Platform}, upgrades), nil
}

// New returns a source over index and platform, with the network's upgrade
// times.
func New(index Index, platform Platform, upgrades upgrade.Config) *Source {
	return &Source{index: index, platform: platform, upgrades: upgrades, retryFirst: retryFirst}
}

// Head returns the height of the last indexed P block.
func (s *Source) Head(ctx context.Context) (uint64, error) {
	return s.index.Head(ctx)
}

// Fetch returns consecutive blocks from height from on, at most max. A
// proposal block whose option is not indexed yet ends the range before it,
// so the range can come back short (or empty) at the tip.
func (s *Source) Fetch(ctx context.Context, from uint64, max int) ([]*pdata.Block, error) {
	containers, err := s.index.Containers(ctx, from, max)
	if err != nil {
		return nil, err
	}
	parsed := make([]parsedBlock, 0, len(containers)+1)
	for i, c := range containers {
		p, err := parseContainer(c)
		if err != nil {
			return nil, err
		}
		if want := from + uint64(i); p.blk.Height() != want {
			return nil, fmt.Errorf("P index position %d holds height %d: the node's index is incomplete "+
				"(was --index-enabled set before the node's first start?)", want-1, p.blk.Height())
		}
		parsed = append(parsed, p)
	}
	n := len(parsed) // the blocks to return; parsed may hold one more, the option after them
	if n > 0 && parsed[n-1].isProposal() {
		option, ok, err := s.lookAhead(ctx, parsed[n-1].blk.Height()+1)
		if err != nil {
			return nil, err
		}
		if ok {
			parsed = append(parsed, option)
		} else {
			n--
		}
	}

	blocks := make([]*pdata.Block, n)
	var rewards []*pdata.Tx
	for i := range n {
		b, err := decodeBlock(parsed[i], &s.upgrades)
		if err != nil {
			return nil, err
		}
		if parsed[i].isProposal() {
			if err := decide(parsed[i], b, parsed[i+1].blk); err != nil {
				return nil, fmt.Errorf("deciding proposal block %d (%s): %w", b.Number, b.ID, err)
			}
			if tx := b.Txs[len(b.Txs)-1]; tx.Type == "RewardValidatorTx" {
				rewards = append(rewards, tx)
			}
		}
		for _, tx := range b.Txs {
			if refundsL1Balance(tx) {
				// Rare (a few per L1 validator's life): resolved one by one.
				if err := s.resolveRefund(ctx, tx); err != nil {
					return nil, err
				}
			}
		}
		blocks[i] = b
	}
	if err := s.resolveRewards(ctx, rewards); err != nil {
		return nil, err
	}
	return blocks, nil
}

// lookAhead reads the block at height h (the option after a proposal
// block); ok is false when the node has not indexed it yet.
func (s *Source) lookAhead(ctx context.Context, h uint64) (parsedBlock, bool, error) {
	next, err := s.index.Containers(ctx, h, 1)
	if err != nil || len(next) == 0 {
		return parsedBlock{}, false, err
	}
	p, err := parseContainer(next[0])
	if err != nil {
		return parsedBlock{}, false, err
	}
	if p.blk.Height() != h {
		return parsedBlock{}, false, fmt.Errorf("P index position %d holds height %d", h-1, p.blk.Height())
	}
	return p, true, nil
}

// resolveRewards resolves the RewardValidatorTxs of one range, at most
// nodeConcurrency at once; the first error cancels the rest.
func (s *Source) resolveRewards(ctx context.Context, rewards []*pdata.Tx) error {
	if len(rewards) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		slots    = make(chan struct{}, nodeConcurrency)
	)
	for _, tx := range rewards {
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
			if err := s.resolveReward(ctx, tx); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
