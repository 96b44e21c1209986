package aggregator

import (
	"crypto"
	"fmt"
	"net/netip"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/network"
	"github.com/ava-labs/avalanchego/network/p2p"
	"github.com/ava-labs/avalanchego/network/p2p/acp118"
	"github.com/ava-labs/avalanchego/network/peer"
	"github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/subnets"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/protobuf/proto"
)

// peerNetwork is the aggregator's own p2p node, built on avalanchego's
// network package the way a node builds its own, minus what a
// non-validator that only asks questions does not need: it listens for no
// inbound connections (validators never dial it) and tracks no subnet.
//
// Whom it connects to comes from its validators.Manager: with
// ConnectToAllValidators, every validator in it, of any subnet, is dialled
// once its IP is known, and peer-list gossip from the validators it reaches
// first fills in the IPs of the others. connections.go keeps the manager in
// step with the P-chain and seeds the first IPs.
type peerNetwork struct {
	net        network.Network
	creator    message.Creator
	tracker    *requestTracker
	validators validators.Manager
	identity   Identity
}

// newPeerNetwork builds the network; run dispatches it. reg receives the
// network's own metrics (peers, throttling, bandwidth).
func newPeerNetwork(log logging.Logger, reg prometheus.Registerer, networkID uint32, identity Identity, tracker *requestTracker) (*peerNetwork, error) {
	vdrs := validators.NewManager()
	cfg, err := network.NewTestNetworkConfig(reg, networkID, vdrs, set.Set[ids.ID]{})
	if err != nil {
		return nil, fmt.Errorf("configuring the p2p network: %w", err)
	}
	cfg.TLSConfig = peer.TLSConfig(*identity.Cert, nil)
	signer, ok := identity.Cert.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("the key in %s cannot sign", identity.KeyPath)
	}
	cfg.TLSKey = signer
	cfg.MyNodeID = identity.NodeID
	// Ask peers for the IPs of every subnet's validators, and dial every
	// validator in the manager whatever its subnet.
	cfg.ConnectToAllValidators = true
	net, err := network.NewTestNetwork(log, reg, cfg, tracker)
	if err != nil {
		return nil, fmt.Errorf("creating the p2p network: %w", err)
	}
	// The network builds its own message creator for what it receives; this
	// one builds the requests. Its metrics (compression timings) would clash
	// with the network's in reg, and say nothing the network's do not.
	creator, err := message.NewCreator(prometheus.NewRegistry(), constants.DefaultNetworkCompressionType,
		constants.DefaultNetworkMaximumInboundTimeout)
	if err != nil {
		return nil, fmt.Errorf("creating the p2p message creator: %w", err)
	}
	return &peerNetwork{net: net, creator: creator, tracker: tracker, validators: vdrs, identity: identity}, nil
}

// run connects and serves until close; it returns once every connection
// has closed.
func (p *peerNetwork) run() error { return p.net.Dispatch() }

// close starts closing every connection; run then returns.
func (p *peerNetwork) close() {
	p.tracker.close()
	p.net.StartClose()
}

// track dials nodeID at ip now, and again whenever the connection drops.
func (p *peerNetwork) track(nodeID ids.NodeID, ip netip.AddrPort) {
	if nodeID == p.identity.NodeID || !ip.IsValid() || ip.Addr().IsUnspecified() {
		return
	}
	p.net.ManuallyTrack(nodeID, ip)
}

// connected returns which of nodeIDs have finished the handshake.
func (p *peerNetwork) connected(nodeIDs []ids.NodeID) set.Set[ids.NodeID] {
	if len(nodeIDs) == 0 {
		return set.Set[ids.NodeID]{}
	}
	infos := p.net.PeerInfo(nodeIDs)
	out := set.NewSet[ids.NodeID](len(infos))
	for _, info := range infos {
		out.Add(info.ID)
	}
	return out
}

// peerCount is how many peers have finished the handshake.
func (p *peerNetwork) peerCount() int { return len(p.net.PeerInfo(nil)) }

// requestSignatures sends one ACP-118 signature request for msg to nodes,
// addressed to the message's source chain on each of them (its VM's
// signature handler answers). Each node's reply goes to onReply, a timeout
// included, until timeout.
func (p *peerNetwork) requestSignatures(
	sourceChainID ids.ID,
	unsignedMsg, justification []byte,
	nodes set.Set[ids.NodeID],
	timeout time.Duration,
	onReply replyHandler,
) error {
	body, err := proto.Marshal(&sdk.SignatureRequest{Message: unsignedMsg, Justification: justification})
	if err != nil {
		return fmt.Errorf("encoding the signature request: %w", err)
	}
	requestID, err := p.tracker.register(sourceChainID, nodes, timeout, onReply)
	if err != nil {
		return err
	}
	payload := p2p.PrefixMessage(p2p.ProtocolPrefix(acp118.HandlerID), body)
	msg, err := p.creator.AppRequest(sourceChainID, requestID, timeout, payload)
	if err != nil {
		p.tracker.notSent(requestID, nodes.List())
		return fmt.Errorf("building the AppRequest: %w", err)
	}
	// Validators of any subnet may be asked: the allower is the one a
	// subnet's validator-only rule would use, and the aggregator is no
	// validator of anything.
	sentTo := p.net.Send(msg, common.SendConfig{NodeIDs: nodes}, constants.PrimaryNetworkID, subnets.NoOpAllower)
	var missed []ids.NodeID
	for nodeID := range nodes {
		if !sentTo.Contains(nodeID) {
			missed = append(missed, nodeID)
		}
	}
	p.tracker.notSent(requestID, missed)
	return nil
}
