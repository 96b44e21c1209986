// Package webhooks proves the webhooks end to end against real nodes: the
// management API and the official SDK's webhooks.* calls, every event kind
// and sub-event from real activity on a local network (EVM transfers and
// token transfers on both EVM chains, X and P transfers, imports and
// exports, staking rewards, L1 validator balances) checked against the
// node's own data, every delivery's signature checked by the SDK's
// validateWebhook, and delivery across kill -9, a receiver down or hanging
// (make test-e2e-webhooks; make build first). The receivers run inside the
// tests, on loopback (harness.WebhookReceiver).
package webhooks

import (
	"os"
	"testing"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// env is what the webhooks tests share, set by TestMain: the networks,
// started by the tests that need them.
var env *webhooksEnv

type webhooksEnv struct {
	*harness.Env
}

func TestMain(m *testing.M) {
	env = &webhooksEnv{Env: harness.NewEnv("webhooks")}
	os.Exit(env.Run(m))
}
