//go:build e2e

// The tests of this file start real nodes (make build first): the e2e
// targets of the Makefile run them with -tags e2e; make test-unit leaves
// them out.

package localnet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	platformapi "github.com/ava-labs/avalanchego/vms/platformvm/api"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/scripts/seed"
)

// TestOperatorRunFiveNodes runs the launcher of `make run NODES=5` as the Makefile
// does: the local network of the five genesis validators comes up with
// sybil protection on, node 1 serves avadata on the usual URLs, and the
// printed aggregation example returns a warp message that avalanchego's
// warp verification accepts against the P-chain's validator set. Ctrl-C
// (SIGINT) stops every node; a second run resumes the network from its
// data dir; a run asking for one node on it is refused.
func TestOperatorRunFiveNodes(t *testing.T) {
	avalanchego, pluginDir := binaries(t)
	stakingDir := localStakingDir(t)
	launcher := filepath.Join(t.TempDir(), "avadata-localnet")
	if out, err := exec.Command("go", "build", "-o", launcher, "./cmd/avadata-localnet").CombinedOutput(); err != nil {
		t.Fatalf("building the launcher: %v\n%s", err, out)
	}
	dataDir := t.TempDir()
	httpPort := freePortBlock(t, 2*LocalValidators)
	args := []string{
		"--avalanchego=" + avalanchego, "--plugin-dir=" + pluginDir, "--data-dir=" + dataDir,
		"--http-port=" + strconv.Itoa(httpPort), "--staking-port=" + strconv.Itoa(httpPort+1),
		"--node-flags=", "--seed=1", "--nodes=5", "--local-staking-dir=" + stakingDir,
	}

	began := time.Now()
	run := startLauncher(t, launcher, args)
	summary := run.waitSummary(t, 12*time.Minute)
	t.Logf("first run: up and seeded in %s", time.Since(began).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	uris := checkFiveValidators(t, ctx, summary, httpPort)
	checkAvadataServed(t, ctx, summary)
	checkAggregation(t, ctx, summary, uris[1])
	chainID := summary.field(t, "chain / subnet")
	pids := nodePIDs(t, dataDir)
	run.interrupt(t)
	checkNodesGone(t, pids, uris)

	// A data dir of five nodes is no one-node network.
	out, err := exec.Command(launcher, append(slices.Clone(args[:len(args)-2]), "--nodes=1")...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "holds a network of 5 node(s), not 1") {
		t.Errorf("--nodes=1 on a 5-node data dir: %v\n%s", err, out)
	}

	began = time.Now()
	run = startLauncher(t, launcher, args)
	summary = run.waitSummary(t, 6*time.Minute)
	t.Logf("second run: resumed in %s", time.Since(began).Round(time.Millisecond))
	if got := summary.field(t, "chain / subnet"); got != chainID {
		t.Errorf("resumed network's chain / subnet %s, want %s", got, chainID)
	}
	uris = checkFiveValidators(t, ctx, summary, httpPort)
	checkAggregation(t, ctx, summary, uris[2])
	// Node 1 bootstraps from its peers after a restart, and its P-chain API
	// answers 503 meanwhile: avadata must keep trying, not give up.
	followCtx, cancelFollow := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancelFollow()
	checkFollowing(t, followCtx, summary)
	pids = nodePIDs(t, dataDir)
	run.interrupt(t)
	checkNodesGone(t, pids, uris)
}

// launcherRun is one run of the launcher, its stdout read line by line.
type launcherRun struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *bytes.Buffer
}

func startLauncher(t *testing.T, launcher string, args []string) *launcherRun {
	t.Helper()
	r := &launcherRun{cmd: exec.Command(launcher, args...), lines: make(chan string, 1024), stderr: &bytes.Buffer{}}
	r.cmd.Stderr = io.MultiWriter(r.stderr, testLogWriter{t})
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Killed with its nodes if the test fails midway: the nodes get SIGTERM
	// when their launcher dies (Pdeathsig).
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
		}
	})
	go func() {
		defer close(r.lines)
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			r.lines <- s.Text()
		}
	}()
	return r
}

// summary is what the launcher printed, up to "Ctrl-C stops ...".
type summary []string

func (r *launcherRun) waitSummary(t *testing.T, timeout time.Duration) summary {
	t.Helper()
	var out summary
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				t.Fatalf("the launcher ended before its summary; stdout:\n%s", strings.Join(out, "\n"))
			}
			out = append(out, line)
			if strings.HasPrefix(line, "Ctrl-C stops") {
				t.Logf("printed:\n%s", strings.Join(out, "\n"))
				return out
			}
		case <-deadline:
			t.Fatalf("no summary after %s; stdout so far:\n%s", timeout, strings.Join(out, "\n"))
		}
	}
}

// field is the value of the summary line "  <label>   <value>".
func (s summary) field(t *testing.T, label string) string {
	t.Helper()
	for _, line := range s {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), label+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %q line in the summary", label)
	return ""
}

