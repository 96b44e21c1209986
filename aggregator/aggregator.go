package aggregator

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// Config tunes the aggregator; zero fields take the Default* values.
type Config struct {
	// Timeout bounds one aggregation. The request's own deadline (the HTTP
	// layer's time budget, itself below the node's HTTP write timeout)
	// bounds it too, less deadlineMargin, so a shortfall is reported with
	// its reasons rather than cut by the HTTP layer.
	Timeout time.Duration
	// MaxConcurrent aggregations run at once; more are refused (429).
	MaxConcurrent int
	// CacheBytes bounds the cache of verified signatures.
	CacheBytes int
}

// Defaults of Config.
const (
	DefaultTimeout       = 15 * time.Second
	DefaultMaxConcurrent = 64
	DefaultCacheBytes    = 64 << 20
)

// Fixed tuning; see collectPolicy.
const (
	deadlineMargin  = time.Second
	requestTimeout  = 4 * time.Second
	maxAttempts     = 3
	retryBackoff    = 250 * time.Millisecond
	connectWait     = 2 * time.Second
	startupGrace    = 15 * time.Second
	pollInterval    = 100 * time.Millisecond
	coverPercent    = 95
	refreshInterval = 15 * time.Second
)

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = DefaultMaxConcurrent
	}
	if c.CacheBytes <= 0 {
		c.CacheBytes = DefaultCacheBytes
	}
	return c
}

// Params is what the aggregator takes from its host.
type Params struct {
	Log logging.Logger
	// NetworkID is the host's network; messages of another are refused.
	NetworkID uint32
	// HostNodeID is the host node, the first peer.
	HostNodeID ids.NodeID
	// ValidatorState is the host's P-chain validator state.
	ValidatorState validators.State
	// ChainDataDir keeps the aggregator's TLS identity.
	ChainDataDir string
	// Metrics receives the aggregator's metrics, NetworkMetrics its p2p
	// network's (peers, throttling); their names must not collide.
	Metrics, NetworkMetrics prometheus.Registerer
	Config                  Config
}

// Aggregator gathers warp signatures from validators over its own p2p
// connections.
type Aggregator struct {
	log       logging.Logger
	cfg       Config
	networkID uint32
	identity  Identity
	view      *validatorView
	net       *peerNetwork
	requester signatureRequester // net, but for unit tests
	// policy is the collectPolicy of every request but its connectDeadline;
	// connectWait is how long a request waits for validators to connect.
	policy      collectPolicy
	connectWait time.Duration
	keeper      *connectionKeeper
	flights     *flights    // identical requests being collected
	txs         pchainState // committed P-chain txs and L1 validators, for GET by tx hash
	cache       *signatureCache
	metrics     *metrics
	slots       chan struct{}
	createdAt   time.Time

	mu      sync.Mutex
	running bool
}

// New builds the aggregator and its p2p network; Run connects it.
func New(p Params) (*Aggregator, error) {
	cfg := p.Config.withDefaults()
	identity, err := loadIdentity(p.ChainDataDir)
	if err != nil {
		return nil, err
	}
	cache := newSignatureCache(cfg.CacheBytes)
	m, err := newMetrics(p.Metrics, cache.len)
	if err != nil {
		return nil, err
	}
	net, err := newPeerNetwork(p.Log, p.NetworkMetrics, p.NetworkID, identity, newRequestTracker(p.Log, m))
	if err != nil {
		return nil, err
	}
	view := newValidatorView(p.ValidatorState)
	keeper := newConnectionKeeper(p.Log, view, net, m, p.HostNodeID, refreshInterval)
	a := &Aggregator{
		log: p.Log, cfg: cfg, networkID: p.NetworkID, identity: identity, view: view, net: net, requester: net,
		keeper: keeper, txs: platformTxSource{nodeURI: keeper.nodeURI, view: view}, flights: newFlights(),
		cache: cache, metrics: m, slots: make(chan struct{}, cfg.MaxConcurrent), createdAt: time.Now(),
		policy: collectPolicy{
			requestTimeout: requestTimeout,
			maxAttempts:    maxAttempts,
			retryBackoff:   retryBackoff,
			pollInterval:   pollInterval,
			coverPercent:   coverPercent,
		},
		connectWait: connectWait,
	}
	p.Log.Info("signature aggregator created: validators see it as this NodeID (allow-list it where peers are restricted)",
		zap.Stringer("nodeID", identity.NodeID), zap.String("cert", identity.CertPath))
	return a, nil
}

