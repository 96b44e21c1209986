package localnet

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
)

// abandonGrace is how long a node that failed to come up gets to stop.
const abandonGrace = 10 * time.Second

// Network is a running (or stopped) local node with the avadata chain, or
// the local network's five validators, node 1 with the avadata chain (see
// Config.Nodes). Its URLs are node 1's. Its methods are safe for concurrent
// use.
type Network struct {
	cfg   Config // validated, with absolute paths
	state state  // the chain and the ports, as saved in the data dir
	tail  *tailBuffer

	mu   sync.Mutex
	proc *nodeProcess // nil while the node is not running

	// Of a multi-node network only: node 1's staking identity, and nodes 2
	// to Nodes.
	id    identity
	peers []*peer

	// joined are the nodes that joined the network (Join); Stop and Kill
	// stop them too.
	joined []*JoinedNode
}

// URI is the node's HTTP address, e.g. http://127.0.0.1:9650.
func (n *Network) URI() string { return "http://127.0.0.1:" + strconv.Itoa(n.state.HTTPPort) }

// ChainID is the avadata chain's ID.
func (n *Network) ChainID() ids.ID { return n.state.ChainID }

// SubnetID is the ID of the subnet the avadata chain lives in.
func (n *Network) SubnetID() ids.ID { return n.state.SubnetID }

// BaseURL is the avadata API under its alias, e.g.
// http://127.0.0.1:9650/ext/bc/data. With aliasing turned off (chain config
// "alias": "") it is ChainURL.
func (n *Network) BaseURL() string {
	if alias := n.cfg.alias(); alias != "" {
		return n.URI() + "/ext/bc/" + alias
	}
	return n.ChainURL()
}

// ChainURL is the avadata API under the chain ID, which works even before
// the plugin has registered its alias.
func (n *Network) ChainURL() string { return n.URI() + "/ext/bc/" + n.state.ChainID.String() }

// DataDir is the node's data dir (absolute).
func (n *Network) DataDir() string { return n.cfg.DataDir }

// LogDir holds the node's log files: main.log, P.log, X.log, C.log and
// <chainID>.log for the avadata chain.
func (n *Network) LogDir() string {
	if dir, ok := n.cfg.ExtraFlags["log-dir"]; ok {
		return dir
	}
	return filepath.Join(n.cfg.DataDir, "logs")
}

// OutputPath is the file receiving the node's stdout/stderr, or "" when
// Config.Stdout and Config.Stderr were both set.
func (n *Network) OutputPath() string {
	if n.cfg.Stdout != nil && n.cfg.Stderr != nil {
		return ""
	}
	return filepath.Join(n.cfg.DataDir, outputFileName)
}

// PID is the node process's ID (node 1's), 0 while it is not running.
func (n *Network) PID() int {
	if p := n.process(); p != nil {
		return p.pid()
	}
	return 0
}

// Exited returns a channel that is closed when the node process running now
// exits, whether stopped, killed or crashed; already closed when no node runs.
// On a multi-node network it is closed when any of its nodes exits.
func (n *Network) Exited() <-chan struct{} {
	procs := n.running()
	switch len(procs) {
	case 0:
		closed := make(chan struct{})
		close(closed)
		return closed
	case 1:
		return procs[0].done
	}
	exited := make(chan struct{})
	var once sync.Once
	for _, p := range procs {
		go func() {
			<-p.done
			once.Do(func() { close(exited) })
		}()
	}
	return exited
}

// Node is one node of the network.
type Node struct {
	// Index is the node's number, from 1; node 1 hosts the avadata chain.
	Index int
	// URI is the node's HTTP address.
	URI string
	// NodeID is the node's ID on a multi-node network, where it is one of
	// the local genesis's validators; empty on a one-node network.
	NodeID  ids.NodeID
	DataDir string
	LogDir  string
	// PID is the node process's ID (node 1's), 0 while it is not running.
	PID int
}

// Nodes lists the network's nodes, node 1 first.
func (n *Network) Nodes() []Node {
	nodes := []Node{{Index: 1, URI: n.URI(), NodeID: n.id.nodeID, DataDir: n.DataDir(), LogDir: n.LogDir(), PID: n.PID()}}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range n.peers {
		node := Node{Index: p.index, URI: p.uri(), NodeID: p.id.nodeID, DataDir: p.dataDir, LogDir: p.logDir()}
		if p.proc != nil {
			node.PID = p.proc.pid()
		}
		nodes = append(nodes, node)
	}
	return nodes
}

// running returns the processes of the nodes that run, node 1 first.
func (n *Network) running() []*nodeProcess { return n.processes(false) }

// takeAll detaches every running process, node 1's first, so exactly one
// caller stops each.
func (n *Network) takeAll() []*nodeProcess { return n.processes(true) }

