package evm

import (
	"os"
	"testing"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// env is what the EVM tests share, set by TestMain: the networks, started
// by the tests that need them, and the activity made on the shared one.
var env *evmEnv

type evmEnv struct {
	*harness.Env
	// activity is one round of real activity per EVM chain of the shared
	// network (evmFixtures).
	activity harness.Once[[]*evmFixture]
}

func TestMain(m *testing.M) {
	env = &evmEnv{Env: harness.NewEnv("evm")}
	os.Exit(env.Run(m))
}
