// Package indexer runs avadata's followers: one per followed chain, each
// moving the node's accepted blocks into the store, and beside each EVM
// chain's follower the task that describes the contracts it saw.
// Subpackages hold the pieces along the data's path:
//
//   - netinfo: the network the node runs on and the chains followed;
//   - nodeapi: the node's APIs; blockindex: blocks from its index API;
//   - pchain, xchain, catomic and evmchain: reading and decoding each kind
//     of chain (catomic: the C-chain's atomic txs), with txsig recovering
//     who signed a primary-network tx's inputs;
//   - chaindata, pdata and evmdata: the domain model (what every chain's
//     blocks share, the primary network's data, an EVM chain's data);
//   - follower: the catch-up/live loop;
//   - evmmeta: contract metadata;
//   - store: the Badger index.
package indexer

import (
	"context"
	"fmt"
	"math/big"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/catomic"
	"github.com/avadata/avadata/indexer/evmchain"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/evmmeta"
	"github.com/avadata/avadata/indexer/evmstate"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/xchain"
)

// restartDelay is how long a task that failed waits before it restarts.
const restartDelay = 5 * time.Second

// Config tunes the indexer.
type Config struct {
	Follower follower.Config
	// PrimaryPollInterval replaces Follower.PollInterval for P and X.
	PrimaryPollInterval time.Duration
	// IndexFrom says where a chain's fresh index begins (nil: from the
	// oldest block the node serves).
	IndexFrom func(netinfo.ChainInfo) follower.IndexFrom
	// Trace records internal transactions from the node's callTracer.
	Trace bool
	// Fetch says whether NFT metadata behind http(s)/ipfs URIs is read.
	Fetch evmmeta.FetchOptions
	// Network is the node's network (its ID and primary chains).
	Network netinfo.Info
	// Upgrades are the network's upgrade times (the snow context's): they
	// decide P-chain staker starts and C-chain atomic tx batching.
	Upgrades upgrade.Config
}

// Indexer owns the followers of the followed chains and the node clients
// they read through. Chains can be added while it runs (an EVM chain the
// node starts later).
type Indexer struct {
	log     logging.Logger
	client  *nodeapi.Client
	store   *store.Store
	cfg     Config
	metrics *follower.Metrics

	mu      sync.Mutex
	runners []follower.Runner
	tasks   []task
	evm     map[netinfo.Chain]*nodeapi.EVMClient
	running context.Context // set by Run: where added chains start
	wg      sync.WaitGroup

	// balances reads token balances at a block, per EVM chain (cached).
	balances map[netinfo.Chain]*evmstate.Balances
}

// task is a background job beside the followers.
type task struct {
	name string
	run  func(ctx context.Context) error
}

// New creates the followers of chains, reading from the node at client and
// writing to st.
func New(ctx context.Context, chains []netinfo.ChainInfo, client *nodeapi.Client, st *store.Store, cfg Config,
	log logging.Logger, metrics *follower.Metrics,
) (*Indexer, error) {
	ix := &Indexer{log: log, client: client, store: st, cfg: cfg, metrics: metrics, evm: map[netinfo.Chain]*nodeapi.EVMClient{}}
	st.SetPrimaryNetwork(PrimaryNetwork(ctx, client, cfg.Network, cfg.Upgrades, log))
	for _, ci := range chains {
		if err := ix.AddChain(ctx, ci); err != nil {
			ix.Close()
			return nil, err
		}
	}
	return ix, nil
}

// AddChain starts following one more chain (at once if Run is running).
func (ix *Indexer) AddChain(ctx context.Context, ci netinfo.ChainInfo) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, err := ix.runnerLocked(ci.Chain); err == nil {
		return fmt.Errorf("chain %s is followed already", ci.Name)
	}
	firstRunner, firstTask := len(ix.runners), len(ix.tasks)
	if err := ix.add(ctx, ci); err != nil {
		return err
	}
	if ix.running != nil {
		for _, r := range ix.runners[firstRunner:] {
			ix.start("follower "+r.Name(), r.Run)
		}
		for _, t := range ix.tasks[firstTask:] {
			ix.start(t.name, t.run)
		}
	}
	return nil
}

