package evm

import (
	"testing"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/serve"
)

// Config configures a test API: the request path and the EVM
// operations.
type testConfig struct {
	serve.Config
	EVM Config
}

// newTestConfig has limits high enough that ordinary tests never hit them.
func newTestConfig() testConfig { return testConfig{Config: handlertest.Config()} }

// NewAPI serves the EVM operations over fakes.
func newTestAPI(t *testing.T, cfg testConfig, fakes *handlertest.Fakes) *handlertest.API {
	t.Helper()
	return handlertest.NewAPI(t, cfg.Config, fakes, func(core *api.Core) []api.Route {
		return Routes(core, cfg.EVM, fakes.EVM, fakes.EVM)
	})
}
