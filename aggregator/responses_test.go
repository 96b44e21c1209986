package aggregator

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// replies collects what a request's handler receives.
type replies struct {
	mu  sync.Mutex
	got []reply
}

func (r *replies) add(rep reply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, rep)
}

func (r *replies) all() []reply {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]reply(nil), r.got...)
}

func newTestTracker(t *testing.T) (*requestTracker, *prometheus.Registry) {
	reg := prometheus.NewRegistry()
	m, err := newMetrics(reg, func() int { return 0 })
	require.NoError(t, err)
	return newRequestTracker(logging.NoLog{}, m), reg
}

func TestRequestTrackerMatchesAnswers(t *testing.T) {
	tr, reg := newTestTracker(t)
	chainID := ids.GenerateTestID()
	a, b, c, stranger := ids.GenerateTestNodeID(), ids.GenerateTestNodeID(), ids.GenerateTestNodeID(), ids.GenerateTestNodeID()
	var got replies
	id, err := tr.register(chainID, set.Of(a, b, c), time.Hour, got.add)
	require.NoError(t, err)
	require.Equal(t, uint32(1), id%2, "request IDs are odd")
	next, err := tr.register(chainID, set.Of(a), time.Hour, func(reply) {})
	require.NoError(t, err)
	require.Equal(t, id+2, next)

	body, err := proto.Marshal(&sdk.SignatureResponse{Signature: []byte{1, 2, 3}})
	require.NoError(t, err)
	tr.HandleInbound(context.Background(), message.InboundAppResponse(chainID, id, body, a))
	tr.HandleInbound(context.Background(), message.InboundAppResponse(chainID, id, body, a))        // duplicate
	tr.HandleInbound(context.Background(), message.InboundAppResponse(chainID, id, body, stranger)) // never asked
	tr.HandleInbound(context.Background(), message.InboundAppError(b, chainID, id, 6, "conversion does not exist"))
	tr.HandleInbound(context.Background(), message.InboundAppResponse(ids.GenerateTestID(), id, body, c)) // wrong chain

	all := got.all()
	require.Len(t, all, 3)
	require.Equal(t, reply{nodeID: a, signature: []byte{1, 2, 3}}, all[0])
	require.Equal(t, b, all[1].nodeID)
	require.Equal(t, int32(6), all[1].appErr.Code)
	require.Equal(t, "conversion does not exist", all[1].appErr.Message)
	require.Equal(t, c, all[2].nodeID)
	require.ErrorContains(t, all[2].malformed, "the request was for")
	require.Equal(t, 1, tr.pendingCount(), "every node answered the first request")
	require.Equal(t, float64(2), counterValue(t, reg, "unexpected_replies_total", "", ""))
}

func TestRequestTrackerTimesOut(t *testing.T) {
	tr, _ := newTestTracker(t)
	chainID := ids.GenerateTestID()
	a, b := ids.GenerateTestNodeID(), ids.GenerateTestNodeID()
	var got replies
	id, err := tr.register(chainID, set.Of(a, b), 50*time.Millisecond, got.add)
	require.NoError(t, err)
	tr.notSent(id, []ids.NodeID{b})
	require.Eventually(t, func() bool { return len(got.all()) == 2 }, time.Second, 5*time.Millisecond)
	all := got.all()
	require.Equal(t, reply{nodeID: b, notSent: true}, all[0])
	require.Equal(t, reply{nodeID: a, timedOut: true}, all[1])
	require.Zero(t, tr.pendingCount())

	// After the timeout the answer is unexpected, but still handled.
	tr.HandleInbound(context.Background(), message.InboundAppError(a, chainID, id, 1, "late"))
	require.Len(t, got.all(), 2)
}

func TestRequestTrackerClose(t *testing.T) {
	tr, _ := newTestTracker(t)
	_, err := tr.register(ids.GenerateTestID(), set.Of(ids.GenerateTestNodeID()), time.Hour, func(reply) {})
	require.NoError(t, err)
	tr.close()
	require.Zero(t, tr.pendingCount())
	_, err = tr.register(ids.GenerateTestID(), set.Of(ids.GenerateTestNodeID()), time.Hour, func(reply) {})
	require.ErrorIs(t, err, errTrackerClosed)
}

func TestIdentityIsStable(t *testing.T) {
	dir := t.TempDir()
	first, err := loadIdentity(dir)
	require.NoError(t, err)
	second, err := loadIdentity(dir)
	require.NoError(t, err)
	require.Equal(t, first.NodeID, second.NodeID)
	require.NotEqual(t, ids.EmptyNodeID, first.NodeID)
	other, err := loadIdentity(t.TempDir())
	require.NoError(t, err)
	require.NotEqual(t, first.NodeID, other.NodeID)
}

func TestWeightFor(t *testing.T) {
	require.Equal(t, uint64(335), weightFor(500, 67))
	require.Equal(t, uint64(3), weightFor(4, 67))
	require.Equal(t, uint64(1), weightFor(500, 0), "an aggregate needs a signer")
	require.Equal(t, uint64(500), weightFor(500, 100))
	// No overflow at mainnet weights.
	require.Equal(t, uint64(1)<<61, weightFor(uint64(1)<<62, 50))
	require.Equal(t, uint64(math.MaxUint64), weightFor(math.MaxUint64, 100))
}
