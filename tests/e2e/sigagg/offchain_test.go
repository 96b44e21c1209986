package sigagg

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/config"
	nodeconfig "github.com/ava-labs/avalanchego/config/node"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/network/p2p"
	"github.com/ava-labs/avalanchego/tests/fixture/tmpnet"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/scripts/localnet/multinode"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/vm"
)

// offChainNet is the 5-validator network of sigAggNet whose C-chains all
// know a pool of off-chain warp messages (coreth's warp-off-chain-messages
// setting): every validator signs each of them, so a test or a benchmark
// has as many distinct fresh messages as it needs without sending a
// transaction for each.
type offChainNet struct {
	*sigAggNet
	// client is shared by concurrent requesters, so that its idle
	// connections are reused rather than opened per request.
	client *http.Client

	mu     sync.Mutex
	msgs   []*avalancheWarp.UnsignedMessage
	issued int // msgs[:issued] were handed out
}

// offChainMessages are n distinct unsigned warp messages from cChainID:
// AddressedCall payloads, the only kind coreth accepts off chain.
func offChainMessages(networkID uint32, cChainID ids.ID, n int) ([]*avalancheWarp.UnsignedMessage, error) {
	source := []byte("avadata-offchain-src") // any 20 bytes: an EVM address
	msgs := make([]*avalancheWarp.UnsignedMessage, n)
	for i := range msgs {
		call, err := payload.NewAddressedCall(source, []byte(fmt.Sprintf("avadata off-chain message %d", i)))
		if err != nil {
			return nil, fmt.Errorf("building off-chain payload %d: %w", i, err)
		}
		if msgs[i], err = avalancheWarp.NewUnsignedMessage(networkID, cChainID, call.Bytes()); err != nil {
			return nil, fmt.Errorf("building off-chain message %d: %w", i, err)
		}
	}
	return msgs, nil
}

// startOffChainSigAggNet starts a network like startSigAggNet's, with
// messages off-chain messages in every node's C-chain config, and waits
// until the aggregator is connected to every validator. It takes a
// testing.TB so that benchmarks can start one too.
func startOffChainSigAggNet(tb testing.TB, ctx context.Context, messages int) *offChainNet {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("starts a %d-node network", sigAggNodes)
	}
	avalanchego, pluginDir, err := harness.Binaries()
	if err != nil {
		tb.Skipf("multinode harness cannot run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pluginDir, vm.ID.String())); err != nil {
		tb.Skipf("multinode harness cannot run: no avadata plugin (make build): %v", err)
	}
	on := &offChainNet{client: &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute},
	}}
	tb.Cleanup(on.client.CloseIdleConnections)
	began := time.Now()
	n, err := multinode.StartTmpnet(ctx, multinode.TmpnetConfig{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		Nodes:           sigAggNodes,
		ChainNodes:      1,
		RootDir:         tb.TempDir(),
		ChainConfig:     harness.ChainConfig(),
		// Node 1's plugin hosts the aggregator: without these the node stops
		// reading the aggregator's connection under the soak's load.
		ChainNodeFlags: localnet.AggregatorHostFlags(),
		CChainConfig: func(networkID uint32, cChainID ids.ID) (map[string]any, error) {
			msgs, err := offChainMessages(networkID, cChainID, messages)
			if err != nil {
				return nil, err
			}
			on.msgs = msgs
			encoded := make([]string, len(msgs))
			for i, m := range msgs {
				encoded[i] = "0x" + hex.EncodeToString(m.Bytes()) // hexutil.Bytes wants the 0x
			}
			return map[string]any{"warp-off-chain-messages": encoded}, nil
		},
	})
	require.NoError(tb, err, "starting the %d-node network", sigAggNodes)
	tb.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := n.Stop(stopCtx); err != nil {
			tb.Error(err)
		}
	})
	uris := n.URIs()
	require.Len(tb, uris, sigAggNodes)
	on.sigAggNet = &sigAggNet{n: n, uris: uris,
		url: uris[0] + "/ext/bc/" + n.ChainID().String() + "/v1/signatureAggregator/network-88888/aggregateSignatures"}
	on.cChainID, err = info.NewClient(uris[0]).GetBlockchainID(ctx, "C")
	require.NoError(tb, err)
	require.Equal(tb, on.cChainID, on.msgs[0].SourceChainID, "the C-chain ID computed from the genesis is the node's")
	tb.Logf("%d-node network with %d off-chain messages up in %s, dir %s",
		sigAggNodes, messages, time.Since(began).Round(time.Millisecond), n.Dir())

	// The aggregator connects at start-up; wait until it has everyone.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		m, err := on.scrape(ctx)
		require.NoError(tb, err)
		stake, ok := m.value("vm_sigagg_connected_stake_ratio", `subnet="`+constants.PrimaryNetworkID.String()+`"`)
		if ok && stake == 1 {
			break
		}
		require.True(tb, time.Now().Before(deadline), "the aggregator never connected to every validator (%v)", stake)
		time.Sleep(500 * time.Millisecond)
	}
	tb.Logf("aggregator connected to every validator %s after start", time.Since(began).Round(time.Millisecond))
	return on
}

