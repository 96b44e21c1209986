package primary

import (
	"os"
	"testing"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// env is what the primary-network tests share, set by TestMain: the
// networks, started by the tests that need them, and the scenarios run on
// the shared one.
var env *primaryEnv

type primaryEnv struct {
	*harness.Env
	primary harness.Once[*primaryScenario] // primaryScenarioFixture
	staking harness.Once[*stakingScenario] // stakingScenarioFixture
	l1      harness.Once[*l1Scenario]      // l1ScenarioFixture
}

func TestMain(m *testing.M) {
	env = &primaryEnv{Env: harness.NewEnv("primary")}
	os.Exit(env.Run(m))
}
