package metrics

import (
	"testing"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/serve"
)

// NewAPI serves the metrics service over fakes.
func newTestAPI(t *testing.T, cfg serve.Config, fakes *handlertest.Fakes) *handlertest.API {
	t.Helper()
	return handlertest.NewAPI(t, cfg, fakes, func(core *api.Core) []api.Route { return Routes(core, fakes) })
}