// take hands out n messages no one asked for yet.
func (on *offChainNet) take(tb testing.TB, n int) []*avalancheWarp.UnsignedMessage {
	tb.Helper()
	on.mu.Lock()
	defer on.mu.Unlock()
	if on.issued+n > len(on.msgs) {
		tb.Fatalf("the network knows %d off-chain messages and %d are used: %d more asked", len(on.msgs), on.issued, n)
	}
	out := on.msgs[on.issued : on.issued+n]
	on.issued += n
	return out
}

// post asks for an aggregation without a testing.T, for concurrent
// clients: the status, the headers and the body.
func (on *offChainNet) post(ctx context.Context, body map[string]any) (harness.Reply, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return harness.Reply{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, on.url, bytes.NewReader(b))
	if err != nil {
		return harness.Reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := on.client.Do(req)
	if err != nil {
		return harness.Reply{}, fmt.Errorf("POST aggregateSignatures: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return harness.Reply{}, fmt.Errorf("reading the aggregateSignatures reply: %w", err)
	}
	return harness.Reply{Status: resp.StatusCode, Header: resp.Header, Body: raw}, nil
}

// messageRequest is the request body that asks for msg with extra fields.
func messageRequest(msg *avalancheWarp.UnsignedMessage, extra map[string]any) map[string]any {
	body := map[string]any{"message": hex.EncodeToString(msg.Bytes())}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// pluginMetrics are the avadata plugin's series on the host node's
// /ext/metrics: the node names them avalanche_<VM ID>_<name> and labels
// them with the chain. The plugin process registers its own process and
// Go runtime collectors there (rpcchainvm), so its memory is read from
// the plugin process itself.
type pluginMetrics struct {
	prefix string
	lines  []string
}

func (on *offChainNet) scrape(ctx context.Context) (pluginMetrics, error) {
	return on.scrapeNode(ctx, on.uris[0], "avalanche_"+vm.ID.String()+"_")
}

// scrapeNode reads the series of the node at uri whose names start with
// prefix (value takes names without it).
func (on *offChainNet) scrapeNode(ctx context.Context, uri, prefix string) (pluginMetrics, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri+"/ext/metrics", nil)
	if err != nil {
		return pluginMetrics{}, err
	}
	resp, err := on.client.Do(req)
	if err != nil {
		return pluginMetrics{}, fmt.Errorf("reading %s's metrics: %w", uri, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return pluginMetrics{}, fmt.Errorf("reading %s's metrics: %w", uri, err)
	}
	if resp.StatusCode != http.StatusOK {
		return pluginMetrics{}, fmt.Errorf("%s's metrics: %d %s", uri, resp.StatusCode, raw)
	}
	return pluginMetrics{prefix: prefix, lines: strings.Split(string(raw), "\n")}, nil
}

// acp118Handled is, for each node, how many ACP-118 signature requests
// its C-chain has handled, from the node's own metrics: coreth's p2p
// network counts the messages of each handler, and the signature handler
// is p2p.SignatureRequestHandlerID. Nothing but the aggregator asks them
// here, so it tells which validators the aggregator's requests reached.
func (on *offChainNet) acp118Handled(tb testing.TB, ctx context.Context) []float64 {
	tb.Helper()
	handled := make([]float64, len(on.uris))
	for i, uri := range on.uris {
		m, err := on.scrapeNode(ctx, uri, "avalanche_")
		require.NoError(tb, err)
		handled[i] = m.counter("evm_sdk_p2p_msg_count", `chain="C"`,
			`handlerID="`+strconv.Itoa(int(p2p.SignatureRequestHandlerID))+`"`, `op="app_request"`)
	}
	return handled
}

// value sums the plugin's series called name whose labels include every
// one of labels (each `key="value"`); ok is false when none matched.
func (m pluginMetrics) value(name string, labels ...string) (sum float64, ok bool) {
	full := m.prefix + name
	for _, line := range m.lines {
		if !strings.HasPrefix(line, full) {
			continue
		}
		rest := line[len(full):]
		var labelText string
		switch {
		case strings.HasPrefix(rest, "{"):
			end := strings.Index(rest, "}")
			if end < 0 {
				continue
			}
			labelText, rest = rest[1:end], rest[end+1:]
		case strings.HasPrefix(rest, " "):
		default:
			continue // a longer name
		}
		matches := true
		for _, l := range labels {
			if !strings.Contains(labelText, l) {
				matches = false
				break
			}
		}
		if !matches {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil {
			continue
		}
		sum, ok = sum+v, true
	}
	return sum, ok
}

// mustValue is value for a series that must exist.
func (m pluginMetrics) mustValue(tb testing.TB, name string, labels ...string) float64 {
	tb.Helper()
	v, ok := m.value(name, labels...)
	if !ok {
		var similar []string
		for _, line := range m.lines {
			if strings.HasPrefix(line, m.prefix) && strings.Contains(line, name[strings.LastIndex(name, "_")+1:]) && len(similar) < 10 {
				similar = append(similar, line)
			}
		}
		tb.Fatalf("the plugin exports no %s%s%v; similar series: %q", m.prefix, name, labels, similar)
	}
	return v
}

// counter is a labelled counter's value: 0 until its first increment,
// when the exposition has no series for it yet.
func (m pluginMetrics) counter(name string, labels ...string) float64 {
	v, _ := m.value(name, labels...)
	return v
}

// byLabel lists name's series by the value of label, for logs.
func (m pluginMetrics) byLabel(name, label string) map[string]float64 {
	out := map[string]float64{}
	full := m.prefix + name + "{"
	for _, line := range m.lines {
		if !strings.HasPrefix(line, full) {
			continue
		}
		_, after, ok := strings.Cut(line, label+`="`)
		if !ok {
			continue
		}
		key, _, _ := strings.Cut(after, `"`)
		out[key] = m.counter(name, label+`="`+key+`"`)
	}
	return out
}

// The aggregator's counters the tests read (aggregator/metrics.go).
const (
	metricSignaturesRequested = "vm_sigagg_signatures_requested_total"
	metricReplies             = "vm_sigagg_replies_total"
	metricCacheHits           = "vm_sigagg_signature_cache_hits_total"
	metricInflight            = "vm_sigagg_inflight_requests"
)

// settle waits until the aggregator has no request in flight and every
// signature request it sent has its reply (or its timeout) counted, so
// that late answers have landed, and returns the metrics then.
func (on *offChainNet) settle(tb testing.TB, ctx context.Context) pluginMetrics {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second) // above the 4 s request timeout
	for {
		m, err := on.scrape(ctx)
		require.NoError(tb, err)
		inflight, _ := m.value(metricInflight)
		asked, _ := m.value(metricSignaturesRequested)
		replied, _ := m.value(metricReplies)
		if inflight == 0 && replied >= asked {
			return m
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the aggregator did not settle: %v requests in flight, %v signature requests, %v replies", inflight, asked, replied)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// nodePID is a running tmpnet node's process ID, from the process context
// file avalanchego writes in its data dir.
func nodePID(tb testing.TB, node *tmpnet.Node) int {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(node.DataDir, config.DefaultProcessContextFilename))
	require.NoError(tb, err, "node %s's process context", node.NodeID)
	var pc nodeconfig.ProcessContext
	require.NoError(tb, json.Unmarshal(raw, &pc))
	require.Positive(tb, pc.PID)
	return pc.PID
}

// waitPChainHeight waits until the node at uri has accepted P-chain block
// height: a block another node accepted reaches it a moment later, and
// until then its platform.getValidatorsAt refuses that height.
func waitPChainHeight(tb testing.TB, ctx context.Context, uri string, height uint64) {
	tb.Helper()
	p := platformvm.NewClient(uri)
	for {
		h, err := p.GetHeight(ctx)
		require.NoError(tb, err, "%s's P-chain height", uri)
		if h >= height {
			return
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("%s never reached P-chain height %d (at %d): %v", uri, height, h, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
