// Package metrics proves the Metrics API ({base_url}/metrics) end to end
// against real nodes: the EVM chain metrics and rolling windows on both local
// EVM chains against a recomputation from the node's own JSON-RPC
// (tests/e2e/truth), across a kill -9 during catch-up, every bad input's 400
// body, the staking and L1 validator fee series against the P-chain, and the
// official SDK's metrics.* calls (make test-e2e-metrics; make build first).
package metrics

import (
	"os"
	"testing"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// env is what the metrics tests share, set by TestMain: the networks,
// started by the tests that need them. A test file that makes a shared
// history of its own keeps it in a harness.Once of its own.
var env *metricsEnv

type metricsEnv struct {
	*harness.Env
	// activity is the EVM chain activity of the shared network
	// (evmActivity).
	activity harness.Once[[]*chainActivity]
}

func TestMain(m *testing.M) {
	env = &metricsEnv{Env: harness.NewEnv("metrics")}
	os.Exit(env.Run(m))
}