// NodeID is the aggregator's p2p identity.
func (a *Aggregator) NodeID() ids.NodeID { return a.identity.NodeID }

// Run connects to the validators and keeps them connected until ctx ends,
// then closes every connection and returns once they are closed. nodeURI
// blocks until the host node's HTTP address is known. A panic in any of
// its goroutines is logged and ends the aggregator, not the process.
func (a *Aggregator) Run(ctx context.Context, nodeURI func(context.Context) (string, error)) {
	a.setRunning(true)
	defer a.setRunning(false)
	var wg sync.WaitGroup
	dispatched := make(chan struct{})
	a.goRecovered(&wg, "p2p network", func() {
		defer close(dispatched)
		if err := a.net.run(); err != nil && ctx.Err() == nil {
			a.log.Warn("signature aggregator: p2p network stopped", zap.Error(err))
		}
	})
	a.goRecovered(&wg, "validator connections", func() { a.keeper.run(ctx, nodeURI) })
	select {
	case <-ctx.Done():
	case <-dispatched: // ended early (a panic): nothing left to run
	}
	a.net.close()
	wg.Wait()
}

func (a *Aggregator) setRunning(running bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running = running
}

func (a *Aggregator) goRecovered(wg *sync.WaitGroup, name string, fn func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				a.log.Error("signature aggregator task panicked", zap.String("task", name),
					zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
			}
		}()
		fn()
	}()
}

// AggregateSignatures collects the validators' signatures of req's message
// and returns the signed message, verified against the validator set.
func (a *Aggregator) AggregateSignatures(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	a.metrics.inflight.Inc()
	res, err := a.aggregate(ctx, req)
	a.metrics.inflight.Dec()
	outcome := outcome(err)
	a.metrics.requests.WithLabelValues(outcome).Inc()
	a.metrics.duration.WithLabelValues(outcome).Observe(time.Since(start).Seconds())
	if outcome == outcomeInternal {
		a.log.Error("signature aggregation failed", zap.Error(err))
	}
	return res, err
}

func (a *Aggregator) aggregate(ctx context.Context, req Request) (Result, error) {
	select {
	case a.slots <- struct{}{}:
		defer func() { <-a.slots }()
	default:
		return Result{}, newError(KindBusy, "%d signature aggregations are running, the most this node allows; try again shortly",
			a.cfg.MaxConcurrent)
	}
	unsigned, err := a.parseMessage(req)
	if err != nil {
		return Result{}, err
	}
	deadline := time.Now().Add(a.cfg.Timeout)
	if d, ok := ctx.Deadline(); ok {
		deadline = earliest(deadline, d.Add(-deadlineMargin))
	}
	ctx, cancel := context.WithDeadline(ctx, deadline.Add(deadlineMargin/2))
	defer cancel()

	subnetID, height, vdrs, err := a.signingSet(ctx, req, unsigned)
	if err != nil {
		return Result{}, unavailableIfDone(ctx, err)
	}
	required := weightFor(vdrs.TotalWeight, req.QuorumPercentage)
	var signable uint64
	for _, v := range vdrs.Validators {
		signable += v.Weight
	}
	if signable < required {
		return Result{}, newError(KindRefused,
			"validators with a BLS key hold %s of subnet %s's weight at P-chain height %d; a quorum of %d%% cannot be reached",
			percentOf(signable, vdrs.TotalWeight), subnetID, height, req.QuorumPercentage)
	}
	if a.keeper != nil {
		a.keeper.use(subnetID)
	}
	key := newFlightKey(unsigned.ID(), req.Justification, subnetID, height, req.QuorumPercentage, req.QuorumPercentageBuffer)
	res, err, shared := a.flights.do(ctx, key, func() (Result, error) {
		return a.collect(ctx, deadline, unsigned, req, subnetID, height, vdrs)
	})
	if shared {
		a.metrics.sharedRequests.Inc()
	}
	return res, unavailableIfDone(ctx, err)
}

