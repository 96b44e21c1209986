package aggregator

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
)

// signatureRequester is what collecting needs of the p2p network
// (*peerNetwork; a fake in unit tests).
type signatureRequester interface {
	// requestSignatures sends one ACP-118 request to nodes; each node's
	// reply, or its timeout, goes to onReply.
	requestSignatures(sourceChainID ids.ID, unsignedMsg, justification []byte,
		nodes set.Set[ids.NodeID], timeout time.Duration, onReply replyHandler) error
	// connected returns which of nodeIDs are connected.
	connected(nodeIDs []ids.NodeID) set.Set[ids.NodeID]
}

// collectPolicy tunes how hard a collection tries.
type collectPolicy struct {
	// requestTimeout bounds one request to a validator.
	requestTimeout time.Duration
	// maxAttempts is how often a validator that refused or stayed silent
	// is asked, as long as the quorum still needs it; retryBackoff is the
	// wait before the second attempt after a refusal, doubled after each
	// (a C-chain validator refuses a block it has not accepted yet, and
	// accepts it a moment later).
	maxAttempts  int
	retryBackoff time.Duration
	// connectDeadline is when validators none of whose nodes is connected
	// are given up on, if the quorum still needs them; once the quorum is
	// met they are given up on at once. pollInterval is how often
	// connections are looked at again until then.
	connectDeadline time.Time
	pollInterval    time.Duration
	// coverPercent of the weight is asked at first (heaviest first), so
	// that a few refusals or silences need no second round; lighter
	// validators are asked once those fail.
	coverPercent uint64
}

// signerState is where one validator of the set stands.
type signerState uint8

const (
	stateIdle        signerState = iota // to be asked, at retryAt
	stateAsking                         // asked; waiting for its nodes
	stateSigned                         // its signature verified
	stateRefused                        // final: refused every time it was asked
	stateInvalid                        // final: answered with a bad signature
	stateUnreachable                    // final: none of its nodes connected
	stateTimedOut                       // final: connected, but silent
)

// signer is one validator (BLS key) of the signing set.
type signer struct {
	index    int // in the canonical set, i.e. its bit in the signature
	vdr      *validators.Warp
	state    signerState
	attempts int       // requests sent to it
	waiting  int       // nodes of the current attempt that have not answered
	retryAt  time.Time // when an idle signer may be asked again
	// last is the worst answer of the current attempt so far;
	// refusal the last AppError it gave.
	last    string
	refusal *common.AppError
	sig     *bls.Signature
}

// collection gathers the signatures of one message from one validator set
// until target weight has signed, the quorum has become impossible, or
// time runs out. run owns the signers; replies arrive on other goroutines
// and are verified there, then queued in the inbox for run to apply.
type collection struct {
	unsigned      *warp.UnsignedMessage
	msgID         ids.ID
	justification []byte
	vdrs          validators.WarpSet
	required      uint64 // the quorum's weight
	target        uint64 // with the buffer
	policy        collectPolicy
	net           signatureRequester
	cache         *signatureCache
	metrics       *metrics

	signers      []*signer // heaviest first
	byNode       map[ids.NodeID]*signer
	signedWeight uint64
	cacheHits    int

	mu       sync.Mutex
	inbox    []verdict
	finished bool // late replies are only cached
	notify   chan struct{}
}

func newCollection(
	unsigned *warp.UnsignedMessage,
	justification []byte,
	vdrs validators.WarpSet,
	required, target uint64,
	policy collectPolicy,
	net signatureRequester,
	cache *signatureCache,
	m *metrics,
) *collection {
	c := &collection{
		unsigned: unsigned, msgID: unsigned.ID(), justification: justification, vdrs: vdrs,
		required: required, target: target, policy: policy, net: net, cache: cache, metrics: m,
		byNode: map[ids.NodeID]*signer{}, notify: make(chan struct{}, 1),
	}
	keys := make([][]byte, len(vdrs.Validators))
	for i, vdr := range vdrs.Validators {
		s := &signer{index: i, vdr: vdr}
		c.signers = append(c.signers, s)
		for _, nodeID := range vdr.NodeIDs {
			c.byNode[nodeID] = s
		}
		keys[i] = vdr.PublicKeyBytes
	}
	sortHeaviestFirst(c.signers)
	cached := cache.lookup(c.msgID, keys)
	for _, s := range c.signers {
		if sig, ok := cached[string(s.vdr.PublicKeyBytes)]; ok {
			c.markSigned(s, sig)
			c.cacheHits++
		}
	}
	m.cacheHits.Add(float64(c.cacheHits))
	return c
}

// sortHeaviestFirst orders signers by weight, equal weights in canonical
// order: the heaviest answer for the most weight per request.
func sortHeaviestFirst(signers []*signer) {
	slices.SortStableFunc(signers, func(a, b *signer) int { return cmp.Compare(b.vdr.Weight, a.vdr.Weight) })
}

