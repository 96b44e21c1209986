// Package badpeer is a test validator that is no avalanchego process: a
// peer built in the test process on avalanchego's own network package,
// holding a validator's real staking TLS key and BLS key, so nodes and
// signature aggregators complete the handshake with it and take it for
// that validator. It answers every ACP-118 signature request with a
// well-formed BLS signature by its key over another message than the one
// asked for, which is what an aggregator must detect and exclude.
//
// It takes part in consensus only as much as keeps its network fast (see
// handler.go): a connected validator that never answers queries would make
// every poll that samples it wait for the query timeout.
package badpeer

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/network"
	"github.com/ava-labs/avalanchego/network/dialer"
	"github.com/ava-labs/avalanchego/network/peer"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/staking"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/prometheus/client_golang/prometheus"
)

// Config is the validator identity the peer takes on.
type Config struct {
	NetworkID uint32
	// StakingKey and StakingCert are the validator's TLS key and
	// certificate, PEM-encoded (what --staking-tls-key-file holds): they
	// make its NodeID.
	StakingKey, StakingCert []byte
	// SignerKey is the validator's BLS secret key, as
	// --staking-signer-key-file holds it.
	SignerKey []byte
	// Log receives the network's log; nil discards it.
	Log logging.Logger
}

// Peer is a running bad peer.
type Peer struct {
	nodeID  ids.NodeID
	signer  bls.Signer
	addr    netip.AddrPort
	net     network.Network
	handler *handler
	done    chan error // Dispatch's result
}

// Start listens on a loopback port and serves until Close. It dials
// nobody by itself: Connect names the nodes to dial, and nodes that learn
// its signed IP (from those, by peer-list gossip) dial it.
func Start(cfg Config) (_ *Peer, err error) {
	log := cfg.Log
	if log == nil {
		log = logging.NoLog{}
	}
	tlsCert, err := staking.LoadTLSCertFromBytes(cfg.StakingKey, cfg.StakingCert)
	if err != nil {
		return nil, fmt.Errorf("badpeer: loading the staking key: %w", err)
	}
	cert, err := staking.ParseCertificate(tlsCert.Leaf.Raw)
	if err != nil {
		return nil, fmt.Errorf("badpeer: parsing the staking certificate: %w", err)
	}
	tlsKey, ok := tlsCert.PrivateKey.(crypto.Signer)
	if !ok {
		return nil, errors.New("badpeer: the staking key cannot sign")
	}
	signer, err := localsigner.FromBytes(cfg.SignerKey)
	if err != nil {
		return nil, fmt.Errorf("badpeer: loading the BLS key: %w", err)
	}

	reg := prometheus.NewRegistry()
	netCfg, err := network.NewTestNetworkConfig(reg, cfg.NetworkID, validators.NewManager(), set.Set[ids.ID]{})
	if err != nil {
		return nil, fmt.Errorf("badpeer: configuring the network: %w", err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("badpeer: listening: %w", err)
	}
	defer func() {
		if err != nil {
			listener.Close()
		}
	}()
	addr, err := netip.ParseAddrPort(listener.Addr().String())
	if err != nil {
		return nil, fmt.Errorf("badpeer: reading the listening address: %w", err)
	}
	netCfg.MyNodeID = ids.NodeIDFromCert(cert)
	netCfg.TLSConfig = peer.TLSConfig(*tlsCert, nil)
	netCfg.TLSKey = tlsKey
	netCfg.BLSKey = signer // signs the IP in the handshake, as the validator's node would
	netCfg.MyIPPort = utils.NewAtomic(addr)

	creator, err := message.NewCreator(reg, constants.DefaultNetworkCompressionType,
		constants.DefaultNetworkMaximumInboundTimeout)
	if err != nil {
		return nil, fmt.Errorf("badpeer: creating the message creator: %w", err)
	}
	h := newHandler(log, creator, signer)
	// NewTestNetwork would do, but for its listener that accepts nothing:
	// nodes must be able to dial this one.
	n, err := network.NewNetwork(netCfg, upgrade.GetConfig(cfg.NetworkID).GraniteTime, creator, reg, log, listener,
		dialer.NewDialer(constants.NetworkType, netCfg.DialerConfig, log), h)
	if err != nil {
		return nil, fmt.Errorf("badpeer: creating the network: %w", err)
	}
	h.setNetwork(n)
	p := &Peer{nodeID: netCfg.MyNodeID, signer: signer, addr: addr, net: n, handler: h, done: make(chan error, 1)}
	go func() { p.done <- n.Dispatch() }()
	return p, nil
}

// NodeID is the validator's NodeID, from its staking certificate.
func (p *Peer) NodeID() ids.NodeID { return p.nodeID }

// PublicKey is the validator's BLS key.
func (p *Peer) PublicKey() *bls.PublicKey { return p.signer.PublicKey() }

// Addr is where the peer listens, the IP it signs in its handshakes.
func (p *Peer) Addr() netip.AddrPort { return p.addr }

// Connect dials nodeID at addr, and again whenever the connection drops.
func (p *Peer) Connect(nodeID ids.NodeID, addr netip.AddrPort) { p.net.ManuallyTrack(nodeID, addr) }

// IsConnected reports whether the handshake with nodeID is done.
func (p *Peer) IsConnected(nodeID ids.NodeID) bool {
	return len(p.net.PeerInfo([]ids.NodeID{nodeID})) > 0
}

// SignatureRequests is how many ACP-118 signature requests for the
// message with this ID the peer has answered (wrongly).
func (p *Peer) SignatureRequests(msgID ids.ID) int { return p.handler.signatureRequests(msgID) }

// Close closes every connection and waits until the network has stopped.
func (p *Peer) Close(ctx context.Context) error {
	p.net.StartClose()
	select {
	case err := <-p.done:
		if err != nil {
			return fmt.Errorf("badpeer: closing the network: %w", err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("badpeer: closing the network: %w", ctx.Err())
	}
}

// WrongMessage is what the peer signs instead of the unsigned message it
// is asked to sign: the same bytes with one more, so the signature is a
// valid BLS signature by its key, for another message.
func WrongMessage(unsignedMsg []byte) []byte {
	return append(append(make([]byte, 0, len(unsignedMsg)+1), unsignedMsg...), 0xff)
}

// counts is a concurrency-safe count per message ID.
type counts struct {
	mu sync.Mutex
	n  map[ids.ID]int
}

func (c *counts) inc(id ids.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[ids.ID]int{}
	}
	c.n[id]++
}

func (c *counts) get(id ids.ID) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[id]
}
