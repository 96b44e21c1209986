package handlers

import (
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/serve"
)

// NewAPI serves the whole API, every domain's operations, over fakes;
// ctrl may be nil.
func newTestAPI(t *testing.T, cfg serve.Config, fakes *handlertest.Fakes, ctrl Controller) *handlertest.API {
	t.Helper()
	clock := handlertest.NewClock()
	if cfg.Clock == nil {
		cfg.Clock = clock.Now
	}
	reg := prometheus.NewRegistry()
	h, err := New(Config{Config: cfg}, readers(fakes), ctrl, logging.NoLog{}, reg)
	require.NoError(t, err)
	return &handlertest.API{Handler: h, Fakes: fakes, Clock: clock, Registry: reg}
}

// readers is the Backend over fakes; a nil fake is a reader the node does
// not have.
func readers(f *handlertest.Fakes) Backend {
	b := Backend{Node: f, Metrics: f, EVM: f.EVM, EVMState: f.EVM, Primary: f.Primary, Staking: f.Staking, Platform: f.Platform}
	if f.Vertices != nil {
		b.Vertices = f.Vertices
	}
	return b
}
