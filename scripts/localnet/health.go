package localnet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/ava-labs/avalanchego/api/health"
	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/libevm/common/hexutil"
)

const (
	// healthTimeout bounds each wait for the node. Bring-up takes seconds;
	// two minutes leaves room for a loaded CI machine.
	healthTimeout = 2 * time.Minute
	pollInterval  = 200 * time.Millisecond
	healthEvery   = 500 * time.Millisecond
	// probeTimeout bounds each probe request: once a plugin has died, every
	// request to its chain routes hangs forever.
	probeTimeout = 5 * time.Second
	// tailLines is how much node output an error carries.
	tailLines = 40
)

// poll calls check every pollInterval until it reports no problem. It gives
// up when ctx ends, the node process exits or check reports the problem as
// fatal, with an error that carries the last problem seen and the tail of
// the node's output.
func (n *Network) poll(ctx context.Context, proc *nodeProcess, what string, check func(context.Context) (problem string, fatal bool)) error {
	return pollNode(ctx, proc, n.tail, n.LogDir(), what, check)
}

// pollNode is poll for any node: tail and logDir are that node's.
func pollNode(ctx context.Context, proc *nodeProcess, tail *tailBuffer, logDir, what string, check func(context.Context) (problem string, fatal bool)) error {
	failure := func(msg, problem string) error { return failureOf(tail, logDir, msg, problem) }
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	ticker := time.NewTicker(pollInterval)
	defer ticker.Stop()
	problem := "not checked yet"
	for {
		if proc.exited() {
			return failure(fmt.Sprintf("waiting for %s: node exited (%s)", what, proc.exitStatus()), problem)
		}
		probeCtx, cancelProbe := context.WithTimeout(ctx, probeTimeout)
		var fatal bool
		problem, fatal = check(probeCtx)
		cancelProbe()
		switch {
		case problem == "":
			return nil
		case fatal:
			return failure(fmt.Sprintf("waiting for %s: giving up", what), problem)
		}
		select {
		case <-ticker.C:
		case <-proc.done:
		case <-ctx.Done():
			return failure(fmt.Sprintf("waiting for %s: %v", what, ctx.Err()), problem)
		}
	}
}

// failure builds an error that says what was awaited, the last problem seen,
// and where to look, with the tail of the node's output.
func (n *Network) failure(msg, problem string) error {
	return failureOf(n.tail, n.LogDir(), msg, problem)
}

// failureOf is failure for any node: tail and logDir are that node's.
func failureOf(tail *tailBuffer, logDir, msg, problem string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s; last problem: %s\nnode logs: %s", msg, problem, logDir)
	if tail := tail.lines(tailLines); tail != "" {
		fmt.Fprintf(&b, "\n--- last %d lines of node output ---\n%s", tailLines, tail)
	}
	return errors.New(b.String())
}

// waitBootstrapped waits until P, X and C have bootstrapped, which is when
// the P-chain accepts the txs that create the avadata chain.
func (n *Network) waitBootstrapped(ctx context.Context, proc *nodeProcess) error {
	return n.poll(ctx, proc, "P, X and C to bootstrap", bootstrappedCheck(n.URI()))
}

// waitAllBootstrapped is waitBootstrapped for every node of the network.
func (n *Network) waitAllBootstrapped(ctx context.Context) error {
	if err := n.waitBootstrapped(ctx, n.process()); err != nil {
		return err
	}
	for _, p := range n.peers {
		proc, err := n.peerProcess(p)
		if err != nil {
			return err
		}
		if err := pollNode(ctx, proc, p.tail, p.logDir(), p.name()+"'s P, X and C to bootstrap", bootstrappedCheck(p.uri())); err != nil {
			return err
		}
	}
	return nil
}

// waitPeersHealthy waits until nodes 2 to Nodes answer /ext/health with 200.
func (n *Network) waitPeersHealthy(ctx context.Context) error {
	for _, p := range n.peers {
		proc, err := n.peerProcess(p)
		if err != nil {
			return err
		}
		// Asked every healthEvery only, like node 1: each /ext/health of an
		// unhealthy node logs a WARN with every check's result.
		uri, due, problem := p.uri(), time.Time{}, "not checked yet"
		if err := pollNode(ctx, proc, p.tail, p.logDir(), p.name()+" to be healthy", func(ctx context.Context) (string, bool) {
			if now := time.Now(); now.After(due) {
				problem, _ = nodeHealthProblem(ctx, uri)
				due = now.Add(healthEvery)
			}
			return problem, false
		}); err != nil {
			return err
		}
	}
	return nil
}

func (n *Network) peerProcess(p *peer) (*nodeProcess, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if p.proc == nil {
		return nil, fmt.Errorf("%s is not running", p.name())
	}
	return p.proc, nil
}

// bootstrappedCheck is a poll check that P, X and C of the node at uri
// have bootstrapped.
func bootstrappedCheck(uri string) func(context.Context) (string, bool) {
	client := info.NewClient(uri)
	return func(ctx context.Context) (string, bool) {
		for _, chain := range []string{"P", "X", "C"} {
			done, err := client.IsBootstrapped(ctx, chain)
			if err != nil {
				return fmt.Sprintf("info.isBootstrapped(%s): %v", chain, err), false
			}
			if !done {
				return chain + " not bootstrapped yet", false
			}
		}
		return "", false
	}
}

