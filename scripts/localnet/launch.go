package localnet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// tailBytes is how much recent node output is kept for error messages.
const tailBytes = 64 << 10

// launch starts the node process on the network's data dir and ports.
func (n *Network) launch() error {
	if n.process() != nil {
		return errors.New("node already running")
	}
	if err := n.checkNoNodeRunning(); err != nil {
		return err
	}
	if err := checkPortsFree(n.state.HTTPPort, n.state.StakingPort); err != nil {
		return err
	}
	stdout, stderr, closeOutput, err := n.outputs()
	if err != nil {
		return err
	}
	args := n.cfg.argsFor(n.cfg.DataDir, n.state.HTTPPort, n.state.StakingPort, n.singleNodeFlags())
	if n.cfg.multi() {
		args = n.cfg.argsFor(n.cfg.DataDir, n.state.HTTPPort, n.state.StakingPort, n.multiNodeFlags(1))
	}
	proc, err := startNodeProcess(n.cfg.AvalancheGoPath, args, stdout, stderr, closeOutput)
	if err != nil {
		closeOutput()
		return err
	}
	n.mu.Lock()
	n.proc = proc
	n.mu.Unlock()
	if n.cfg.multi() {
		n.cfg.logf("node 1 started (pid %d) at %s", proc.pid(), n.URI())
	} else {
		n.cfg.logf("node started (pid %d) at %s", proc.pid(), n.URI())
	}
	return nil
}

// outputs returns the writers for the node's stdout and stderr: the
// caller's, or a file in the data dir, each also feeding the tail buffer.
// closeOutput closes the file, if one was opened, once the node has exited.
func (n *Network) outputs() (stdout, stderr io.Writer, closeOutput func(), err error) {
	closeOutput = func() {}
	stdout, stderr = n.cfg.Stdout, n.cfg.Stderr
	if stdout == nil || stderr == nil {
		f, err := os.OpenFile(n.OutputPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("opening the node output file: %w", err)
		}
		closeOutput = func() { _ = f.Close() }
		if stdout == nil {
			stdout = f
		}
		if stderr == nil {
			stderr = f
		}
	}
	// One writer for both streams when they share a destination, so a
	// writer that is not safe for concurrent use (bytes.Buffer, testing's
	// log writers) is fed by a single goroutine.
	if sameWriter(stdout, stderr) {
		w := io.MultiWriter(stdout, n.tail)
		return w, w, closeOutput, nil
	}
	return io.MultiWriter(stdout, n.tail), io.MultiWriter(stderr, n.tail), closeOutput, nil
}

// sameWriter compares two writers without panicking on writer types that
// are not comparable.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// checkPortsFree fails when another process holds one of the node's ports.
// Besides a clearer message, it keeps the bring-up from talking to somebody
// else's node on that port while its own node is still dying, and issuing
// the chain-creating txs there.
func checkPortsFree(ports ...int) error {
	for _, port := range ports {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			return fmt.Errorf("port %d is in use (another node? try: pgrep -a avalanchego): %w", port, err)
		}
		_ = l.Close()
	}
	return nil
}

// checkNoNodeRunning refuses to start a second node on a data dir whose node
// still runs (e.g. left over from a killed `make run`): the new one would die
// on the database lock or the ports with a less helpful message. A node
// removes its process.json on a clean shutdown; a stale one after a crash
// names a dead process and is ignored.
func (n *Network) checkNoNodeRunning() error {
	path := filepath.Join(n.cfg.DataDir, "process.json")
	if p, ok := n.cfg.ExtraFlags["process-context-file"]; ok {
		path = p
	}
	return checkNoNodeRunningIn(path, n.cfg.DataDir)
}

// checkNoNodeRunningIn is checkNoNodeRunning for the node of dataDir, whose
// process context file is path.
func checkNoNodeRunningIn(path, dataDir string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	var pc struct {
		PID int `json:"pid"`
	}
	if json.Unmarshal(b, &pc) != nil || pc.PID <= 0 {
		return nil
	}
	if err := syscall.Kill(pc.PID, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return nil // not alive
	}
	// The PID may have been reused by something else since a crash.
	if cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pc.PID), "cmdline")); err == nil &&
		!bytes.Contains(cmdline, []byte("avalanchego")) {
		return nil
	}
	return fmt.Errorf("a node (pid %d) is already running on data dir %s; stop it first", pc.PID, dataDir)
}
