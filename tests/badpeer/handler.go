package badpeer

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/network"
	"github.com/ava-labs/avalanchego/network/p2p"
	"github.com/ava-labs/avalanchego/network/p2p/acp118"
	p2ppb "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/snow/networking/router"
	"github.com/ava-labs/avalanchego/subnets"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/version"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/proposervm/block"
	"go.uber.org/zap"
)

var _ router.ExternalHandler = (*handler)(nil)

// handler answers what the network delivers:
//
//   - ACP-118 signature requests, on any chain, through avalanchego's own
//     acp118.Handler, which signs everything it is asked with a signer that
//     signs WrongMessage instead;
//   - other AppRequests with the SDK's "unregistered handler" AppError, so
//     the nodes' gossip clients are not left waiting for a timeout;
//   - consensus queries with Chits that vote for the block queried. A
//     validator that stays silent makes each poll that samples it (nearly
//     every poll, at 20% of the stake) wait for the query timeout, and the
//     network's blocks would take seconds each; echoing the querier's own
//     preference adds nothing to it, and the honest 80% still decide;
//   - nothing else (it serves no blocks: nodes never need any from it,
//     since it only votes for blocks they sent it).
type handler struct {
	log     logging.Logger
	creator message.Creator
	acp118  *acp118.Handler
	net     atomic.Pointer[network.Network]
	asked   counts
}

func newHandler(log logging.Logger, creator message.Creator, signer bls.Signer) *handler {
	h := &handler{log: log, creator: creator}
	h.acp118 = acp118.NewHandler(signAll{}, &wrongSigner{signer: signer, asked: &h.asked})
	return h
}

// setNetwork gives the handler the network to answer through; messages
// that arrive before it is set are dropped.
func (h *handler) setNetwork(n network.Network) { h.net.Store(&n) }

func (h *handler) signatureRequests(msgID ids.ID) int { return h.asked.get(msgID) }

func (h *handler) HandleInbound(ctx context.Context, msg *message.InboundMessage) {
	defer msg.OnFinishedHandling()
	var (
		out *message.OutboundMessage
		err error
	)
	switch m := msg.Message.(type) {
	case *p2ppb.AppRequest:
		out, err = h.appRequest(ctx, msg.NodeID, msg.Expiration, m)
	case *p2ppb.PullQuery:
		out, err = h.chits(m.ChainId, m.RequestId, m.ContainerId, m.RequestedHeight)
	case *p2ppb.PushQuery:
		var blk block.Block
		blk, err = block.ParseWithoutVerification(m.Container)
		if err != nil {
			// Only blocks from before the proposervm's activation are not
			// proposervm blocks; test networks have none after genesis.
			err = fmt.Errorf("parsing a pushed block: %w", err)
			break
		}
		blkID := blk.ID()
		out, err = h.chits(m.ChainId, m.RequestId, blkID[:], m.RequestedHeight)
	default:
		return
	}
	if err != nil {
		h.log.Debug("badpeer: not answering", zap.Stringer("op", msg.Op), zap.Stringer("nodeID", msg.NodeID), zap.Error(err))
		return
	}
	n := h.net.Load()
	if n == nil {
		return
	}
	(*n).Send(out, common.SendConfig{NodeIDs: set.Of(msg.NodeID)}, constants.PrimaryNetworkID, subnets.NoOpAllower)
}

// appRequest answers an AppRequest: ACP-118 through acp118.Handler (with
// the wrong signer), anything else with ErrUnregisteredHandler.
func (h *handler) appRequest(ctx context.Context, nodeID ids.NodeID, deadline time.Time, m *p2ppb.AppRequest,
) (*message.OutboundMessage, error) {
	chainID, err := ids.ToID(m.ChainId)
	if err != nil {
		return nil, fmt.Errorf("reading the AppRequest's chain: %w", err)
	}
	handlerID, body, ok := p2p.ParseMessage(m.AppBytes)
	if !ok || handlerID != acp118.HandlerID {
		return h.creator.AppError(chainID, m.RequestId, p2p.ErrUnregisteredHandler.Code, p2p.ErrUnregisteredHandler.Message)
	}
	resp, appErr := h.acp118.AppRequest(ctx, nodeID, deadline, body)
	if appErr != nil {
		return h.creator.AppError(chainID, m.RequestId, appErr.Code, appErr.Message)
	}
	return h.creator.AppResponse(chainID, m.RequestId, resp)
}

// chits votes for the block queried (see handler).
func (h *handler) chits(chain []byte, requestID uint32, blk []byte, height uint64) (*message.OutboundMessage, error) {
	chainID, err := ids.ToID(chain)
	if err != nil {
		return nil, fmt.Errorf("reading the query's chain: %w", err)
	}
	blkID, err := ids.ToID(blk)
	if err != nil {
		return nil, fmt.Errorf("reading the queried block: %w", err)
	}
	return h.creator.Chits(chainID, requestID, blkID, blkID, blkID, height)
}

func (*handler) Connected(ids.NodeID, *version.Application, ids.ID) {}

func (*handler) Disconnected(ids.NodeID) {}

// signAll is an acp118.Verifier that lets every message be signed.
type signAll struct{}

func (signAll) Verify(context.Context, *warp.UnsignedMessage, []byte) *common.AppError { return nil }

// wrongSigner is a warp.Signer that signs WrongMessage of what it is
// given, and counts what it was given.
type wrongSigner struct {
	signer bls.Signer
	asked  *counts
}

func (s *wrongSigner) Sign(msg *warp.UnsignedMessage) ([]byte, error) {
	s.asked.inc(msg.ID())
	sig, err := s.signer.Sign(WrongMessage(msg.Bytes()))
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	return bls.SignatureToBytes(sig), nil
}
