package operator

import (
	"os"
	"testing"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// env is the package's shared networks, started by the tests that need them.
var env *harness.Env

func TestMain(m *testing.M) {
	env = harness.NewEnv("operator")
	os.Exit(env.Run(m))
}