// WaitHealthy waits (at most two minutes) until /ext/health answers 200,
// every EVM chain answers eth_chainId with its chain ID, and the avadata
// chain's routes answer: by chain ID and, unless aliasing is off, by alias,
// which the plugin registers itself shortly after it starts.
func (n *Network) WaitHealthy(ctx context.Context) error {
	if err := n.waitHealthy(ctx); err != nil {
		return fmt.Errorf("localnet: %w", err)
	}
	return nil
}

func (n *Network) waitHealthy(ctx context.Context) error {
	proc := n.process()
	if proc == nil {
		return errors.New("node is not running")
	}
	// The node logs a WARN with every check's full result for each
	// /ext/health request while unhealthy, so that one is asked only every
	// healthEvery; the routes are cheap to ask.
	var (
		healthDue     time.Time
		healthProblem = "not checked yet"
	)
	what := "the node and the avadata chain to be healthy"
	if n.cfg.multi() {
		what = "node 1 and the avadata chain to be healthy"
	}
	err := n.poll(ctx, proc, what, func(ctx context.Context) (string, bool) {
		if now := time.Now(); now.After(healthDue) {
			var fatal bool
			healthProblem, fatal = nodeHealthProblem(ctx, n.URI())
			if fatal {
				return healthProblem, true
			}
			healthDue = now.Add(healthEvery)
		}
		if healthProblem != "" {
			return healthProblem, false
		}
		if p := routeProblem(ctx, n.ChainURL()+"/"); p != "" {
			return p, false
		}
		for _, chain := range n.EVMChains() {
			if p := evmChainProblem(ctx, chain); p != "" {
				return p, false
			}
		}
		if n.cfg.alias() != "" {
			return routeProblem(ctx, n.BaseURL()+"/"), false
		}
		return "", false
	})
	if err != nil {
		return err
	}
	return n.waitPeersHealthy(ctx)
}

// chainFailedMarker starts the failing check a node registers for a chain it
// could not create (e.g. the plugin rejected its config). Nothing but a new
// start fixes that, so waiting for it is pointless.
const chainFailedMarker = "failed to create chain"

// nodeHealthProblem returns "" when GET /ext/health is 200, else the names
// and errors of the failing checks, and whether one of them is fatal.
func nodeHealthProblem(ctx context.Context, uri string) (problem string, fatal bool) {
	status, body, err := get(ctx, uri+"/ext/health")
	if err != nil {
		return fmt.Sprintf("GET /ext/health: %v", err), false
	}
	if status == http.StatusOK {
		return "", false
	}
	var reply health.APIReply
	if json.Unmarshal(body, &reply) != nil {
		return fmt.Sprintf("GET /ext/health: %d %s", status, strings.TrimSpace(string(body))), false
	}
	var failing []string
	for name, r := range reply.Checks {
		if r.Error != nil {
			failing = append(failing, fmt.Sprintf("%s: %s", name, *r.Error))
			fatal = fatal || strings.Contains(*r.Error, chainFailedMarker)
		}
	}
	sort.Strings(failing)
	return fmt.Sprintf("GET /ext/health: %d, failing checks: %s", status, strings.Join(failing, "; ")), fatal
}

// routeProblem returns "" when url is served by the plugin. 404 means the
// route is not registered (yet); 503 means the chain is not done
// bootstrapping. Anything else, even an error status, comes from the plugin.
func routeProblem(ctx context.Context, url string) string {
	status, body, err := get(ctx, url)
	switch {
	case err != nil:
		return fmt.Sprintf("GET %s: %v", url, err)
	case status == http.StatusNotFound || status == http.StatusServiceUnavailable:
		return fmt.Sprintf("GET %s: %d %s", url, status, strings.TrimSpace(string(body)))
	}
	return ""
}

func get(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20)) // /ext/health runs to tens of KB
	return resp.StatusCode, body, err
}

// evmChainProblem returns "" when the chain's RPC endpoint answers
// eth_chainId with the chain's EVM chain ID.
func evmChainProblem(ctx context.Context, chain EVMChain) string {
	got, err := evmChainID(ctx, chain.RPCURL)
	switch {
	case err != nil:
		return fmt.Sprintf("%s eth_chainId: %v", chain.Name, err)
	case got != chain.EVMChainID:
		return fmt.Sprintf("%s eth_chainId: %d, want %d", chain.Name, got, chain.EVMChainID)
	}
	return ""
}

// evmChainID asks an eth JSON-RPC endpoint for its chain ID.
func evmChainID(ctx context.Context, rpcURL string) (uint64, error) {
	body := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rpcURL, body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%d %s", resp.StatusCode, strings.TrimSpace(string(b)))
	}
	var reply struct {
		Result *hexutil.Uint64 `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &reply); err != nil {
		return 0, fmt.Errorf("decoding %q: %w", b, err)
	}
	if reply.Error != nil {
		return 0, errors.New(reply.Error.Message)
	}
	if reply.Result == nil {
		return 0, fmt.Errorf("no result in %q", b)
	}
	return uint64(*reply.Result), nil
}
