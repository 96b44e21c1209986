package indexer

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// probeTimeout bounds one index API probe.
const probeTimeout = 30 * time.Second

// chainSourceStore is what the choice reads and records in the store.
type chainSourceStore interface {
	ChainSource(ctx context.Context, chain netinfo.Chain) (pdata.ChainSource, error)
	SetChainSource(ctx context.Context, chain netinfo.Chain, src pdata.ChainSource) error
	Cursor(ctx context.Context, chain netinfo.Chain, stream store.Stream) (store.Cursor, error)
}

// chosenBlocks is the blockindex.Reader of a P/X follower: at its first use
// it picks where the chain's blocks come from, and keeps to it for the
// process's life.
//
//   - An index recorded as built from getBlockByHeight keeps reading there,
//     even once the node serves its index API (which would name the same
//     blocks by other IDs, and lacks what the node accepted before it).
//   - Otherwise the node's index API, when it serves one: every index built
//     before the choice existed came from there.
//   - A node without the index API (404): a chain whose index holds no block
//     yet is recorded as read from getBlockByHeight; one that holds blocks
//     from the index API stops with an error saying how to go on.
type chosenBlocks struct {
	chain    netinfo.Chain
	index    blockindex.Reader
	byHeight blockindex.Reader
	// indexServed probes the node's index API of the chain: false when the
	// node does not serve it.
	indexServed func(ctx context.Context) (bool, error)
	// vmHeight reads the chain's last accepted height from its own API: the
	// chain is up, so a missing index route means indexing is off (and not
	// that the node has not registered the chain yet).
	vmHeight func(ctx context.Context) (uint64, error)
	st       chainSourceStore
	// dagEra: the chain is the X-chain of a network that had a DAG era.
	dagEra bool
	log    logging.Logger

	mu     sync.Mutex // held while choosing
	chosen blockindex.Reader
	// source is what was chosen (nil before), read by status without mu.
	source atomic.Pointer[pdata.ChainSource]
}

func (c *chosenBlocks) Head(ctx context.Context) (uint64, error) {
	r, err := c.choose(ctx)
	if err != nil {
		return 0, err
	}
	return r.Head(ctx)
}

func (c *chosenBlocks) Containers(ctx context.Context, from uint64, max int) ([]blockindex.Container, error) {
	r, err := c.choose(ctx)
	if err != nil {
		return nil, err
	}
	return r.Containers(ctx, from, max)
}

func (c *chosenBlocks) choose(ctx context.Context) (blockindex.Reader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.chosen != nil {
		return c.chosen, nil
	}
	recorded, err := c.st.ChainSource(ctx, c.chain)
	if err != nil {
		return nil, err
	}
	if recorded.ByHeight {
		return c.set(c.byHeight, recorded), nil
	}
	served, err := c.probe(ctx)
	if err != nil {
		return nil, err
	}
	if served {
		return c.set(c.index, pdata.ChainSource{}), nil
	}
	cursor, err := c.st.Cursor(ctx, c.chain, store.StreamBlocks)
	if err != nil {
		return nil, err
	}
	if !cursor.Empty() {
		return nil, fmt.Errorf("the %s-chain index was built from the node's index API (/ext/index/%s/block), "+
			"which the node no longer serves: restart the node with --index-enabled=true, or delete avadata's "+
			"index to rebuild it from %s", c.chain, c.chain, getBlockByHeight(c.chain))
	}
	src := pdata.ChainSource{ByHeight: true, MissingDAG: c.dagEra}
	if err := c.st.SetChainSource(ctx, c.chain, src); err != nil {
		return nil, err
	}
	c.log.Info("the node serves no index API: following the chain through getBlockByHeight, without "+
		"proposer details", zap.Stringer("chain", c.chain), zap.String("method", getBlockByHeight(c.chain)),
		zap.Bool("missingDAG", src.MissingDAG))
	return c.set(c.byHeight, src), nil
}

