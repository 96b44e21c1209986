package primary

import (
	"testing"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/serve"
)

// NewAPI serves the primary network's operations over fakes.
func newTestAPI(t *testing.T, cfg serve.Config, fakes *handlertest.Fakes) *handlertest.API {
	t.Helper()
	return handlertest.NewAPI(t, cfg, fakes, func(core *api.Core) []api.Route {
		return newTestServer(core, fakes).routes()
	})
}

// newTestServer is the primary network's server over fakes: a nil fake
// is a reader the node does not have.
func newTestServer(core *api.Core, fakes *handlertest.Fakes) *server {
	s := &server{Core: core}
	if fakes.Primary != nil {
		s.reader = fakes.Primary
	}
	if fakes.Staking != nil {
		s.staking = fakes.Staking
	}
	if fakes.Platform != nil {
		s.platform = fakes.Platform
	}
	if fakes.Vertices != nil {
		s.vertices = fakes.Vertices
	}
	return s
}
