// Package blockindex reads a chain's accepted blocks from the node's index
// API (/ext/index/<chain>/block): the bytes exactly as consensus accepted
// them, proposervm wrapper included. The P- and X-chain followers use it,
// each with its own parser of the inner block.
package blockindex

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/indexer"
	proposerblock "github.com/ava-labs/avalanchego/vms/proposervm/block"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// requestTimeout bounds one index call: avalanchego's index client uses
// http.DefaultClient, which has no timeout, so a wedged node would otherwise
// hang the follower.
const requestTimeout = 30 * time.Second

// Container is one accepted block as the index returns it, unwrapped.
type Container struct {
	ID    ids.ID // the accepted (outer) block ID
	Inner []byte // the VM's own block bytes
	// ProposerTime is the proposervm timestamp; zero for option blocks and
	// blocks from before the proposervm fork.
	ProposerTime time.Time
}

// ParseFunc turns a container into a block summary.
type ParseFunc func(Container) (*chaindata.Summary, error)

// Source implements follower.Source over the index API.
type Source struct {
	chain  netinfo.Chain
	client *indexer.Client
	parse  ParseFunc
}

// NewSource returns a source of chain's blocks parsed by parse.
func NewSource(chain netinfo.Chain, client *indexer.Client, parse ParseFunc) *Source {
	return &Source{chain: chain, client: client, parse: parse}
}

// The genesis block is never indexed, so index i holds height i+1.

// Head returns the height of the last indexed block.
func (s *Source) Head(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	_, index, err := s.client.GetLastAccepted(ctx)
	if err != nil {
		if strings.Contains(err.Error(), "no containers have been accepted") {
			return 0, nil
		}
		return 0, fmt.Errorf("index.getLastAccepted: %w", err)
	}
	return index + 1, nil
}

// Fetch returns blocks from height from on, at most max (1024 at most).
func (s *Source) Fetch(ctx context.Context, from uint64, max int) ([]*chaindata.Summary, error) {
	if from == 0 {
		return nil, fmt.Errorf("%s genesis block is not in the index", s.chain)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	containers, err := s.client.GetContainerRange(ctx, from-1, max)
	if err != nil {
		return nil, fmt.Errorf("index.getContainerRange(%d, %d): %w", from-1, max, err)
	}
	out := make([]*chaindata.Summary, 0, len(containers))
	for i, c := range containers {
		summary, err := s.parse(unwrap(c))
		if err != nil {
			return nil, fmt.Errorf("parsing %s container %s: %w", s.chain, c.ID, err)
		}
		if want := from + uint64(i); summary.Number != want {
			return nil, fmt.Errorf("%s index position %d holds height %d: the node's index is incomplete "+
				"(was --index-enabled set before the node's first start?)", s.chain, want-1, summary.Number)
		}
		out = append(out, summary)
	}
	return out, nil
}

// unwrap strips the proposervm wrapper; bytes that do not parse as one are
// a pre-fork block and are the inner block themselves.
func unwrap(c indexer.Container) Container {
	out := Container{ID: c.ID, Inner: c.Bytes}
	wrapped, err := proposerblock.ParseWithoutVerification(c.Bytes)
	if err != nil {
		return out
	}
	out.Inner = wrapped.Block()
	if signed, ok := wrapped.(proposerblock.SignedBlock); ok {
		out.ProposerTime = signed.Timestamp()
	}
	return out
}
