// Package vm is avadata's ChainVM: the host interface through which the node
// runs the plugin. Its chain is genesis-only; the VM exists to own the
// plugin's lifetime: it opens the store, starts the followers, serves the
// HTTP handlers, reports health, and shuts everything down cleanly.
package vm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/database"
	"github.com/ava-labs/avalanchego/snow"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/snow/engine/snowman/block"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/store"
)

var _ block.ChainVM = (*VM)(nil)

const (
	storeDirName  = "index"
	gcInterval    = 10 * time.Minute
	shutdownLimit = 5 * time.Second
)

// VM is avadata's ChainVM.
type VM struct {
	snowCtx   *snow.Context
	log       logging.Logger
	config    Config
	genesis   *genesisBlock
	store     *store.Store
	tokenKey  []byte
	network   *networkInfo
	peers     *peers
	sigagg    *aggregator.Aggregator // nil when the config turns it off
	exports   *exportjob.Runner
	metrics   *follower.Metrics
	handler   *serve.Handler
	gate      requestGate
	startedAt time.Time

	ctx     context.Context // ends at Shutdown; every background task runs under it
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	nodeURI chan string // receives the node URI once it is known
	aliased sync.Once

	mu         sync.RWMutex
	indexer    *indexer.Indexer // nil until the node is reachable
	startupErr error
}

// New returns an uninitialized VM for rpcchainvm.Serve.
func New() *VM { return &VM{} }

func (vm *VM) Initialize(
	_ context.Context,
	chainCtx *snow.Context,
	_ database.Database,
	genesisBytes, _, configBytes []byte,
	_ []*common.Fx,
	_ common.AppSender,
) error {
	vm.snowCtx, vm.log, vm.startedAt = chainCtx, chainCtx.Log, time.Now()
	vm.genesis, vm.peers, vm.nodeURI = newGenesisBlock(genesisBytes), newPeers(), make(chan string, 1)
	cfg, err := ParseConfig(configBytes)
	if err != nil {
		return err
	}
	vm.config, vm.network = cfg, newNetworkInfo(chainCtx)
	if err := vm.openStore(); err != nil {
		return err
	}
	if err := vm.newAggregator(); err != nil {
		_ = vm.store.Close()
		return err
	}
	vm.exports = vm.newExports()
	if err := vm.initHTTP(); err != nil {
		_ = vm.store.Close()
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	vm.ctx, vm.cancel = ctx, cancel
	vm.goRecovered("indexer", func() { vm.runIndexer(ctx) })
	vm.goRecovered("store-gc", func() { vm.store.RunGC(ctx, gcInterval) })
	vm.goRecovered("exports", func() { vm.exports.Run(ctx) })
	vm.goRecovered("webhooks", func() { vm.newWebhookDelivery().Run(ctx) })
	if vm.sigagg != nil {
		vm.goRecovered("sigagg", func() { vm.runAggregator(ctx) })
	}
	vm.log.Info("avadata initialized", zap.String("version", Version),
		zap.Strings("chains", cfg.Chains), zap.String("store", filepath.Join(chainCtx.ChainDataDir, storeDirName)),
		zap.Bool("sharedPageTokenSecret", cfg.PageTokenSecret != ""))
	return nil
}

// openStore opens the index and picks the page-token key: the configured
// pageTokenSecret (shared by replicas), else the node's own, kept in the
// index so its tokens survive restarts.
func (vm *VM) openStore() error {
	st, err := store.Open(filepath.Join(vm.snowCtx.ChainDataDir, storeDirName), vm.log)
	if err != nil {
		return err
	}
	// The writers match blocks against the webhooks from the first block
	// they write.
	if err := st.LoadWebhooks(context.Background()); err != nil {
		_ = st.Close()
		return err
	}
	key, err := vm.config.pageTokenSecret() // validated by ParseConfig
	if err == nil && key == nil {
		key, err = st.PageTokenKey()
	}
	if err != nil {
		_ = st.Close()
		return err
	}
	vm.store, vm.tokenKey = st, key
	return nil
}

// initHTTP registers metrics through the node and builds the handlers.
func (vm *VM) initHTTP() error {
	reg := prometheus.NewRegistry()
	if err := vm.snowCtx.Metrics.Register("avadata", reg); err != nil {
		return fmt.Errorf("registering metrics: %w", err)
	}
	m, err := follower.NewMetrics(reg)
	if err != nil {
		return fmt.Errorf("creating follower metrics: %w", err)
	}
	vm.metrics = m
	handler, err := vm.newHandler(reg)
	if err != nil {
		return fmt.Errorf("creating HTTP handlers: %w", err)
	}
	vm.handler = handler
	return nil
}

// runIndexer waits for the node's API, then runs the followers until ctx ends.
func (vm *VM) runIndexer(ctx context.Context) {
	ix, client, err := vm.connectIndexerRetrying(ctx)
	if err != nil {
		return // Shutdown
	}
	defer ix.Close()
	vm.mu.Lock()
	vm.indexer = ix
	vm.mu.Unlock()
	vm.goRecovered("evm-discovery", func() { vm.discoverEVMChains(ctx, ix, client) })
	ix.Run(ctx)
}

func (vm *VM) goRecovered(name string, fn func()) {
	vm.wg.Add(1)
	go func() {
		defer vm.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				vm.log.Error("background task panicked", zap.String("task", name),
					zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				vm.setStartupErr(fmt.Errorf("%s panicked: %v", name, r))
			}
		}()
		fn()
	}()
}

