package sigagg

import (
	"context"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/aggregator"
)

// sigAggLateAnswerCached: a validator that answers after the quorum was
// reached still has its signature cached, so that asking the same message
// again for more weight needs no request. The answer is made late for
// sure: the validator's process is paused (SIGSTOP) while the others reach
// 67%, and resumed once the reply is back, so it can only answer then.
func sigAggLateAnswerCached(t *testing.T, ctx context.Context, on *offChainNet) {
	msg := on.take(t, 1)[0]
	late := on.n.Network().Nodes[2]
	pid := nodePID(t, late)
	before := on.settle(t, ctx)

	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP), "pausing %s", late.NodeID)
	paused := true
	resume := func() {
		if paused {
			require.NoError(t, syscall.Kill(pid, syscall.SIGCONT), "resuming %s", late.NodeID)
			paused = false
		}
	}
	defer resume()
	r := on.aggregate(t, ctx, messageRequest(msg, nil))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, sigAggNodes-1, on.verify(t, ctx, r, msg, 67))
	mid, err := on.scrape(ctx)
	require.NoError(t, err)
	require.Equal(t, float64(sigAggNodes), mid.mustValue(t, metricSignaturesRequested)-before.mustValue(t, metricSignaturesRequested),
		"every validator, the paused one included, was asked")
	require.Equal(t, float64(sigAggNodes-1), mid.counter(metricReplies, `result="valid"`)-before.counter(metricReplies, `result="valid"`),
		"the paused validator had not answered when the reply came back")
	resume()

	// Its answer arrives after the request ended (settle waits for it).
	settled := on.settle(t, ctx)
	require.Equal(t, float64(sigAggNodes), settled.counter(metricReplies, `result="valid"`)-before.counter(metricReplies, `result="valid"`),
		"the paused validator's late answer is a valid signature")

	r = on.aggregate(t, ctx, messageRequest(msg, map[string]any{"quorumPercentageBuffer": 33}))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, sigAggNodes, on.verify(t, ctx, r, msg, 100), "all five, the late one included")
	after, err := on.scrape(ctx)
	require.NoError(t, err)
	require.Equal(t, settled.mustValue(t, metricSignaturesRequested), after.mustValue(t, metricSignaturesRequested),
		"no request sent: the answer came from the cache")
	require.Equal(t, float64(sigAggNodes), after.mustValue(t, metricCacheHits)-settled.mustValue(t, metricCacheHits))
}

// sigAggBufferFromCacheValidatorsDown: a request with a buffer whose
// cached signatures already meet the quorum, while the validators that
// could add the buffer are down, answers at once with what it has
// (icm-services waits there until its time budget runs out). It stops two
// validators, so it runs last.
func sigAggBufferFromCacheValidatorsDown(t *testing.T, ctx context.Context, on *offChainNet) {
	msg := on.take(t, 1)[0]
	nodes := on.n.Network().Nodes
	neverSigned, downAfter := nodes[3], nodes[4]
	require.NoError(t, neverSigned.Stop(ctx))
	on.waitConnectedBelow(t, ctx, 100)

	// The validators that can sign do (four, unless one stalled); the buffer
	// cannot be met.
	r := on.aggregate(t, ctx, messageRequest(msg, map[string]any{"quorumPercentageBuffer": 33}))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	signers := on.verify(t, ctx, r, msg, 67)
	require.Less(t, signers, sigAggNodes)
	on.settle(t, ctx)

	// Another one goes down after signing: the cache holds its signature,
	// and the only validator missing for the buffer cannot be reached.
	connected := on.connectedPercent(t, ctx)
	require.NoError(t, downAfter.Stop(ctx))
	on.waitConnectedBelow(t, ctx, connected)
	before := on.settle(t, ctx)
	start := time.Now()
	r = on.aggregate(t, ctx, messageRequest(msg, map[string]any{"quorumPercentageBuffer": 33}))
	elapsed := time.Since(start)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, signers, on.verify(t, ctx, r, msg, 67))
	after := on.settle(t, ctx)
	require.Equal(t, before.mustValue(t, metricSignaturesRequested), after.mustValue(t, metricSignaturesRequested),
		"answered from the cache alone")
	require.Equal(t, float64(signers), after.mustValue(t, metricCacheHits)-before.mustValue(t, metricCacheHits))
	t.Logf("buffer unreachable, quorum cached: answered in %v (time budget %v)", elapsed, aggregator.DefaultTimeout)
	require.Less(t, elapsed, aggregator.DefaultTimeout, "answered before the time budget ran out, not at its end")
}

// waitConnectedBelow waits until the aggregator has seen a stopped
// validator go: the connected primary stake in its health details (live at
// each health check, where the metric waits for the next refresh) falls
// below percent.
func (on *offChainNet) waitConnectedBelow(t *testing.T, ctx context.Context, percent float64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		stake := on.connectedPercent(t, ctx)
		if stake < percent {
			return
		}
		require.True(t, time.Now().Before(deadline), "the aggregator still counts %v%% of the stake connected", stake)
		time.Sleep(200 * time.Millisecond)
	}
}
