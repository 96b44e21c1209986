package aggregator

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/snow/validators/validatorstest"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// behaviour is how a fake validator answers its n-th request (from 1).
type behaviour func(attempt int) answer

type answer int

const (
	sign answer = iota
	refuse
	silent
	signWrongly
	signEmpty
)

func always(a answer) behaviour { return func(int) answer { return a } }

// refuseThenSign refuses the first n requests (a block not accepted yet).
func refuseThenSign(n int) behaviour {
	return func(attempt int) answer {
		if attempt <= n {
			return refuse
		}
		return sign
	}
}

type fakeValidator struct {
	nodeID    ids.NodeID
	signer    *localsigner.LocalSigner
	weight    uint64
	behaviour behaviour
	connected bool
	// sendFails: reported connected, but every send to it fails (its
	// connection just dropped, or its send queue is full).
	sendFails bool
	sends     int
}

// fakeNetwork answers signature requests as its validators would, after
// delay, on goroutines of its own like a peer's.
type fakeNetwork struct {
	t     *testing.T
	delay time.Duration

	mu    sync.Mutex
	vals  map[ids.NodeID]*fakeValidator
	asked map[ids.NodeID]int
	sends int
}

func newFakeNetwork(t *testing.T, weights ...uint64) *fakeNetwork {
	n := &fakeNetwork{t: t, vals: map[ids.NodeID]*fakeValidator{}, asked: map[ids.NodeID]int{}}
	for _, w := range weights {
		sk, err := localsigner.New()
		require.NoError(t, err)
		id := ids.GenerateTestNodeID()
		n.vals[id] = &fakeValidator{nodeID: id, signer: sk, weight: w, behaviour: always(sign), connected: true}
	}
	return n
}

// byWeight returns the validators, heaviest first (ties by node ID).
func (n *fakeNetwork) byWeight() []*fakeValidator {
	out := make([]*fakeValidator, 0, len(n.vals))
	for _, v := range n.vals {
		out = append(out, v)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].weight > out[i].weight || out[j].weight == out[i].weight && out[j].nodeID.Compare(out[i].nodeID) < 0 {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func (n *fakeNetwork) warpSet() validators.WarpSet {
	m := map[ids.NodeID]*validators.GetValidatorOutput{}
	for id, v := range n.vals {
		m[id] = &validators.GetValidatorOutput{NodeID: id, PublicKey: v.signer.PublicKey(), Weight: v.weight}
	}
	set, err := validators.FlattenValidatorSet(m)
	require.NoError(n.t, err)
	return set
}

func (n *fakeNetwork) askedCount(id ids.NodeID) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.asked[id]
}

func (n *fakeNetwork) totalAsked() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	total := 0
	for _, c := range n.asked {
		total += c
	}
	return total
}

func (n *fakeNetwork) connected(nodeIDs []ids.NodeID) set.Set[ids.NodeID] {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := set.Set[ids.NodeID]{}
	for _, id := range nodeIDs {
		if v, ok := n.vals[id]; ok && v.connected {
			out.Add(id)
		}
	}
	return out
}

func (n *fakeNetwork) requestSignatures(_ ids.ID, msg, _ []byte, nodes set.Set[ids.NodeID],
	timeout time.Duration, onReply replyHandler,
) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sends++
	for id := range nodes {
		v := n.vals[id]
		v.sends++
		if !v.connected || v.sendFails {
			go onReply(reply{nodeID: id, notSent: true})
			continue
		}
		n.asked[id]++
		what := v.behaviour(n.asked[id])
		go func() {
			time.Sleep(n.delay)
			switch what {
			case sign:
				sig, err := v.signer.Sign(msg)
				require.NoError(n.t, err)
				onReply(reply{nodeID: id, signature: bls.SignatureToBytes(sig)})
			case signWrongly:
				sig, err := v.signer.Sign(append([]byte("not "), msg...))
				require.NoError(n.t, err)
				onReply(reply{nodeID: id, signature: bls.SignatureToBytes(sig)})
			case signEmpty:
				onReply(reply{nodeID: id, signature: make([]byte, bls.SignatureLen)})
			case refuse:
				onReply(reply{nodeID: id, appErr: &common.AppError{Code: 2, Message: "failed to get block"}})
			case silent:
				time.Sleep(timeout - n.delay)
				onReply(reply{nodeID: id, timedOut: true})
			}
		}()
	}
	return nil
}

// newTestAggregator is an Aggregator over the fake network, for network ID
// 5 and one source chain validated by the fake's validators at height 10.
func newTestAggregator(t *testing.T, n *fakeNetwork) (*Aggregator, ids.ID, *prometheus.Registry) {
	chainID, subnetID := ids.GenerateTestID(), ids.GenerateTestID()
	vdrs := n.warpSet()
	state := &validatorstest.State{
		T: t,
		GetSubnetIDF: func(_ context.Context, c ids.ID) (ids.ID, error) {
			if c != chainID {
				return ids.Empty, errUnknownChain
			}
			return subnetID, nil
		},
		GetMinimumHeightF: func(context.Context) (uint64, error) { return 10, nil },
		GetCurrentHeightF: func(context.Context) (uint64, error) { return 12, nil },
		GetWarpValidatorSetsF: func(_ context.Context, h uint64) (map[ids.ID]validators.WarpSet, error) {
			return map[ids.ID]validators.WarpSet{subnetID: vdrs}, nil
		},
	}
	reg := prometheus.NewRegistry()
	cache := newSignatureCache(DefaultCacheBytes)
	m, err := newMetrics(reg, cache.len)
	require.NoError(t, err)
	return &Aggregator{
		log: logging.NoLog{}, cfg: Config{Timeout: 5 * time.Second}.withDefaults(), networkID: 5,
		view: newValidatorView(state), requester: n, cache: cache, metrics: m,
		slots: make(chan struct{}, 4), createdAt: time.Now().Add(-time.Hour), running: true,
		policy: testPolicy, connectWait: testConnectWait, flights: newFlights(),
	}, chainID, reg
}

// testPolicy is the production policy with shorter waits.
var testPolicy = collectPolicy{
	requestTimeout: 300 * time.Millisecond,
	maxAttempts:    3,
	retryBackoff:   20 * time.Millisecond,
	pollInterval:   10 * time.Millisecond,
	coverPercent:   95,
}

// testConnectWait replaces connectWait.
const testConnectWait = 200 * time.Millisecond

var errUnknownChain = errors.New("unknown chain")