func (c *collection) markSigned(s *signer, sig *bls.Signature) {
	s.state, s.sig = stateSigned, sig
	c.signedWeight += s.vdr.Weight
}

// signatures returns the verified signatures by canonical index.
func (c *collection) signatures() map[int]*bls.Signature {
	out := map[int]*bls.Signature{}
	for _, s := range c.signers {
		if s.state == stateSigned {
			out[s.index] = s.sig
		}
	}
	return out
}

// run collects until target weight signed, the quorum cannot be reached,
// nothing is left to ask, deadline passes, or ctx ends (its error is
// returned). The caller reads the outcome from signedWeight.
func (c *collection) run(ctx context.Context, deadline time.Time) error {
	defer c.finish()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		c.applyInbox(now)
		if c.signedWeight >= c.target || !c.quorumPossible() || !now.Before(deadline) {
			return nil
		}
		wake, err := c.ask(now, deadline)
		if err != nil {
			return err
		}
		if c.exhausted() {
			return nil
		}
		timer.Reset(wake.Sub(now))
		select {
		case <-c.notify:
		case <-timer.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// quorumPossible reports whether the validators not yet given up on could
// still bring the signed weight to the quorum.
func (c *collection) quorumPossible() bool {
	possible := c.signedWeight
	for _, s := range c.signers {
		if s.state == stateIdle || s.state == stateAsking {
			possible += s.vdr.Weight
		}
	}
	return possible >= c.required
}

// exhausted: every validator has signed or been given up on.
func (c *collection) exhausted() bool {
	for _, s := range c.signers {
		if s.state == stateIdle || s.state == stateAsking {
			return false
		}
	}
	return true
}

// ask sends one request to the connected nodes of every validator due to
// be asked, and returns when to look again.
func (c *collection) ask(now, deadline time.Time) (time.Time, error) {
	quorumMet := c.signedWeight >= c.required
	cover := max(c.target, weightFor(c.vdrs.TotalWeight, c.policy.coverPercent))
	covered := c.signedWeight
	var due []*signer
	var dueNodes []ids.NodeID
	for _, s := range c.signers {
		switch {
		case s.state == stateAsking, s.state == stateIdle && s.attempts > 0 && s.retryAt.After(now):
			covered += s.vdr.Weight
		case s.state == stateIdle:
			due = append(due, s)
			dueNodes = append(dueNodes, s.vdr.NodeIDs...)
		}
	}
	connected := c.net.connected(dueNodes)
	wake := deadline
	batch := set.NewSet[ids.NodeID](len(dueNodes))
	attemptOf := map[ids.NodeID]int{}
	for _, s := range due {
		if quorumMet && s.attempts > 0 {
			// Only the buffer still wants it: one try was enough.
			c.giveUp(s)
			continue
		}
		if s.attempts == 0 && covered >= cover {
			continue // asked only if the heavier ones fail
		}
		var nodes []ids.NodeID
		for _, nodeID := range s.vdr.NodeIDs {
			if connected.Contains(nodeID) {
				nodes = append(nodes, nodeID)
			}
		}
		if len(nodes) == 0 {
			if quorumMet || !now.Before(c.policy.connectDeadline) {
				s.state, s.last = stateUnreachable, replyNotSent
			} else {
				wake = earliest(wake, now.Add(c.policy.pollInterval), c.policy.connectDeadline)
			}
			continue
		}
		if s.attempts == 0 {
			covered += s.vdr.Weight
		}
		s.state, s.waiting, s.last = stateAsking, len(nodes), ""
		s.attempts++
		for _, nodeID := range nodes {
			batch.Add(nodeID)
			attemptOf[nodeID] = s.attempts
		}
	}
	for _, s := range c.signers {
		if s.state == stateIdle && s.attempts > 0 && s.retryAt.After(now) {
			wake = earliest(wake, s.retryAt)
		}
	}
	if batch.Len() == 0 {
		return wake, nil
	}
	timeout := min(c.policy.requestTimeout, deadline.Sub(now))
	c.metrics.signaturesAsked.Add(float64(batch.Len()))
	err := c.net.requestSignatures(c.unsigned.SourceChainID, c.unsigned.Bytes(), c.justification, batch, timeout,
		func(r reply) { c.onReply(r, attemptOf[r.nodeID]) })
	return wake, err
}

func earliest(t time.Time, others ...time.Time) time.Time {
	for _, o := range others {
		if o.Before(t) {
			t = o
		}
	}
	return t
}

// giveUp makes an idle validator's last failure final.
func (c *collection) giveUp(s *signer) {
	switch s.last {
	case replyTimeout:
		s.state = stateTimedOut
	case replyNotSent:
		s.state = stateUnreachable
	default:
		s.state = stateRefused
	}
}
