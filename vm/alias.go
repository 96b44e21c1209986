package vm

import (
	"context"
	"strings"
	"time"

	"github.com/ava-labs/avalanchego/api/admin"
	"go.uber.org/zap"
)

// The node creates /ext/bc/<alias> routes only through admin.aliasChain, and
// does not persist them, so the VM aliases its own chain each time it enters
// normal operation. Without the admin API the chain-ID path still works.

const aliasAttempts = 20

func (vm *VM) aliasSelf(ctx context.Context, nodeURI, alias string) {
	client := admin.NewClient(nodeURI)
	chainID := vm.snowCtx.ChainID.String()
	for attempt := 1; attempt <= aliasAttempts; attempt++ {
		err := client.AliasChain(ctx, chainID, alias)
		if err == nil || strings.Contains(err.Error(), "already") {
			vm.log.Info("chain aliased", zap.String("alias", alias), zap.String("path", "/ext/bc/"+alias))
			return
		}
		if strings.Contains(err.Error(), "404") || strings.Contains(err.Error(), "status code") {
			vm.log.Info("admin API not reachable; serving on the chain ID path only",
				zap.String("path", "/ext/bc/"+chainID), zap.Error(err))
			return
		}
		vm.log.Debug("aliasing chain failed, retrying", zap.Int("attempt", attempt), zap.Error(err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
	vm.log.Warn("could not alias chain; serving on the chain ID path only", zap.String("alias", alias))
}
