package vm

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/libevm/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers"
	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/explorer"
	"github.com/avadata/avadata/handlers/metrics"
	"github.com/avadata/avadata/handlers/primary"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// The handlers read the store directly through its per-domain readers; the
// VM supplies only what lives outside it: the network's identity, follower
// progress and live node state.
var (
	_ api.NodeView                = (*VM)(nil)
	_ evm.StateReader             = (*VM)(nil)
	_ primary.PlatformStateReader = (*VM)(nil)
	_ handlers.Controller         = (*VM)(nil)
	_ evm.Reader                  = (*store.Store)(nil)
	_ metrics.Reader              = (*store.Store)(nil)
	_ primary.Reader              = (*store.PrimaryReader)(nil)
	_ explorer.TokenSearcher      = (*store.Store)(nil)
	_ explorer.LogReader          = (*VM)(nil)
	_ explorer.TokenHolders       = tokenHolders{}
)

func (vm *VM) newHandler(reg prometheus.Registerer) (*serve.Handler, error) {
	cfg := handlers.Config{Config: serve.Config{APIKeys: vm.config.acceptedAPIKeys(), Version: Version}}
	vm.config.httpLimits(&cfg.Config)
	cfg.Webhooks = vm.config.webhooksAPIConfig()
	// The explorer shows NFT images from other origins only where the
	// operator let avadata fetch NFT metadata from them.
	cfg.Explorer.RemoteImages = vm.config.NFTMetadata.Fetch
	if vm.config.ContractMetadataFile != "" {
		curated, err := evm.LoadCuratedContracts(vm.config.ContractMetadataFile)
		if err != nil {
			return nil, fmt.Errorf("invalid avadata chain config: contractMetadataFile: %w", err)
		}
		cfg.EVM.CuratedContracts = curated
	}
	spam, err := vm.config.spamTokens()
	if err != nil {
		return nil, fmt.Errorf("invalid avadata chain config: %w", err)
	}
	cfg.EVM.SpamTokens = spam
	var ctrl handlers.Controller
	if vm.config.AdminAPIEnabled {
		ctrl = vm
	}
	decode, err := indexer.TxDecoder()
	if err != nil {
		return nil, fmt.Errorf("creating the tx decoders: %w", err)
	}
	primary := vm.store.PrimaryReader(decode)
	backend := handlers.Backend{Node: vm, Metrics: vm.store, EVM: vm.store, EVMState: vm,
		Primary: primary, Staking: primary, Platform: vm, Vertices: vm.store, Health: vm}
	if vm.sigagg != nil {
		backend.SigAgg = vm.sigagg
	}
	if vm.exports != nil {
		backend.Exports = vm.exports
	}
	backend.Webhooks = webhookAPI{Store: vm.store, vm: vm}
	backend.Tokens = vm.store
	backend.Logs = vm
	backend.Holders = tokenHolders{Store: vm.store, VM: vm}
	return handlers.New(cfg, backend, ctrl, vm.log, reg)
}

func (vm *VM) Network() netinfo.Info { return vm.network.get() }

func (vm *VM) PageTokenKey() []byte { return vm.tokenKey }

// NativeBalance reads a current native balance from the node.
func (vm *VM) NativeBalance(ctx context.Context, chain netinfo.Chain, addr common.Address) (*big.Int, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return nil, err
	}
	return ix.NativeBalance(ctx, chain, addr)
}

// TransactionLogs reads a transaction's event logs from the node's receipt.
func (vm *VM) TransactionLogs(ctx context.Context, chain netinfo.Chain, hash common.Hash) ([]evmdata.Log, bool, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return nil, false, err
	}
	return ix.TransactionLogs(ctx, chain, hash)
}

// tokenHolders serves the explorer's ERC-20 holders: the parties from the
// index, their balances from the node.
type tokenHolders struct {
	*store.Store
	*VM
}

// TokenParties lists the token's parties from the index.
func (h tokenHolders) TokenParties(ctx context.Context, chain netinfo.Chain, token common.Address, kind evmdata.ErcType,
	after *common.Address, limit int,
) ([]common.Address, error) {
	return h.Store.TokenParties(ctx, chain, token, kind, after, limit)
}

// TokenBalancesAt reads the balances from the node.
func (h tokenHolders) TokenBalancesAt(ctx context.Context, chain netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error) {
	return h.VM.TokenBalancesAt(ctx, chain, height, calls)
}

// CurrentValidators reads the primary network's current validators from the
// node.
func (vm *VM) CurrentValidators(ctx context.Context, nodeIDs []ids.NodeID) ([]platformvm.ClientPermissionlessValidator, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return nil, err
	}
	return ix.CurrentValidators(ctx, nodeIDs)
}

// Statuses reports the followers; before they exist, each configured primary
// chain shows as not running with the reason.
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
		if cursor, err := vm.store.Cursor(vm.ctx, c, store.StreamBlocks); err == nil {
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

// SubnetValidators reads one subnet's current validators from the node.
func (vm *VM) SubnetValidators(ctx context.Context, subnetID ids.ID) ([]platformvm.ClientPermissionlessValidator, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return nil, err
	}
	return ix.SubnetValidators(ctx, subnetID)
}

// L1Validator reads one L1 validation from the node.
func (vm *VM) L1Validator(ctx context.Context, validationID ids.ID) (platformvm.L1Validator, uint64, bool, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return platformvm.L1Validator{}, 0, false, err
	}
	return ix.L1Validator(ctx, validationID)
}

// CurrentSupply reads the primary network's current supply from the node.
func (vm *VM) CurrentSupply(ctx context.Context) (uint64, error) {
	ix, err := vm.currentIndexer()
	if err != nil {
		return 0, err
	}
	return ix.CurrentSupply(ctx)
}