// interrupt sends what Ctrl-C sends and waits for a clean exit.
func (r *launcherRun) interrupt(t *testing.T) {
	t.Helper()
	began := time.Now()
	if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for range r.lines { // drain until stdout closes
	}
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("launcher exit after SIGINT: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the launcher did not exit within 2 min of SIGINT")
	}
	t.Logf("stopped in %s after SIGINT", time.Since(began).Round(time.Millisecond))
}

// checkFiveValidators: the five nodes the launcher lists are the local
// genesis's validators, current on the P-chain, connected to one another,
// and node 1 validates the subnets of the chains it runs. It returns the
// nodes' URIs.
func checkFiveValidators(t *testing.T, ctx context.Context, s summary, httpPort int) []string {
	t.Helper()
	uris := []string{s.field(t, "node URI")}
	nodeLine := regexp.MustCompile(`^node (\d)\s+(\S+)\s+(NodeID-\S+)`)
	for _, line := range s {
		if m := nodeLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			uris = append(uris, m[2])
		}
	}
	if len(uris) != LocalValidators {
		t.Fatalf("summary lists nodes %v, want %d", uris, LocalValidators)
	}
	for i, uri := range uris {
		if want := "http://127.0.0.1:" + strconv.Itoa(httpPort+2*i); uri != want {
			t.Errorf("node %d at %s, want %s", i+1, uri, want)
		}
	}
	var running []ids.NodeID
	for _, uri := range uris {
		id, _, err := info.NewClient(uri).GetNodeID(ctx)
		if err != nil {
			t.Fatalf("info.getNodeID on %s: %v", uri, err)
		}
		running = append(running, id)
	}
	var genesisIDs []ids.NodeID
	for _, s := range genesis.LocalConfig.InitialStakers {
		genesisIDs = append(genesisIDs, s.NodeID)
	}
	if !slices.Equal(running, genesisIDs) {
		t.Errorf("nodes run as %v, the local genesis's validators are %v", running, genesisIDs)
	}
	p := platformvm.NewClient(uris[0])
	vdrs, err := p.GetCurrentValidators(ctx, constants.PrimaryNetworkID, nil)
	if err != nil {
		t.Fatal(err)
	}
	var current []ids.NodeID
	for _, v := range vdrs {
		current = append(current, v.NodeID)
	}
	if slices.SortFunc(current, ids.NodeID.Compare); !slices.Equal(current, slices.SortedFunc(slices.Values(running), ids.NodeID.Compare)) {
		t.Errorf("current primary validators %v, want the running nodes %v", current, running)
	}
	peers, err := info.NewClient(uris[0]).Peers(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var connected []ids.NodeID
	for _, peer := range peers {
		connected = append(connected, peer.ID)
	}
	for _, id := range running[1:] {
		if !slices.Contains(connected, id) {
			t.Errorf("node 1 is not connected to %s (peers %v)", id, connected)
		}
	}
	// Node 1 validates the subnets of the avadata and subnet-evm chains.
	avadataChain := strings.Fields(s.field(t, "chain / subnet"))[0]
	evmChain := regexp.MustCompile(`/ext/bc/(\w+)/rpc`).FindStringSubmatch(s.field(t, "subnetevm RPC"))
	for _, chain := range []string{avadataChain, evmChain[1]} {
		chainID, err := ids.FromString(chain)
		if err != nil {
			t.Fatal(err)
		}
		subnetID, err := p.ValidatedBy(ctx, chainID)
		if err != nil {
			t.Fatal(err)
		}
		vdrs, err := p.GetCurrentValidators(ctx, subnetID, []ids.NodeID{running[0]})
		if err != nil || len(vdrs) != 1 {
			t.Errorf("node 1 among subnet %s's validators (chain %s): %v, %v", subnetID, chainID, vdrs, err)
		}
	}
	return uris
}

// checkAvadataServed: node 1 serves avadata under its alias and its chain
// ID, and both EVM chains answer.
func checkAvadataServed(t *testing.T, ctx context.Context, s summary) {
	t.Helper()
	if status := getStatus(t, s.field(t, "avadata API")+"/v1/status"); status != http.StatusOK {
		t.Errorf("avadata status: %d", status)
	}
	if status := getStatus(t, s.field(t, "by chain ID")+"/"); status == http.StatusNotFound || status == http.StatusServiceUnavailable {
		t.Errorf("avadata by chain ID: %d", status)
	}
	for label, want := range map[string]uint64{"C-Chain RPC": CChainEVMChainID, "subnetevm RPC": SubnetEVMChainID} {
		url := strings.Fields(s.field(t, label))[0]
		if got, err := evmChainID(ctx, url); err != nil || got != want {
			t.Errorf("%s eth_chainId: %d, %v; want %d", url, got, err, want)
		}
	}
}

