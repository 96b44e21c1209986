package aggregator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/snow/networking/router"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/version"
	"go.uber.org/zap"
	"google.golang.org/protobuf/proto"
)

var _ router.ExternalHandler = (*requestTracker)(nil)

// reply is one validator node's answer to a signature request, or the lack
// of one.
type reply struct {
	nodeID ids.NodeID
	// signature is the SignatureResponse's signature bytes (unverified).
	signature []byte
	// appErr is the validator's refusal (its VM's AppError code and message).
	appErr *common.AppError
	// timedOut: no answer before the request expired.
	timedOut bool
	// notSent: the network could not send the request (not connected, or
	// its send queue is full).
	notSent bool
	// malformed: the answer did not parse.
	malformed error
}

// replyHandler receives the replies of one request, on the peer's
// goroutine (or a timer's); it must not block for long.
type replyHandler func(reply)

// pendingRequest is one AppRequest sent to several nodes.
type pendingRequest struct {
	chainID ids.ID
	waiting set.Set[ids.NodeID]
	onReply replyHandler
	timer   *time.Timer
}

// requestTracker matches AppResponses and AppErrors to the requests that
// asked for them, and times out the nodes that never answer. It is the
// network's router.ExternalHandler, called on peer goroutines.
//
// Every inbound message is marked handled whatever it is: the network's
// inbound throttler stops reading from a peer whose messages are never
// released, which is how icm-services stalls a validator connection with
// answers that arrive after the quorum. Late answers are still handed to
// their request's handler, which caches them.
type requestTracker struct {
	log     logging.Logger
	metrics *metrics

	mu      sync.Mutex
	nextID  uint32 // the last request ID used; always odd
	pending map[uint32]*pendingRequest
	closed  bool
}

func newRequestTracker(log logging.Logger, m *metrics) *requestTracker {
	return &requestTracker{log: log, metrics: m, pending: map[uint32]*pendingRequest{}, nextID: 1}
}

var errTrackerClosed = errors.New("the aggregator's p2p network is closed")

// register reserves a request ID for an AppRequest to nodes about chainID;
// onReply gets one reply per node: its answer, or a timeout after timeout.
// Register before sending, so no answer can arrive unexpected.
func (t *requestTracker) register(chainID ids.ID, nodes set.Set[ids.NodeID], timeout time.Duration, onReply replyHandler) (uint32, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0, errTrackerClosed
	}
	for {
		// Odd IDs only: the C-chain (coreth) hands even request IDs to its
		// legacy handlers and only odd ones to the p2p SDK, where ACP-118's
		// handler lives; it would never answer an even one.
		t.nextID += 2
		if _, inUse := t.pending[t.nextID]; !inUse {
			break
		}
	}
	id := t.nextID
	p := &pendingRequest{chainID: chainID, waiting: set.Of(nodes.List()...), onReply: onReply}
	p.timer = time.AfterFunc(timeout, func() { t.expire(id) })
	t.pending[id] = p
	return id, nil
}

// notSent reports the nodes a registered request never reached; their
// reply is notSent at once.
func (t *requestTracker) notSent(requestID uint32, nodes []ids.NodeID) {
	for _, nodeID := range nodes {
		if p := t.take(requestID, nodeID); p != nil {
			p.onReply(reply{nodeID: nodeID, notSent: true})
		}
	}
}

// expire times out every node of the request that has not answered. It
// runs on a timer's goroutine.
func (t *requestTracker) expire(requestID uint32) {
	defer t.recoverPanic("timing out a signature request")
	t.mu.Lock()
	p, ok := t.pending[requestID]
	if ok {
		delete(t.pending, requestID)
	}
	t.mu.Unlock()
	if !ok {
		return
	}
	for nodeID := range p.waiting {
		p.onReply(reply{nodeID: nodeID, timedOut: true})
	}
}

// take removes nodeID from the nodes the request waits for and returns the
// request, or nil when it does not wait for that node (an answer too late,
// a duplicate, or one never asked for).
func (t *requestTracker) take(requestID uint32, nodeID ids.NodeID) *pendingRequest {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.pending[requestID]
	if !ok || !p.waiting.Contains(nodeID) {
		return nil
	}
	p.waiting.Remove(nodeID)
	if p.waiting.Len() == 0 {
		p.timer.Stop()
		delete(t.pending, requestID)
	}
	return p
}

// pendingCount is how many requests still wait for some answer.
func (t *requestTracker) pendingCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending)
}

// close stops every timer; the requests still pending get no more replies.
func (t *requestTracker) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for id, p := range t.pending {
		p.timer.Stop()
		delete(t.pending, id)
	}
}

// HandleInbound takes the answers to signature requests; every other
// message is dropped.
func (t *requestTracker) HandleInbound(_ context.Context, msg *message.InboundMessage) {
	defer msg.OnFinishedHandling()
	defer t.recoverPanic("handling a validator's answer")
	var (
		requestID uint32
		chainID   []byte
		r         = reply{nodeID: msg.NodeID}
	)
	switch m := msg.Message.(type) {
	case *p2p.AppResponse:
		requestID, chainID = m.RequestId, m.ChainId
		var resp sdk.SignatureResponse
		if err := proto.Unmarshal(m.AppBytes, &resp); err != nil {
			r.malformed = fmt.Errorf("parsing the SignatureResponse: %w", err)
		} else {
			r.signature = resp.Signature
		}
	case *p2p.AppError:
		requestID, chainID = m.RequestId, m.ChainId
		r.appErr = &common.AppError{Code: m.ErrorCode, Message: m.ErrorMessage}
	default:
		return
	}
	p := t.take(requestID, msg.NodeID)
	if p == nil {
		t.metrics.unexpectedReplies.Inc()
		t.log.Debug("dropping an answer to no pending signature request",
			zap.Stringer("nodeID", msg.NodeID), zap.Uint32("requestID", requestID), zap.Stringer("op", msg.Op))
		return
	}
	if id, err := ids.ToID(chainID); err != nil || id != p.chainID {
		r = reply{nodeID: msg.NodeID, malformed: fmt.Errorf("answer names chain %x, the request was for %s", chainID, p.chainID)}
	}
	p.onReply(r)
}

// recoverPanic keeps a bug in handling one answer from taking down the
// peer's connection, or the plugin: a panic on these goroutines would end
// the process.
func (t *requestTracker) recoverPanic(what string) {
	if r := recover(); r != nil {
		t.log.Error("signature aggregator panicked "+what, zap.Any("panic", r), zap.Stack("stack"))
	}
}

// Connected and Disconnected are told by the network; connectivity is read
// from the network itself (PeerInfo) when needed.
func (t *requestTracker) Connected(ids.NodeID, *version.Application, ids.ID) {
	t.metrics.connects.Inc()
}

func (t *requestTracker) Disconnected(ids.NodeID) { t.metrics.disconnects.Inc() }
