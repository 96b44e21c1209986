package localnet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"
)

const (
	// stopGrace is how long a node gets to shut down after SIGTERM before it
	// is killed. A clean stop takes ~1.5 s; one whose plugin died first takes
	// ~62 s, which is not worth waiting for.
	stopGrace = 30 * time.Second
	// groupGoneTimeout bounds the wait for the node's plugin processes to
	// disappear after SIGKILL, so a restarted plugin never races the old one
	// for its files.
	groupGoneTimeout = 10 * time.Second
	// outputDrainDelay bounds how long reaping waits for the output pipes
	// after the node exits.
	outputDrainDelay = 5 * time.Second
)

// nodeProcess is one run of the avalanchego binary. The node leads its own
// process group, and the plugin processes it starts stay in that group, so
// the whole group can be killed at once, and a Ctrl-C in the caller's
// terminal reaches only the caller, which then stops the node in order.
type nodeProcess struct {
	cmd     *exec.Cmd
	done    chan struct{} // closed once the process has been reaped
	waitErr error         // cmd.Wait's result; read only after done is closed
}

// startNodeProcess starts the node. onExit runs after the process has been
// reaped (e.g. to close an output file).
func startNodeProcess(path string, args []string, stdout, stderr io.Writer, onExit func()) (*nodeProcess, error) {
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = nodeSysProcAttr()
	cmd.WaitDelay = outputDrainDelay
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
	p := &nodeProcess{cmd: cmd, done: make(chan struct{})}
	// Reap in the background right away, so the node never lingers as a
	// zombie whatever the caller does next.
	go func() {
		p.waitErr = cmd.Wait()
		if onExit != nil {
			onExit()
		}
		close(p.done)
	}()
	return p, nil
}

func (p *nodeProcess) pid() int { return p.cmd.Process.Pid }

func (p *nodeProcess) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitStatus describes how the process ended; only valid once exited.
func (p *nodeProcess) exitStatus() string {
	if p.cmd.ProcessState != nil {
		return p.cmd.ProcessState.String()
	}
	if p.waitErr != nil {
		return p.waitErr.Error()
	}
	return "exited"
}

// stop asks the node to shut down (SIGTERM to the node only: it stops its
// plugins itself, and signalling them too makes its shutdown hang), waits up
// to grace or until ctx ends, then kills whatever is left of the group.
// It reports whether it had to escalate.
func (p *nodeProcess) stop(ctx context.Context, grace time.Duration) (escalated bool, err error) {
	if !p.exited() {
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) && !p.exited() {
			return false, fmt.Errorf("sending SIGTERM to node pid %d: %w", p.pid(), err)
		}
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.done:
	case <-timer.C:
		escalated = true
	case <-ctx.Done():
		escalated = true
	}
	// Even after a clean exit this sweeps up plugin processes the node leaked.
	return escalated, p.kill()
}

// kill SIGKILLs the whole process group, waits until the node is reaped and
// until no live member of the group is left.
func (p *nodeProcess) kill() error {
	pgid := p.pid() // the node leads its group (Setpgid)
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("killing node process group %d: %w", pgid, err)
	}
	<-p.done // SIGKILL cannot be ignored; WaitDelay bounds the pipe drain
	deadline := time.Now().Add(groupGoneTimeout)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			return fmt.Errorf("processes of group %d still alive %s after SIGKILL", pgid, groupGoneTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}