// processes lists the running processes, node 1's first, detaching them
// from the network when detach is set.
func (n *Network) processes(detach bool) []*nodeProcess {
	n.mu.Lock()
	defer n.mu.Unlock()
	var procs []*nodeProcess
	add := func(proc **nodeProcess) {
		if *proc != nil {
			procs = append(procs, *proc)
			if detach {
				*proc = nil
			}
		}
	}
	add(&n.proc)
	for _, p := range n.peers {
		add(&p.proc)
	}
	return procs
}

func (n *Network) process() *nodeProcess {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.proc
}

// takeProcess detaches the running process, if any, so exactly one caller
// stops it.
func (n *Network) takeProcess() *nodeProcess {
	n.mu.Lock()
	defer n.mu.Unlock()
	p := n.proc
	n.proc = nil
	return p
}

// Stop shuts the node down (every node, all at once, and the nodes that
// joined it): SIGTERM, then SIGKILL of the node and its plugins if it has
// not exited after 30 s or when ctx ends first. Stopping a stopped network is a no-op.
func (n *Network) Stop(ctx context.Context) error {
	var joinedErrs []error
	for _, j := range n.joinedNodes() {
		joinedErrs = append(joinedErrs, j.Stop(ctx))
	}
	if err := n.stop(ctx); err != nil {
		return errors.Join(append(joinedErrs, fmt.Errorf("localnet: %w", err))...)
	}
	return errors.Join(joinedErrs...)
}

// Kill SIGKILLs the node (every node, and the nodes that joined it) and its
// plugin processes at once, like
// a crash, and returns when they are gone. Killing a stopped network is a
// no-op.
func (n *Network) Kill() error {
	var joinedErrs []error
	for _, j := range n.joinedNodes() {
		joinedErrs = append(joinedErrs, j.Kill())
	}
	if err := n.kill(); err != nil {
		return errors.Join(append(joinedErrs, fmt.Errorf("localnet: %w", err))...)
	}
	return errors.Join(joinedErrs...)
}

// Restart stops the node (every node) if it still runs, starts it again on
// the same data dir and ports, and waits until it is healthy. A failed
// Restart leaves no node running.
func (n *Network) Restart(ctx context.Context) error {
	if err := n.restart(ctx); err != nil {
		return fmt.Errorf("localnet: %w", err)
	}
	return nil
}

func (n *Network) stop(ctx context.Context) error { return n.stopWithin(ctx, stopGrace) }

// stopWithin stops every node, all at once: a validator waits for no other
// to shut down.
func (n *Network) stopWithin(ctx context.Context, grace time.Duration) error {
	procs := n.takeAll()
	errs := make([]error, len(procs))
	var wg sync.WaitGroup
	for i, proc := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = n.stopProcess(ctx, proc, grace)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (n *Network) stopProcess(ctx context.Context, proc *nodeProcess, grace time.Duration) error {
	escalated, err := proc.stop(ctx, grace)
	if err != nil {
		return fmt.Errorf("stopping node pid %d: %w", proc.pid(), err)
	}
	if escalated {
		n.cfg.logf("node pid %d did not stop in time and was killed", proc.pid())
	}
	return nil
}

// abandon stops a node that failed to come up. It gets a short grace period
// of its own, since the caller's ctx has often ended already: a node killed
// in the middle of creating the chain could leave its database in a state
// the next Start has to cope with.
func (n *Network) abandon() error {
	if len(n.running()) == 0 {
		return nil
	}
	began := time.Now()
	if n.cfg.multi() {
		n.cfg.logf("stopping the nodes: bring-up failed")
	} else {
		n.cfg.logf("stopping the node: bring-up failed")
	}
	err := n.stopWithin(context.Background(), abandonGrace)
	n.cfg.logf("node stopped in %s", time.Since(began).Round(time.Millisecond))
	return err
}

func (n *Network) kill() error {
	var errs []error
	for _, proc := range n.takeAll() {
		if err := proc.kill(); err != nil {
			errs = append(errs, fmt.Errorf("killing node pid %d: %w", proc.pid(), err))
		}
	}
	return errors.Join(errs...)
}

func (n *Network) restart(ctx context.Context) error {
	if err := n.stop(ctx); err != nil {
		return err
	}
	return n.startAndWait(ctx)
}

// startAndWait starts the node and waits until it is healthy; a node that
// does not get there is stopped, so a failure leaves nothing running.
func (n *Network) startAndWait(ctx context.Context) error {
	if err := n.launchAll(); err != nil {
		return errors.Join(err, n.abandon()) // node 1 may run when another could not start
	}
	if err := n.waitHealthy(ctx); err != nil {
		return errors.Join(err, n.abandon())
	}
	return nil
}
