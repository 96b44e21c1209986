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

// Network is a running (or stopped) local node with the avadata chain. Its
// methods are safe for concurrent use.
type Network struct {
	cfg   Config // validated, with absolute paths
	state state  // the chain and the ports, as saved in the data dir
	tail  *tailBuffer

	mu   sync.Mutex
	proc *nodeProcess // nil while the node is not running
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

// PID is the node process's ID, 0 while it is not running.
func (n *Network) PID() int {
	if p := n.process(); p != nil {
		return p.pid()
	}
	return 0
}

// Exited returns a channel that is closed when the node process running now
// exits, whether stopped, killed or crashed; already closed when no node runs.
func (n *Network) Exited() <-chan struct{} {
	if p := n.process(); p != nil {
		return p.done
	}
	closed := make(chan struct{})
	close(closed)
	return closed
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

// Stop shuts the node down: SIGTERM, then SIGKILL of the node and its
// plugins if it has not exited after 30 s or when ctx ends first. Stopping a
// stopped network is a no-op.
func (n *Network) Stop(ctx context.Context) error {
	if err := n.stop(ctx); err != nil {
		return fmt.Errorf("localnet: %w", err)
	}
	return nil
}

// Kill SIGKILLs the node and its plugin processes at once, like a crash,
// and returns when they are gone. Killing a stopped network is a no-op.
func (n *Network) Kill() error {
	if err := n.kill(); err != nil {
		return fmt.Errorf("localnet: %w", err)
	}
	return nil
}

// Restart stops the node if it still runs, starts it again on the same data
// dir and ports, and waits until it is healthy. A failed Restart leaves no
// node running.
func (n *Network) Restart(ctx context.Context) error {
	if err := n.restart(ctx); err != nil {
		return fmt.Errorf("localnet: %w", err)
	}
	return nil
}

func (n *Network) stop(ctx context.Context) error { return n.stopWithin(ctx, stopGrace) }

func (n *Network) stopWithin(ctx context.Context, grace time.Duration) error {
	proc := n.takeProcess()
	if proc == nil {
		return nil
	}
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
	if n.process() == nil {
		return nil
	}
	began := time.Now()
	n.cfg.logf("stopping the node: bring-up failed")
	err := n.stopWithin(context.Background(), abandonGrace)
	n.cfg.logf("node stopped in %s", time.Since(began).Round(time.Millisecond))
	return err
}

func (n *Network) kill() error {
	proc := n.takeProcess()
	if proc == nil {
		return nil
	}
	if err := proc.kill(); err != nil {
		return fmt.Errorf("killing node pid %d: %w", proc.pid(), err)
	}
	return nil
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
	if err := n.launch(); err != nil {
		return err
	}
	if err := n.waitHealthy(ctx); err != nil {
		return errors.Join(err, n.abandon())
	}
	return nil
}
