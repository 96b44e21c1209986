// Package blockindex reads a chain's accepted blocks from the node's index
// API (/ext/index/<chain>/block): the bytes exactly as consensus accepted
// them, proposervm wrapper included; or, on a node without the index API,
// from the VM's getBlockByHeight (ByHeight: the inner block only). The P-
// and X-chain followers use it, each with its own parser of the inner
// block.
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
	"github.com/avadata/avadata/indexer/pdata"
)

// requestTimeout bounds one index call: avalanchego's index client uses
// http.DefaultClient, which has no timeout, so a wedged node would otherwise
// hang the follower.
const requestTimeout = 30 * time.Second

// MaxRange is the most containers one index call returns.
const MaxRange = 1024

// Container is one accepted block as the index returns it, unwrapped.
type Container struct {
	ID       ids.ID // the accepted (outer) block ID
	ParentID ids.ID // the outer parent ID (zero before the proposervm fork: see the inner block)
	Inner    []byte // the VM's own block bytes
	Size     int    // bytes of the accepted (outer) block
	// Proposer is the proposervm wrapper's header; nil for option blocks
	// and blocks from before the proposervm fork.
	Proposer *pdata.Proposer
	// Wrapped says the container is a proposervm block (signed or option).
	Wrapped bool
}

// ParseFunc turns a container into a domain block.
type ParseFunc[B chaindata.Block] func(Container) (B, error)

// Reader reads a chain's accepted blocks as containers: the index API
// (IndexAPI) or, on a node without it, the VM's getBlockByHeight (ByHeight).
type Reader interface {
	// Head is the height of the last accepted block (0: only genesis).
	Head(ctx context.Context) (uint64, error)
	// Containers returns the containers of heights from.. (at most max);
	// none when from is past the last accepted block.
	Containers(ctx context.Context, from uint64, max int) ([]Container, error)
}

// Source implements follower.Source over a Reader (the index API unless
// NewSourceFrom says otherwise).
type Source[B chaindata.Block] struct {
	chain  netinfo.Chain
	reader Reader
	parse  ParseFunc[B]
}

// NewSource returns a source of chain's blocks from the index API, parsed
// by parse.
func NewSource[B chaindata.Block](chain netinfo.Chain, client *indexer.Client, parse ParseFunc[B]) *Source[B] {
	return NewSourceFrom(chain, Reader(NewIndexAPI(chain, client)), parse)
}

// NewSourceFrom returns a source of chain's blocks read by reader, parsed by
// parse.
func NewSourceFrom[B chaindata.Block](chain netinfo.Chain, reader Reader, parse ParseFunc[B]) *Source[B] {
	return &Source[B]{chain: chain, reader: reader, parse: parse}
}

// Head returns the height of the last accepted block.
func (s *Source[B]) Head(ctx context.Context) (uint64, error) {
	return s.reader.Head(ctx)
}

// Containers returns the unwrapped containers of heights from.. (at most
// max), unparsed: a reader that needs a neighbour of a range (the option
// after a proposal block) reads it through here.
func (s *Source[B]) Containers(ctx context.Context, from uint64, max int) ([]Container, error) {
	return s.reader.Containers(ctx, from, max)
}

// IndexAPI reads a chain's accepted blocks from the node's index API.
type IndexAPI struct {
	chain  netinfo.Chain
	client *indexer.Client
}

// NewIndexAPI returns the reader of chain's index API at client.
func NewIndexAPI(chain netinfo.Chain, client *indexer.Client) *IndexAPI {
	return &IndexAPI{chain: chain, client: client}
}

// The genesis block is never indexed, so index i holds height i+1.

// Head returns the height of the last indexed block.
func (s *IndexAPI) Head(ctx context.Context) (uint64, error) {
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

// Fetch returns blocks from height from on, at most max (MaxRange at most).
func (s *Source[B]) Fetch(ctx context.Context, from uint64, max int) ([]B, error) {
	containers, err := s.Containers(ctx, from, max)
	if err != nil {
		return nil, err
	}
	out := make([]B, 0, len(containers))
	for i, c := range containers {
		blk, err := s.parse(c)
		if err != nil {
			return nil, fmt.Errorf("parsing %s container %s: %w", s.chain, c.ID, err)
		}
		if want := from + uint64(i); blk.Height() != want {
			return nil, fmt.Errorf("%s index position %d holds height %d: the node's index is incomplete "+
				"(was --index-enabled set before the node's first start?)", s.chain, want-1, blk.Height())
		}
		out = append(out, blk)
	}
	return out, nil
}

// Containers returns the unwrapped containers of heights from.. (at most
// max).
func (s *IndexAPI) Containers(ctx context.Context, from uint64, max int) ([]Container, error) {
	if from == 0 {
		return nil, fmt.Errorf("%s genesis block is not in the index", s.chain)
	}
	max = min(max, MaxRange)
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	containers, err := s.client.GetContainerRange(ctx, from-1, max)
	if err != nil {
		// Asked past the last accepted container (a reader looking ahead):
		// nothing there yet. The node says so only in its message.
		msg := err.Error()
		if strings.Contains(msg, "no containers have been accepted") || strings.Contains(msg, "> last accepted index") {
			return nil, nil
		}
		return nil, fmt.Errorf("index.getContainerRange(%d, %d): %w", from-1, max, err)
	}
	out := make([]Container, len(containers))
	for i, c := range containers {
		out[i] = Unwrap(c.ID, c.Bytes)
	}
	return out, nil
}

// Unwrap strips the proposervm wrapper; bytes that do not parse as one are
// a pre-fork block and are the inner block themselves.
func Unwrap(id ids.ID, b []byte) Container {
	out := Container{ID: id, Inner: b, Size: len(b)}
	wrapped, err := proposerblock.ParseWithoutVerification(b)
	if err != nil {
		return out
	}
	out.Wrapped = true
	out.Inner = wrapped.Block()
	out.ParentID = wrapped.ParentID()
	if signed, ok := wrapped.(proposerblock.SignedBlock); ok {
		out.Proposer = &pdata.Proposer{
			ID:           id,
			ParentID:     wrapped.ParentID(),
			NodeID:       signed.Proposer(),
			PChainHeight: signed.PChainHeight(),
			Timestamp:    signed.Timestamp().Unix(),
		}
	}
	return out
}