func (vm *VM) setStartupErr(err error) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	vm.startupErr = err
}

func (vm *VM) SetState(_ context.Context, state snow.State) error {
	if state == snow.NormalOp && *vm.config.Alias != "" {
		vm.aliased.Do(func() {
			vm.goRecovered("alias", func() {
				select {
				case uri := <-vm.nodeURI:
					vm.aliasSelf(vm.ctx, uri, *vm.config.Alias)
				case <-vm.ctx.Done(): // the node URI was never found
				}
			})
		})
	}
	return nil
}

// Shutdown stops the background work and the requests in flight, then
// closes the store. Nothing may touch a closed store, so if they have not
// stopped within shutdownLimit the store is left open (Badger recovers it at
// the next start, as after a crash) rather than closed under them.
func (vm *VM) Shutdown(context.Context) error {
	if vm.cancel == nil {
		return nil // never initialized
	}
	vm.cancel()
	requestsDone := vm.gate.close()
	tasksDone := make(chan struct{})
	go func() {
		vm.wg.Wait()
		close(tasksDone)
	}()
	deadline := time.After(shutdownLimit)
	stopped := func(done <-chan struct{}) bool {
		select {
		case <-done:
			return true
		case <-deadline:
			vm.log.Error("background tasks or requests still running at shutdown; leaving the store to recover at the next start")
			return false
		}
	}
	// Handlers that outlived their time budget (their clients have had a
	// 503) may still read the store; they are waited for once no request
	// is left to start another.
	if !stopped(tasksDone) || !stopped(requestsDone) || !stopped(vm.handler.Idle()) {
		return nil
	}
	err := vm.store.Close()
	vm.log.Info("avadata shut down", zap.Error(err))
	return err
}

func (*VM) Version(context.Context) (string, error) { return Version, nil }

// CreateHandlers registers one handler under the exact base path and every
// sub-path. The node treats keys as gorilla/mux templates; mixing specific
// keys with the catch-all would race on registration order, so the router
// inside the plugin does all routing.
func (vm *VM) CreateHandlers(context.Context) (map[string]http.Handler, error) {
	h := vm.gate.wrap(vm.handler)
	return map[string]http.Handler{"": h, catchAllKey: h}, nil
}

// catchAllKey is the handler key for every sub-path. (?s) lets the pattern
// match a path holding a newline (%0A): with a plain ".*" such a request
// never reaches avadata and gets the node's text/plain 404.
const catchAllKey = "/{rest:(?s).*}"

func (*VM) NewHTTPHandler(context.Context) (http.Handler, error) { return nil, nil }

// WaitForEvent never reports an event: the VM builds no blocks.
func (*VM) WaitForEvent(ctx context.Context) (common.Message, error) {
	<-ctx.Done()
	return 0, ctx.Err()
}

var errNotConnected = errors.New("avadata has not reached the node's API yet")
