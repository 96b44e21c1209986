package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
)

// Env is what the end-to-end tests of one package share, made by its
// TestMain (NewEnv, then Run): a single-node local network with avadata
// and, for the tests that need blocks signed by their proposers or two
// replicas, a 2-node network with sybil protection on. Each starts when a
// test first asks for it and stops once the package's tests are done, so a
// run that selects none of the tests needing one never starts it. A panic
// or a timeout ends the test binary before Run can stop them: the nodes
// are then left running, their data in the directory the starting test
// logs.
type Env struct {
	name string

	single     Once[*localnet.Network]
	two        Once[*TwoNodes]
	mu         sync.Mutex
	dir        string                        // made on first use; kept when a test failed
	stops      []func(context.Context) error // what Run stops, in start order
	startedFor []string
}

// NewEnv makes the environment of the package called name (which names
// its messages and its networks' directory).
func NewEnv(name string) *Env { return &Env{name: name} }

// Run runs the package's tests, then stops the networks they started and
// removes their data, or keeps it for inspection when a test failed.
func (e *Env) Run(m *testing.M) int {
	code := m.Run()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := len(e.stops) - 1; i >= 0; i-- {
		if err := e.stops[i](ctx); err != nil {
			fmt.Fprintf(os.Stderr, "%s: stopping the network started for %s: %v\n", e.name, e.startedFor[i], err)
		}
	}
	switch {
	case e.dir == "":
	case code == 0:
		_ = os.RemoveAll(e.dir)
	default:
		fmt.Printf("%s: kept %s for inspection\n", e.name, e.dir)
	}
	return code
}

// Net is the shared single-node network, started on first use.
func (e *Env) Net(t testing.TB) *localnet.Network {
	t.Helper()
	return e.single.Get(t, "the shared network", func() *localnet.Network { return e.startSingle(t) })
}

// URI is the shared network's node URI.
func (e *Env) URI(t testing.TB) string { return e.Net(t).URI() }

// Base is the base URL of the shared network's avadata (its alias).
func (e *Env) Base(t testing.TB) string { return e.Net(t).BaseURL() }

// Metrics is the base URL of the shared network's Metrics API.
func (e *Env) Metrics(t testing.TB) string { return e.Base(t) + "/metrics" }

func (e *Env) startSingle(t testing.TB) *localnet.Network {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	began := time.Now()
	net, err := startNetwork(ctx, filepath.Join(e.tempDir(t), "node"))
	require.NoError(t, err, "%s: starting the shared network", e.name)
	e.onStop(t.Name(), net.Stop)
	t.Logf("%s: shared network up in %s (for %s): node %s, avadata %s, logs %s",
		e.name, time.Since(began).Round(time.Millisecond), t.Name(), net.URI(), net.BaseURL(), net.LogDir())
	return net
}

// tempDir is the directory the package's networks keep their data in.
func (e *Env) tempDir(t testing.TB) string {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dir == "" {
		dir, err := os.MkdirTemp("", "avadata-e2e-"+e.name+"-")
		require.NoError(t, err, "making the networks' directory")
		e.dir = dir
	}
	return e.dir
}

// onStop has Run stop a network the test named startedFor started.
func (e *Env) onStop(startedFor string, stop func(context.Context) error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stops = append(e.stops, stop)
	e.startedFor = append(e.startedFor, startedFor)
}