// collect gathers the signatures from vdrs, then builds and verifies the
// signed message.
func (a *Aggregator) collect(
	ctx context.Context,
	deadline time.Time,
	unsigned *warp.UnsignedMessage,
	req Request,
	subnetID ids.ID,
	height uint64,
	vdrs validators.WarpSet,
) (Result, error) {
	required := weightFor(vdrs.TotalWeight, req.QuorumPercentage)
	target := weightFor(vdrs.TotalWeight, req.QuorumPercentage+req.QuorumPercentageBuffer)
	policy := a.policy
	policy.connectDeadline = earliest(deadline, latest(time.Now().Add(a.connectWait), a.createdAt.Add(startupGrace)))
	c := newCollection(unsigned, req.Justification, vdrs, required, target, policy, a.requester, a.cache, a.metrics)
	if err := c.run(ctx, deadline); err != nil {
		r := c.report()
		return Result{}, &Error{Kind: KindUnavailable, Quorum: r,
			Message: fmt.Sprintf("the request ended before the quorum was reached (%v): %s", err, r)}
	}
	if c.signedWeight < required {
		r := c.report()
		return Result{}, &Error{Kind: r.kind(), Message: r.String(), Quorum: r}
	}
	msg, weight, signers, err := buildSignedMessage(unsigned, vdrs, c.signatures(), target)
	if err != nil {
		return Result{}, err
	}
	// The signed message must verify exactly as a receiving chain would
	// verify it; anything else is a bug here, never the client's problem.
	if err := msg.Signature.Verify(unsigned, a.networkID, vdrs, req.QuorumPercentage, quorumDenominator); err != nil {
		return Result{}, fmt.Errorf("the aggregated signature of message %s does not verify against subnet %s at P-chain height %d: %w",
			unsigned.ID(), subnetID, height, err)
	}
	return Result{
		SignedMessage: msg.Bytes(), PChainHeight: height, SigningSubnetID: subnetID,
		SignedWeight: weight, TotalWeight: vdrs.TotalWeight, Signers: signers,
	}, nil
}

func latest(t, other time.Time) time.Time {
	if other.After(t) {
		return other
	}
	return t
}

// parseMessage checks the message itself.
func (a *Aggregator) parseMessage(req Request) (*warp.UnsignedMessage, error) {
	if len(req.Message) == 0 {
		return nil, newError(KindInvalidRequest,
			"message is required: a justification alone names no message to sign; give the unsigned warp message, hex-encoded")
	}
	unsigned, err := warp.ParseUnsignedMessage(req.Message)
	if err != nil {
		return nil, newError(KindInvalidRequest, "invalid message: not an unsigned warp message (%v)", err)
	}
	if unsigned.NetworkID != a.networkID {
		return nil, newError(KindInvalidRequest, "invalid message: it is for network ID %d, this node serves network ID %d",
			unsigned.NetworkID, a.networkID)
	}
	return unsigned, nil
}

// signingSet resolves the signing subnet, the P-chain height and the
// validator set.
func (a *Aggregator) signingSet(ctx context.Context, req Request, unsigned *warp.UnsignedMessage) (ids.ID, uint64, validators.WarpSet, error) {
	subnetID := req.SigningSubnetID
	if !req.HasSigningSubnetID {
		var err error
		if subnetID, err = a.view.sourceSubnet(ctx, unsigned.SourceChainID); err != nil {
			return ids.Empty, 0, validators.WarpSet{}, err
		}
	}
	height := req.PChainHeight
	if height == 0 {
		var err error
		if height, err = a.view.proposedHeight(ctx); err != nil {
			return ids.Empty, 0, validators.WarpSet{}, err
		}
	} else {
		current, err := a.view.currentHeight(ctx)
		if err != nil {
			return ids.Empty, 0, validators.WarpSet{}, err
		}
		if height > current {
			return ids.Empty, 0, validators.WarpSet{}, newError(KindInvalidRequest,
				"invalid pChainHeight %d: the P-chain is at height %d", height, current)
		}
	}
	vdrs, err := a.view.warpSet(ctx, height, subnetID)
	return subnetID, height, vdrs, err
}

// unavailableIfDone turns a context error into a 503-kind error.
func unavailableIfDone(ctx context.Context, err error) error {
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return newError(KindUnavailable, "the request ended before its signatures were collected: %v", err)
	}
	return err
}
