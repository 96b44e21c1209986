package vm

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers"
	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// The VM serves the handlers' Backend and Controller over its store and
// followers.
var (
	_ handlers.Backend    = (*VM)(nil)
	_ handlers.Controller = (*VM)(nil)
)

func (vm *VM) newHandler(reg prometheus.Registerer) (http.Handler, error) {
	cfg := handlers.Config{
		APIKeys:        vm.config.APIKeys,
		AnonymousRPS:   vm.config.RateLimit.AnonymousRPS,
		AnonymousBurst: vm.config.RateLimit.AnonymousBurst,
		KeyRPS:         vm.config.RateLimit.KeyRPS,
		KeyBurst:       vm.config.RateLimit.KeyBurst,
		Version:        Version,
	}
	var ctrl handlers.Controller
	if vm.config.AdminAPIEnabled {
		ctrl = vm
	}
	return handlers.New(cfg, vm, ctrl, vm.log, reg)
}

func (vm *VM) Network() netinfo.Info { return vm.network.get() }

func (vm *VM) PageTokenKey() []byte { return vm.tokenKey }

func (vm *VM) TPSBuckets(_ context.Context, chain netinfo.Chain, before int64, limit int) ([]store.TPSBucket, error) {
	return vm.store.TPSBuckets(chain, before, limit)
}

// Statuses reports the followers; before they exist, each configured chain
// shows as not running with the reason.
func (vm *VM) Statuses() []follower.Status {
	vm.mu.RLock()
	ix, startupErr := vm.indexer, vm.startupErr
	vm.mu.RUnlock()
	if ix != nil {
		return ix.Statuses()
	}
	reason := errNotConnected.Error()
	if startupErr != nil {
		reason = startupErr.Error()
	}
	chains, _ := vm.config.FollowedChains()
	out := make([]follower.Status, 0, len(chains))
	for _, c := range chains {
		s := follower.Status{Chain: c, ChainName: c.String(), LastError: reason}
		if cursor, err := vm.store.Cursor(c); err == nil {
			s.IndexedHeight = cursor.NextHeight - 1
		}
		out = append(out, s)
	}
	return out
}

func (vm *VM) PauseFollower(chain netinfo.Chain) error {
	ix, err := vm.currentIndexer()
	if err != nil {
		return err
	}
	return ix.Pause(chain)
}

func (vm *VM) ResumeFollower(chain netinfo.Chain) error {
	ix, err := vm.currentIndexer()
	if err != nil {
		return err
	}
	return ix.Resume(chain)
}

func (vm *VM) currentIndexer() (*indexer.Indexer, error) {
	vm.mu.RLock()
	defer vm.mu.RUnlock()
	if vm.indexer == nil {
		return nil, errNotConnected
	}
	return vm.indexer, nil
}