func (c *chosenBlocks) set(r blockindex.Reader, src pdata.ChainSource) blockindex.Reader {
	c.chosen = r
	c.source.Store(&src)
	return r
}

// probe says whether the node serves the chain's index API. A 404 counts
// only once the chain's own API answers (the node registers both routes
// when it creates the chain), asked again after it.
func (c *chosenBlocks) probe(ctx context.Context) (bool, error) {
	served, err := c.indexServed(ctx)
	if err != nil || served {
		return served, err
	}
	if _, err := c.vmHeight(ctx); err != nil {
		return false, fmt.Errorf("the node serves no %s index API, and %s's own API does not answer yet: %w",
			c.chain, c.chain, err)
	}
	return c.indexServed(ctx)
}

// newChosenBlocks returns the block reader of chain (P or X) of the node
// client reaches, choosing its source in st.
func newChosenBlocks(chain netinfo.Chain, client *nodeapi.Client, vm blockindex.VMBlocks, st chainSourceStore,
	networkID uint32, log logging.Logger,
) *chosenBlocks {
	indexClient := client.BlockIndex(chain)
	return &chosenBlocks{
		chain:    chain,
		index:    blockindex.NewIndexAPI(chain, indexClient),
		byHeight: blockindex.NewByHeight(chain, vm),
		indexServed: func(ctx context.Context) (bool, error) {
			ctx, cancel := context.WithTimeout(ctx, probeTimeout)
			defer cancel()
			_, _, err := indexClient.GetLastAccepted(ctx)
			return indexAPIServed(err)
		},
		vmHeight: func(ctx context.Context) (uint64, error) {
			ctx, cancel := context.WithTimeout(ctx, probeTimeout)
			defer cancel()
			return vm.GetHeight(ctx)
		},
		st:     st,
		dagEra: chain == netinfo.X && hadDAGEra(networkID),
		log:    log,
	}
}

// unavailable is the status sentence list of the block follower.
func (c *chosenBlocks) unavailable() []string {
	src := c.source.Load()
	if src == nil || !src.ByHeight {
		return nil
	}
	out := []string{fmt.Sprintf("proposer details of %s-chain blocks, and their proposervm block IDs "+
		"(blocks are named by the VM's own IDs, as %s gives them): %s; the index API holds the proposervm headers",
		c.chain, getBlockByHeight(c.chain), pdata.IndexEnabledHint)}
	if src.MissingDAG {
		out = append(out, "DAG-era X-chain vertices and their txs, and so X-chain balances and UTXOs "+
			"(they may hold DAG-era UTXOs): "+pdata.IndexEnabledHint+"; only the index API serves the vertices")
	}
	return out
}

// vertexUnavailable is the status sentence list of the vertex follower,
// which idles without the index API.
func (c *chosenBlocks) vertexUnavailable() []string {
	src := c.source.Load()
	if src == nil || !src.ByHeight || c.chain != netinfo.X {
		return nil
	}
	return []string{"X-chain DAG vertices (the follower idles): " + pdata.IndexEnabledHint +
		"; only the index API serves them"}
}

func getBlockByHeight(chain netinfo.Chain) string { return pdata.VMAPI(chain) + ".getBlockByHeight" }

// hadDAGEra says the network's X-chain ran as a DAG before Cortina (networks
// born after it, such as a local one, are linear from genesis).
func hadDAGEra(networkID uint32) bool {
	return networkID == constants.MainnetID || networkID == constants.FujiID
}

// indexAPIServed turns an index.getLastAccepted answer into whether the
// node serves that index: an empty index is served; 404 is not.
func indexAPIServed(err error) (bool, error) {
	if err == nil {
		return true, nil
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "no containers have been accepted"):
		return true, nil
	case strings.Contains(msg, "404"):
		return false, nil
	default:
		return false, fmt.Errorf("probing the node's index API: %w", err)
	}
}
