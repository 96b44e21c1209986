package aggregator

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// hashMessage is a C-chain-style block hash message from chainID.
func hashMessage(t *testing.T, networkID uint32, chainID ids.ID) []byte {
	p, err := payload.NewHash(ids.GenerateTestID())
	require.NoError(t, err)
	u, err := warp.NewUnsignedMessage(networkID, chainID, p.Bytes())
	require.NoError(t, err)
	return u.Bytes()
}

// checkSigned parses a result and verifies it independently against the
// fake's set at quorum percent, returning the signers' node IDs.
func checkSigned(t *testing.T, n *fakeNetwork, res Result, msg []byte, quorum uint64) set.Set[ids.NodeID] {
	t.Helper()
	signed, err := warp.ParseMessage(res.SignedMessage)
	require.NoError(t, err)
	require.Equal(t, msg, signed.UnsignedMessage.Bytes())
	vdrs := n.warpSet()
	require.NoError(t, signed.Signature.Verify(&signed.UnsignedMessage, 5, vdrs, quorum, 100))
	bitSig, ok := signed.Signature.(*warp.BitSetSignature)
	require.True(t, ok)
	bits := set.BitsFromBytes(bitSig.Signers)
	out := set.Set[ids.NodeID]{}
	for i, v := range vdrs.Validators {
		if bits.Contains(i) {
			out.Add(v.NodeIDs...)
		}
	}
	require.Equal(t, res.Signers, out.Len())
	return out
}

func request(msg []byte, quorum, buffer uint64) Request {
	return Request{Message: msg, QuorumPercentage: quorum, QuorumPercentageBuffer: buffer}
}

func TestAggregateEqualStakes(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	a, chainID, _ := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
	require.NoError(t, err)
	// ceil(500*67/100) = 335: four validators.
	require.Equal(t, 4, checkSigned(t, n, res, msg, 67).Len())
	require.Equal(t, uint64(400), res.SignedWeight)
	require.Equal(t, uint64(500), res.TotalWeight)
	require.Equal(t, uint64(10), res.PChainHeight)

	// The buffer asks for all five.
	msg = hashMessage(t, 5, chainID)
	res, err = a.AggregateSignatures(context.Background(), request(msg, 67, 33))
	require.NoError(t, err)
	require.Equal(t, 5, checkSigned(t, n, res, msg, 100).Len())
}

func TestAggregatePrunesToHeaviest(t *testing.T) {
	n := newFakeNetwork(t, 60, 10, 10, 10, 10)
	a, chainID, _ := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	res, err := a.AggregateSignatures(context.Background(), request(msg, 50, 0))
	require.NoError(t, err)
	signers := checkSigned(t, n, res, msg, 50)
	require.Equal(t, set.Of(n.byWeight()[0].nodeID), signers)
}

func TestAggregateOneValidatorDown(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	down := n.byWeight()[0]
	down.connected = false
	a, chainID, _ := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
	require.NoError(t, err)
	signers := checkSigned(t, n, res, msg, 67)
	require.False(t, signers.Contains(down.nodeID))

	// 100% cannot be reached: the error says so once the down validator
	// has had its chance to connect, not at the end of the time budget.
	start := time.Now()
	_, err = a.AggregateSignatures(context.Background(), request(hashMessage(t, 5, chainID), 100, 0))
	require.Less(t, time.Since(start), 2*time.Second)
	require.Equal(t, KindUnavailable, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "signed (400 of 500), the quorum needs 100% (500)")
	require.ErrorContains(t, err, "1 validator(s) holding 20% could not be reached")
	require.ErrorContains(t, err, down.nodeID.String())
}

func TestAggregateSendFailures(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	broken := n.byWeight()[0]
	broken.sendFails = true
	a, chainID, _ := newTestAggregator(t, n)
	start := time.Now()
	_, err := a.AggregateSignatures(context.Background(), request(hashMessage(t, 5, chainID), 100, 0))
	require.Less(t, time.Since(start), time.Second)
	require.Equal(t, KindUnavailable, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "1 validator(s) holding 20% could not be reached")
	n.mu.Lock()
	defer n.mu.Unlock()
	require.Equal(t, testPolicy.maxAttempts, broken.sends, "tried again a few times, not in a loop")
}