func (ix *Indexer) add(ctx context.Context, ci netinfo.ChainInfo) error {
	client, st, cfg, metrics := ix.client, ix.store, ix.cfg, ix.metrics
	id := follower.Identity{Chain: ci.Chain, Name: ci.Name, BlockchainID: ci.BlockchainID.String()}
	fcfg := cfg.Follower
	if ci.Kind != netinfo.KindEVM && cfg.PrimaryPollInterval > 0 {
		fcfg.PollInterval = cfg.PrimaryPollInterval
	}
	if cfg.IndexFrom != nil {
		fcfg.IndexFrom = cfg.IndexFrom(ci)
	}
	switch ci.Kind {
	case netinfo.KindPlatform:
		// The index API, or platform.getBlockByHeight on a node without it
		// (blocksource.go).
		blocks := newChosenBlocks(netinfo.P, client, client.Platform, st, cfg.Network.NetworkID, ix.log)
		src, err := pchain.NewSourceFrom(client, blocks, cfg.Upgrades)
		if err != nil {
			return err
		}
		src.SetRefundOwners(l1RefundOwners(st))
		fcfg.Unavailable = blocks.unavailable
		ix.addPrimaryFollower(id, src, st, fcfg, metrics)
	case netinfo.KindAVM:
		blocks := newChosenBlocks(netinfo.X, client, client.AVM, st, cfg.Network.NetworkID, ix.log)
		src, err := xchain.NewSourceFrom(blocks)
		if err != nil {
			return err
		}
		fcfg.Unavailable = blocks.unavailable
		ix.addPrimaryFollower(id, src, st, fcfg, metrics)
		// The pre-Cortina DAG has its own index and cursor; on a chain born
		// linear (every network since Cortina) it is empty and the
		// follower idles at height 0. Its txs are X-chain txs, placed
		// before linear block 1; the two followers need no order between
		// them, since the store ends the same whichever writes a shared
		// UTXO first (store/dagtx.go). It comes after the block follower,
		// which status and controls find first for the X-chain.
		vsrc, err := xchain.NewVertexSource(client.URI())
		if err != nil {
			return err
		}
		vid := follower.Identity{Chain: netinfo.X, Name: "X-vertices", BlockchainID: id.BlockchainID}
		vcfg := fcfg
		vcfg.IndexFrom = follower.IndexFrom{Genesis: true}
		// Without the index API the vertex index is not served: the
		// follower idles at height 0 and its status says why.
		vcfg.Unavailable = blocks.vertexUnavailable
		ix.runners = append(ix.runners, follower.New(vid, follower.Source[*pdata.Vertex](vsrc),
			follower.Sink[*pdata.Vertex](st.VertexWriter()), vcfg, ix.log, metrics))
	case netinfo.KindEVM:
		return ix.addEVM(ctx, id, ci, fcfg)
	default:
		return fmt.Errorf("no follower for chain %s of kind %d", ci.Name, ci.Kind)
	}
	return nil
}

func (ix *Indexer) addPrimaryFollower(id follower.Identity, src follower.Source[*pdata.Block], st *store.Store,
	cfg follower.Config, metrics *follower.Metrics,
) {
	sink := follower.Sink[*pdata.Block](st.PrimaryWriter(id.Chain))
	ix.runners = append(ix.runners, follower.New(id, src, sink, cfg, ix.log, metrics))
}

func (ix *Indexer) addEVM(ctx context.Context, id follower.Identity, ci netinfo.ChainInfo, fcfg follower.Config) error {
	st, cfg, metrics := ix.store, ix.cfg, ix.metrics
	evm, err := nodeapi.DialEVM(ctx, ix.client.URI(), ci.BlockchainID.String())
	if err != nil {
		return err
	}
	ix.evm[ci.Chain] = evm
	if ix.balances == nil {
		ix.balances = map[netinfo.Chain]*evmstate.Balances{}
	}
	ix.balances[ci.Chain] = evmstate.NewBalances(evm, evmstate.DefaultCacheEntries)
	opts := evmchain.Options{Trace: cfg.Trace, Log: ix.log}
	if ci.Chain == netinfo.C {
		rules := catomic.NewRules(cfg.Upgrades)
		opts.Atomic = &rules
	}
	src := evmchain.NewSource(evm, opts)
	sink := follower.Sink[*evmdata.Block](st.EVMWriter(ci.Chain))
	f := follower.New(id, follower.Source[*evmdata.Block](src), sink, fcfg, ix.log, metrics)
	// The back-fill fills the index down toward indexFrom's height when it
	// starts later and the node serves older blocks (follower/backfill.go).
	backfill := follower.NewBackfill(id, follower.Source[*evmdata.Block](src),
		follower.BackfillSink[*evmdata.Block](st.EVMWriter(ci.Chain)), fcfg, ix.log)
	f.SetBackfill(backfill)
	ix.runners = append(ix.runners, f)
	ix.tasks = append(ix.tasks, task{name: "back-fill " + ci.Name, run: backfill.Run})
	describer := evmmeta.New(ci.Chain, ci.Name, evm, st, ix.log, cfg.Follower.PollInterval, cfg.Fetch)
	ix.tasks = append(ix.tasks, task{name: "describe contracts of " + ci.Name, run: describer.Run})
	return nil
}

