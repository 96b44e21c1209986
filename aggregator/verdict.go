package aggregator

import (
	"bytes"
	"strconv"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
)

// A collection's replies: each is checked where it arrives, on a peer's
// goroutine, into a verdict queued for the collection's run loop, which
// applies it to the validator that answered.

// verdict is a reply checked on arrival: a verified signature, or what
// went wrong.
type verdict struct {
	nodeID  ids.NodeID
	attempt int // the signer's attempt the request was
	result  string
	sig     *bls.Signature
	appErr  *common.AppError
}

// onReply checks a reply where it arrives (on a peer's goroutine): a valid
// signature is cached at once, even after the collection is over, so a
// later request for the message needs no traffic.
func (c *collection) onReply(r reply, attempt int) {
	s, ok := c.byNode[r.nodeID]
	if !ok {
		return
	}
	v := verdict{nodeID: r.nodeID, attempt: attempt}
	switch {
	case r.notSent:
		v.result = replyNotSent
	case r.timedOut:
		v.result = replyTimeout
	case r.malformed != nil:
		v.result = replyMalformed
	case r.appErr != nil:
		v.result, v.appErr = replyAppError, r.appErr
		c.metrics.appErrors.WithLabelValues(strconv.Itoa(int(r.appErr.Code))).Inc()
	case len(r.signature) == 0 || isZero(r.signature):
		// ACP-118 validators answer an empty signature for a message they
		// do not know yet.
		v.result = replyEmpty
	default:
		sig, err := bls.SignatureFromBytes(r.signature)
		if err != nil || !bls.Verify(s.vdr.PublicKey, sig, c.unsigned.Bytes()) {
			v.result = replyInvalidSignature
		} else {
			v.result, v.sig = replyValid, sig
			c.cache.add(c.msgID, s.vdr.PublicKeyBytes, sig)
		}
	}
	c.metrics.replies.WithLabelValues(v.result).Inc()
	c.mu.Lock()
	if !c.finished {
		c.inbox = append(c.inbox, v)
	}
	c.mu.Unlock()
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

func isZero(b []byte) bool { return len(bytes.Trim(b, "\x00")) == 0 }

func (c *collection) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished, c.inbox = true, nil
}

// applyInbox updates the signers with the replies that arrived.
func (c *collection) applyInbox(now time.Time) {
	c.mu.Lock()
	inbox := c.inbox
	c.inbox = nil
	c.mu.Unlock()
	for _, v := range inbox {
		c.apply(v, now)
	}
}

// failureRank orders what a validator's nodes answered in one attempt:
// the worst is what counts when none signed.
var failureRank = map[string]int{
	replyNotSent: 1, replyTimeout: 2, replyEmpty: 3, replyMalformed: 4, replyAppError: 5, replyInvalidSignature: 6,
}

func (c *collection) apply(v verdict, now time.Time) {
	s := c.byNode[v.nodeID]
	if s.state == stateSigned {
		return
	}
	if v.result == replyValid {
		// Even an answer to an earlier attempt, or after giving up.
		c.markSigned(s, v.sig)
		return
	}
	if s.state != stateAsking || v.attempt != s.attempts {
		return // a failure from an attempt already settled
	}
	if failureRank[v.result] > failureRank[s.last] {
		s.last = v.result
	}
	if v.appErr != nil {
		s.refusal = v.appErr
	}
	s.waiting--
	if s.waiting > 0 {
		return
	}
	quorumMet := c.signedWeight >= c.required
	switch {
	case s.last == replyInvalidSignature:
		s.state = stateInvalid // a validator that signs wrongly is not asked again
	case quorumMet || s.attempts >= c.policy.maxAttempts:
		c.giveUp(s)
	case s.last == replyTimeout:
		s.state, s.retryAt = stateIdle, now
	case s.last == replyNotSent:
		// Disconnected meanwhile, or its send queue is full: not at once.
		s.state, s.retryAt = stateIdle, now.Add(c.policy.pollInterval)
	default:
		s.state, s.retryAt = stateIdle, now.Add(c.policy.retryBackoff<<(s.attempts-1))
	}
}