// checkFollowing waits until avadata's status lists followers that all
// run and are caught up, without an error.
func checkFollowing(t *testing.T, ctx context.Context, s summary) {
	t.Helper()
	url := s.field(t, "avadata API") + "/v1/status"
	var last string
	for {
		var st struct {
			Chains []follower.Status `json:"chains"`
		}
		ok := false
		if body, err := getBody(ctx, url); err != nil {
			last = err.Error()
		} else if err := json.Unmarshal(body, &st); err != nil {
			last = err.Error()
		} else {
			last, ok = string(body), len(st.Chains) > 0
			for _, c := range st.Chains {
				ok = ok && c.Running && c.CaughtUp && c.LastError == ""
			}
		}
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("avadata not following the node: %s", last)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// getBody GETs url and returns its body, an error unless it answered 200.
func getBody(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	return body, err
}

// checkAggregation runs the printed aggregation example and verifies its
// answer with avalanchego's warp verification against the primary
// network's validators at the P-chain height the answer names, as read
// from another node (verifierURI).
func checkAggregation(t *testing.T, ctx context.Context, s summary, verifierURI string) {
	t.Helper()
	var curl string
	for i, line := range s {
		if strings.Contains(line, "(aggregateSignatures)") && i+1 < len(s) {
			curl = strings.TrimSpace(s[i+1])
		}
	}
	m := regexp.MustCompile(`^curl -s -H 'Content-Type: application/json' -d '([^']+)' '([^']+)'$`).FindStringSubmatch(curl)
	if m == nil {
		t.Fatalf("no aggregation example among the printed ones (got %q)", curl)
	}
	body, url := m[1], m[2]
	var req struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatal(err)
	}
	msgBytes, err := hex.DecodeString(strings.TrimPrefix(req.Message, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := avalancheWarp.ParseUnsignedMessage(msgBytes)
	if err != nil {
		t.Fatal(err)
	}
	call, err := payload.ParseAddressedCall(msg.Payload)
	if err != nil || string(call.Payload) != seed.WarpPayload {
		t.Errorf("the example's message is not the sample's sendWarpMessage call: %v %v", call, err)
	}

	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	httpReq.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(httpReq)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	respBody, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, respBody)
	}
	var reply struct {
		SignedMessage string `json:"signedMessage"`
	}
	if err := json.Unmarshal(respBody, &reply); err != nil {
		t.Fatal(err)
	}
	raw, err := hex.DecodeString(strings.TrimPrefix(reply.SignedMessage, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := avalancheWarp.ParseMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(signed.UnsignedMessage.Bytes(), msgBytes) {
		t.Fatal("the signed message is not the message asked for")
	}
	height, err := strconv.ParseUint(resp.Header.Get("X-Pchain-Height"), 10, 64)
	if err != nil {
		t.Fatalf("X-Pchain-Height: %v", err)
	}
	vdrs, err := platformvm.NewClient(verifierURI).GetValidatorsAt(ctx, constants.PrimaryNetworkID, platformapi.Height(height))
	if err != nil {
		t.Fatal(err)
	}
	set, err := validators.FlattenValidatorSet(vdrs)
	if err != nil {
		t.Fatal(err)
	}
	if err := signed.Signature.Verify(&signed.UnsignedMessage, constants.LocalID, set, 67, 100); err != nil {
		t.Errorf("the aggregated signature does not verify against the primary network at P-chain height %d: %v", height, err)
	}
	signers, _ := signed.Signature.NumSigners()
	t.Logf("aggregated: %d of %d validators signed at P-chain height %d", signers, len(set.Validators), height)
}

// nodePIDs reads the nodes' PIDs from the process context files the nodes
// write in their data dirs.
func nodePIDs(t *testing.T, dataDir string) []int {
	t.Helper()
	dirs := []string{dataDir}
	for i := 2; i <= LocalValidators; i++ {
		dirs = append(dirs, peerDataDir(dataDir, i))
	}
	var pids []int
	for _, dir := range dirs {
		var pc struct {
			PID int `json:"pid"`
		}
		readJSON(t, filepath.Join(dir, "process.json"), &pc)
		pids = append(pids, pc.PID)
	}
	return pids
}

// checkNodesGone: no process of any node's group is left, and no node
// answers.
func checkNodesGone(t *testing.T, pids []int, uris []string) {
	t.Helper()
	for _, pid := range pids {
		if groupAlive(pid) || syscall.Kill(pid, 0) == nil {
			t.Errorf("node pid %d (or a plugin of it) still alive", pid)
		}
	}
	client := http.Client{Timeout: 2 * time.Second}
	for _, uri := range uris {
		if resp, err := client.Get(uri + "/ext/health"); err == nil {
			resp.Body.Close()
			t.Errorf("%s still answers", uri)
		}
	}
}

// freePortBlock returns the first of n consecutive free loopback ports, as
// a network started on explicit ports (make run's 9650...) needs them.
func freePortBlock(t *testing.T, n int) int {
	t.Helper()
	for base := 20000 + os.Getpid()%20000; base < 60000; base += n {
		if portsFree(base, n) {
			return base
		}
	}
	t.Fatalf("no %d consecutive free ports", n)
	return 0
}

func portsFree(base, n int) bool {
	for p := base; p < base+n; p++ {
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			return false
		}
		_ = l.Close()
	}
	return true
}

// testLogWriter sends the launcher's log lines to the test log.
type testLogWriter struct{ t *testing.T }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