func TestAggregateRefusals(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	for _, v := range n.vals {
		v.behaviour = always(refuse)
	}
	a, chainID, reg := newTestAggregator(t, n)
	start := time.Now()
	_, err := a.AggregateSignatures(context.Background(), request(hashMessage(t, 5, chainID), 67, 0))
	require.Less(t, time.Since(start), time.Second, "stops once the quorum is impossible")
	require.Equal(t, KindRefused, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "signed (0 of 500)")
	require.ErrorContains(t, err, `5 validator(s) holding 100% refused with AppError code 2 "failed to get block"`)
	// Asked again (a refusal may be transient), but no more than needed to
	// see that the quorum is out of reach.
	asked := 0
	for _, v := range n.vals {
		require.LessOrEqual(t, n.askedCount(v.nodeID), testPolicy.maxAttempts)
		asked += n.askedCount(v.nodeID)
	}
	require.Greater(t, asked, 5)
	require.Eventually(t, func() bool {
		return counterValue(t, reg, "app_errors_total", "code", "2") == float64(asked)
	}, time.Second, 10*time.Millisecond)
}

func TestAggregateRetriesTransientRefusals(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	for _, v := range n.vals {
		v.behaviour = refuseThenSign(1)
	}
	a, chainID, _ := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
	require.NoError(t, err)
	checkSigned(t, n, res, msg, 67)
}

func TestAggregateExcludesBadSignatures(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	liar := n.byWeight()[0]
	liar.behaviour = always(signWrongly)
	a, chainID, reg := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
	require.NoError(t, err)
	signers := checkSigned(t, n, res, msg, 67)
	require.False(t, signers.Contains(liar.nodeID))
	require.Eventually(t, func() bool {
		return counterValue(t, reg, "replies_total", "result", replyInvalidSignature) == 1
	}, time.Second, 10*time.Millisecond)
	require.Equal(t, 1, n.askedCount(liar.nodeID), "a validator that signs wrongly is not asked again")

	// With the buffer the liar's weight is missing: 80% still beats 67%.
	msg = hashMessage(t, 5, chainID)
	res, err = a.AggregateSignatures(context.Background(), request(msg, 67, 33))
	require.NoError(t, err)
	require.Equal(t, 4, checkSigned(t, n, res, msg, 67).Len())
}

func TestAggregateSilentValidators(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	vals := n.byWeight()
	vals[0].behaviour, vals[1].behaviour = always(silent), always(silent)
	a, chainID, _ := newTestAggregator(t, n)
	start := time.Now()
	_, err := a.AggregateSignatures(context.Background(), request(hashMessage(t, 5, chainID), 67, 0))
	require.Equal(t, KindUnavailable, KindOf(err), "%v", err)
	require.ErrorContains(t, err, "2 validator(s) holding 40% did not answer in time")
	require.Less(t, time.Since(start), time.Duration(testPolicy.maxAttempts+1)*testPolicy.requestTimeout)
}

func TestAggregateFromCache(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	a, chainID, reg := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	_, err := a.AggregateSignatures(context.Background(), request(msg, 100, 0))
	require.NoError(t, err)
	asked := n.totalAsked()

	res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
	require.NoError(t, err)
	checkSigned(t, n, res, msg, 67)
	require.Equal(t, asked, n.totalAsked(), "a cached message needs no request")
	require.Equal(t, float64(5), counterValue(t, reg, "signature_cache_hits_total", "", ""))
	require.Equal(t, float64(1), gaugeValue(t, reg, "signature_cache_messages"))
}

