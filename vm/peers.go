package vm

import (
	"context"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/engine/common"
	"github.com/ava-labs/avalanchego/version"
)

// peers tracks the nodes the host node reports as connected to this chain.
// The signature aggregator does not use them: through the chain's
// AppSender it could only reach this chain on other nodes, never their
// P-chain or C-chain signature handlers, so it keeps connections of its own
// (aggregator/p2pnetwork.go).
type peers struct {
	mu        sync.RWMutex
	connected map[ids.NodeID]*version.Application
}

func newPeers() *peers { return &peers{connected: map[ids.NodeID]*version.Application{}} }

func (p *peers) connect(nodeID ids.NodeID, v *version.Application) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.connected[nodeID] = v
}

func (p *peers) disconnect(nodeID ids.NodeID) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.connected, nodeID)
}

// Connected returns the IDs of the connected peers (the node itself included).
func (p *peers) Connected() []ids.NodeID {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]ids.NodeID, 0, len(p.connected))
	for id := range p.connected {
		out = append(out, id)
	}
	return out
}

func (vm *VM) Connected(_ context.Context, nodeID ids.NodeID, v *version.Application) error {
	vm.peers.connect(nodeID, v)
	return nil
}

func (vm *VM) Disconnected(_ context.Context, nodeID ids.NodeID) error {
	vm.peers.disconnect(nodeID)
	return nil
}

// The chain exchanges no app messages: the signature aggregator talks to
// validators over its own p2p connections.

func (*VM) AppRequest(context.Context, ids.NodeID, uint32, time.Time, []byte) error { return nil }
func (*VM) AppResponse(context.Context, ids.NodeID, uint32, []byte) error           { return nil }
func (*VM) AppRequestFailed(context.Context, ids.NodeID, uint32, *common.AppError) error {
	return nil
}
func (*VM) AppGossip(context.Context, ids.NodeID, []byte) error { return nil }