// Run runs every follower and task, and those of chains added meanwhile,
// until ctx ends, restarting one that fails or panics after restartDelay.
func (ix *Indexer) Run(ctx context.Context) {
	ix.mu.Lock()
	ix.running = ctx
	for _, r := range ix.runners {
		ix.start("follower "+r.Name(), r.Run)
	}
	for _, t := range ix.tasks {
		ix.start(t.name, t.run)
	}
	ix.mu.Unlock()
	<-ctx.Done()
	ix.wg.Wait()
}

// start runs one task under Run's context; ix.mu is held.
func (ix *Indexer) start(name string, run func(context.Context) error) {
	ctx := ix.running
	ix.wg.Add(1)
	go func() {
		defer ix.wg.Done()
		ix.keepRunning(ctx, name, run)
	}()
}

func (ix *Indexer) keepRunning(ctx context.Context, name string, run func(context.Context) error) {
	for ctx.Err() == nil {
		err := runRecovered(ctx, name, run)
		if ctx.Err() != nil {
			return
		}
		ix.log.Error("background task stopped; restarting", zap.String("task", name),
			zap.Duration("after", restartDelay), zap.Error(err))
		select {
		case <-ctx.Done():
		case <-time.After(restartDelay):
		}
	}
}

func runRecovered(ctx context.Context, name string, run func(context.Context) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v\n%s", name, r, debug.Stack())
		}
	}()
	return run(ctx)
}

// Close releases the EVM clients' connections. Call it after Run returned.
func (ix *Indexer) Close() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, c := range ix.evm {
		c.Close()
	}
}

// Statuses reports every follower, in the order the chains were given.
func (ix *Indexer) Statuses() []follower.Status {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	out := make([]follower.Status, 0, len(ix.runners))
	for _, r := range ix.runners {
		out = append(out, r.Status())
	}
	return out
}

// Pause pauses chain's follower.
func (ix *Indexer) Pause(chain netinfo.Chain) error {
	r, err := ix.runner(chain)
	if err == nil {
		r.Pause()
	}
	return err
}

// Resume resumes chain's follower.
func (ix *Indexer) Resume(chain netinfo.Chain) error {
	r, err := ix.runner(chain)
	if err == nil {
		r.Resume()
	}
	return err
}

func (ix *Indexer) runner(chain netinfo.Chain) (follower.Runner, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.runnerLocked(chain)
}

func (ix *Indexer) runnerLocked(chain netinfo.Chain) (follower.Runner, error) {
	i := slices.IndexFunc(ix.runners, func(r follower.Runner) bool { return r.Chain() == chain })
	if i < 0 {
		return nil, fmt.Errorf("chain %s is not followed", chain)
	}
	return ix.runners[i], nil
}

// NativeBalance reads addr's current native balance on an EVM chain.
func (ix *Indexer) NativeBalance(ctx context.Context, chain netinfo.Chain, addr common.Address) (*big.Int, error) {
	c, err := ix.evmClient(chain)
	if err != nil {
		return nil, err
	}
	return c.Balance(ctx, addr)
}

// evmClient is the node client of a followed EVM chain, for what the index
// does not keep.
func (ix *Indexer) evmClient(chain netinfo.Chain) (*nodeapi.EVMClient, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	c, ok := ix.evm[chain]
	if !ok {
		return nil, fmt.Errorf("chain %s is not a followed EVM chain", chain)
	}
	return c, nil
}

// NodeHead reads the node's current height of chain (Follower.NodeHead):
// false while the chain's follower has not read the node's head yet.
func (ix *Indexer) NodeHead(ctx context.Context, chain netinfo.Chain) (uint64, bool, error) {
	r, err := ix.runner(chain)
	if err != nil {
		return 0, false, err
	}
	f, ok := r.(interface {
		NodeHead(ctx context.Context) (uint64, bool, error)
	})
	if !ok {
		return 0, false, fmt.Errorf("chain %s's follower cannot read the node's head", chain)
	}
	return f.NodeHead(ctx)
}