// A buffer the cache cannot meet while nobody else is reachable still
// returns at once with the quorum (icm-services hangs there).
func TestAggregateBufferFromCacheReturnsPromptly(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	slow := n.byWeight()[4]
	slow.behaviour = always(silent)
	a, chainID, _ := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	_, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
	require.NoError(t, err)
	for _, v := range n.vals {
		v.connected = false
	}
	start := time.Now()
	res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 33))
	require.NoError(t, err)
	require.Less(t, time.Since(start), 100*time.Millisecond)
	require.Equal(t, 4, checkSigned(t, n, res, msg, 67).Len())
}

func TestAggregateInvalidRequests(t *testing.T) {
	n := newFakeNetwork(t, 100, 100)
	a, chainID, _ := newTestAggregator(t, n)
	ctx := context.Background()
	cases := []struct {
		name string
		req  Request
		kind ErrorKind
		text string
	}{
		{"no message", Request{Justification: []byte{1}, QuorumPercentage: 67}, KindInvalidRequest, "message is required"},
		{"not a message", request([]byte{1, 2, 3}, 67, 0), KindInvalidRequest, "not an unsigned warp message"},
		{"other network", request(hashMessage(t, 6, chainID), 67, 0), KindInvalidRequest, "network ID 6, this node serves network ID 5"},
		{"unknown chain", request(hashMessage(t, 5, ids.GenerateTestID()), 67, 0), KindNotFound, "source chain"},
		{"height above tip", Request{Message: hashMessage(t, 5, chainID), QuorumPercentage: 67, PChainHeight: 13},
			KindInvalidRequest, "invalid pChainHeight 13: the P-chain is at height 12"},
		{"unknown subnet", Request{Message: hashMessage(t, 5, chainID), QuorumPercentage: 67,
			SigningSubnetID: ids.GenerateTestID(), HasSigningSubnetID: true}, KindNotFound, "has no validators"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.AggregateSignatures(ctx, tc.req)
			require.Equal(t, tc.kind, KindOf(err), "%v", err)
			require.ErrorContains(t, err, tc.text)
		})
	}
}

func TestIdenticalRequestsShareOneCollection(t *testing.T) {
	n := newFakeNetwork(t, 100, 100, 100, 100, 100)
	n.delay = 50 * time.Millisecond
	a, chainID, reg := newTestAggregator(t, n)
	msg := hashMessage(t, 5, chainID)
	const clients = 4 // the test aggregator's slots
	results := make(chan error, clients)
	for range clients {
		go func() {
			res, err := a.AggregateSignatures(context.Background(), request(msg, 67, 0))
			if err == nil {
				checkSigned(t, n, res, msg, 67)
			}
			results <- err
		}()
	}
	for range clients {
		require.NoError(t, <-results)
	}
	n.mu.Lock()
	sends := n.sends
	n.mu.Unlock()
	require.Equal(t, 1, sends, "one request to the validators for all")
	require.Equal(t, float64(clients-1), counterValue(t, reg, "shared_requests_total", "", ""))
}

func TestAggregateBusy(t *testing.T) {
	n := newFakeNetwork(t, 100)
	a, chainID, _ := newTestAggregator(t, n)
	for range cap(a.slots) {
		a.slots <- struct{}{}
	}
	_, err := a.AggregateSignatures(context.Background(), request(hashMessage(t, 5, chainID), 67, 0))
	require.Equal(t, KindBusy, KindOf(err), "%v", err)
}

func TestAggregateHonoursContext(t *testing.T) {
	n := newFakeNetwork(t, 100, 100)
	for _, v := range n.vals {
		v.behaviour = always(silent)
	}
	a, chainID, _ := newTestAggregator(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 1200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := a.AggregateSignatures(ctx, request(hashMessage(t, 5, chainID), 67, 0))
	require.Equal(t, KindUnavailable, KindOf(err), "%v", err)
	// The request's deadline less deadlineMargin, not the 5 s timeout.
	require.Less(t, time.Since(start), time.Second)
}

func counterValue(t *testing.T, reg *prometheus.Registry, name, label, value string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if label == "" {
				return m.GetCounter().GetValue()
			}
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	return 0
}

func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() == name {
			return f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	return 0
}
