package evm

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestEVMStatusShowsTraceAvailability checks /v1/status says, per EVM chain,
// whether the node traced the last indexed block (both local EVM chains run
// with debug-tracer and as archive nodes), and says nothing of it for P and X.
func TestEVMStatusShowsTraceAvailability(t *testing.T) {
	evmFixtures(t) // every EVM chain has indexed traced blocks
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	statuses := harness.AvadataStatus(t, ctx, env.Base(t))
	for _, chain := range env.Net(t).EVMChains() {
		name := chain.Name
		if name == "C-Chain" {
			name = "C"
		}
		s, ok := statuses[name]
		require.True(t, ok, "no status for %s: %+v", name, statuses)
		require.NotNil(t, s.TracesAvailable, "%s", name)
		require.True(t, *s.TracesAvailable, "%s", name)
	}
	for _, name := range []string{"P", "X"} {
		require.Nil(t, statuses[name].TracesAvailable, name)
	}
}
