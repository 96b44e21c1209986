// Package metrics proves the Metrics API ({base_url}/metrics) end to end
// against real nodes (make test-e2e-metrics; make build first).
package metrics

import (
	"os"
	"testing"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// env is what the metrics tests share, set by TestMain: the networks,
// started by the tests that need them.
var env *metricsEnv

type metricsEnv struct {
	*harness.Env
}

func TestMain(m *testing.M) {
	env = &metricsEnv{Env: harness.NewEnv("metrics")}
	os.Exit(env.Run(m))
}
