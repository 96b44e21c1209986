package sigagg

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/staking"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	platformapi "github.com/ava-labs/avalanchego/vms/platformvm/api"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// icmSigAggBinEnv names the built icm-services signature-aggregator binary.
const icmSigAggBinEnv = "AVADATA_ICM_SIGAGG_BIN"

// icmBenchRounds is how many fresh messages each aggregator gets, and how
// many cached repeats.
const icmBenchRounds = 12

// icmSigAgg is a running icm-services signature-aggregator process.
type icmSigAgg struct {
	url    string // its POST /aggregate-signatures URL
	nodeID ids.NodeID
	log    string // its stdout and stderr
}

// TestSigAggICMComparison times, on one network, the same kind of fresh
// C-chain accepted-block-hash messages through avadata (hosted on node 1)
// and through icm-services' signature-aggregator (pointed at node 1), then
// cached repeats, and verifies every result with avalanchego's warp
// verification against the P-chain's validator set read from node 2.
func TestSigAggICMComparison(t *testing.T) {
	bin := os.Getenv(icmSigAggBinEnv)
	if bin == "" {
		t.Skipf("%s is not set: build icm-services' signature-aggregator (see this file's top comment)", icmSigAggBinEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	sn := startSigAggNet(t, ctx)
	icm := startICMSigAgg(t, ctx, bin, sn)

	// Two warm-up blocks, then a distinct block per aggregator and round:
	// validators cache the signatures they give, so a message one
	// aggregator asked for would be cheaper for the other.
	var blocks []common.Hash
	var last uint64
	for range 2 + 2*icmBenchRounds {
		r, err := sn.evm.SendAndWait(ctx, evmtest.Tx{To: harness.Ptr(sn.evm.Address()), Value: harness.Ether(0)})
		require.NoError(t, err)
		blocks = append(blocks, r.BlockHash)
		last = max(last, r.BlockNumber)
	}
	sn.waitCChainHeight(t, ctx, last)

	// Warm-up: the first request of each pays one-time lookups (the
	// C-chain's subnet, HTTP connections).
	warm := sn.blockHashMessage(t, blocks[0])
	r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(warm.Bytes())})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sn.verify(t, ctx, r, warm, 67)
	warm = sn.blockHashMessage(t, blocks[1])
	r = icm.aggregate(t, ctx, warm)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	icm.verify(t, ctx, sn, r, warm, 67)

	type timed struct {
		r   harness.Reply
		msg *avalancheWarp.UnsignedMessage
	}
	var avadataFresh, icmFresh, avadataCached, icmCached []time.Duration
	var avadataReplies, icmReplies []timed
	askAvadata := func(msg *avalancheWarp.UnsignedMessage) time.Duration {
		start := time.Now()
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
		d := time.Since(start)
		avadataReplies = append(avadataReplies, timed{r, msg})
		return d
	}
	askICM := func(msg *avalancheWarp.UnsignedMessage) time.Duration {
		start := time.Now()
		r := icm.aggregate(t, ctx, msg)
		d := time.Since(start)
		icmReplies = append(icmReplies, timed{r, msg})
		return d
	}
	// Fresh: each round takes two new blocks; who goes first and which
	// block each gets alternate, so neither is favoured by order.
	for i := range icmBenchRounds {
		a := sn.blockHashMessage(t, blocks[2+2*i])
		b := sn.blockHashMessage(t, blocks[3+2*i])
		if i%2 == 0 {
			avadataFresh = append(avadataFresh, askAvadata(a))
			icmFresh = append(icmFresh, askICM(b))
		} else {
			icmFresh = append(icmFresh, askICM(a))
			avadataFresh = append(avadataFresh, askAvadata(b))
		}
	}
	// Cached: each repeats the first fresh message it aggregated.
	avadataSeen, icmSeen := avadataReplies[0].msg, icmReplies[0].msg
	for i := range icmBenchRounds {
		if i%2 == 0 {
			avadataCached = append(avadataCached, askAvadata(avadataSeen))
			icmCached = append(icmCached, askICM(icmSeen))
		} else {
			icmCached = append(icmCached, askICM(icmSeen))
			avadataCached = append(avadataCached, askAvadata(avadataSeen))
		}
	}

	// Every reply, outside the timed part, verified the same way.
	var avadataSigners, icmSigners []int
	for _, x := range avadataReplies {
		require.Equal(t, http.StatusOK, x.r.Status, "avadata: %s", x.r.Body)
		avadataSigners = append(avadataSigners, sn.verify(t, ctx, x.r, x.msg, 67))
	}
	for _, x := range icmReplies {
		require.Equal(t, http.StatusOK, x.r.Status, "icm-services: %s", x.r.Body)
		icmSigners = append(icmSigners, icm.verify(t, ctx, sn, x.r, x.msg, 67))
	}

	t.Logf("%d validators, %d fresh C-chain block-hash messages each (distinct blocks), %d cached repeats each, "+
		"all verified (warp, 67%% of the primary network):", sigAggNodes, icmBenchRounds, icmBenchRounds)
	t.Logf("  fresh   avadata      %s", latencySummary(avadataFresh))
	t.Logf("  fresh   icm-services %s", latencySummary(icmFresh))
	t.Logf("  cached  avadata      %s", latencySummary(avadataCached))
	t.Logf("  cached  icm-services %s", latencySummary(icmCached))
	t.Logf("  signers per result: avadata %v, icm-services %v", avadataSigners, icmSigners)
}

// latencySummary is the median, min, max and every value, sorted.
func latencySummary(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	round := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	all := make([]string, len(s))
	for i, d := range s {
		all[i] = round(d).String()
	}
	return fmt.Sprintf("median %v (min %v, max %v) %v", round(s[len(s)/2]), round(s[0]), round(s[len(s)-1]),
		strings.Join(all, " "))
}

// startICMSigAgg runs the signature-aggregator binary with node 1 as its
// info and P-chain API and a TLS identity made here (so its NodeID is
// known), and waits until every validator lists it as a connected peer,
// so it asks all five like avadata does. It is stopped when t ends.
func startICMSigAgg(t *testing.T, ctx context.Context, bin string, sn *sigAggNet) *icmSigAgg {
	t.Helper()
	began := time.Now()
	dir := t.TempDir()
	certPEM, keyPEM, err := staking.NewCertAndKeyBytes()
	require.NoError(t, err)
	block, _ := pem.Decode(certPEM)
	require.NotNil(t, block, "PEM certificate")
	cert, err := staking.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	certPath, keyPath := filepath.Join(dir, "staker.crt"), filepath.Join(dir, "staker.key")
	require.NoError(t, os.WriteFile(certPath, certPEM, 0o600))
	require.NoError(t, os.WriteFile(keyPath, keyPEM, 0o600))

	apiPort, metricsPort := freeTCPPort(t), freeTCPPort(t)
	cfg := map[string]any{
		"log-level":         "info",
		"info-api":          map[string]any{"base-url": sn.uris[0]},
		"p-chain-api":       map[string]any{"base-url": sn.uris[0]},
		"api-port":          apiPort,
		"metrics-port":      metricsPort,
		"allow-private-ips": true,
		"tls-cert-path":     certPath,
		"tls-key-path":      keyPath,
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	require.NoError(t, err)
	cfgPath := filepath.Join(dir, "config.json")
	require.NoError(t, os.WriteFile(cfgPath, b, 0o600))

	icm := &icmSigAgg{
		url:    fmt.Sprintf("http://127.0.0.1:%d/aggregate-signatures", apiPort),
		nodeID: ids.NodeIDFromCert(cert),
		log:    filepath.Join(dir, "signature-aggregator.log"),
	}
	logFile, err := os.Create(icm.log)
	require.NoError(t, err)
	cmd := exec.Command(bin, "--config-file", cfgPath)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	require.NoError(t, cmd.Start(), "starting %s", bin)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Registered after t.TempDir, so it runs before the dir is removed.
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		_ = logFile.Close()
		if t.Failed() {
			t.Logf("icm-services signature-aggregator log:\n%s", icm.logTail(60))
		}
	})

	deadline := time.Now().Add(2 * time.Minute)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("icm-services signature-aggregator exited: %v\n%s", err, icm.logTail(60))
		default:
		}
		connected := icm.connectedValidators(ctx, sn)
		if connected == sigAggNodes && icm.healthy(ctx, apiPort) {
			break
		}
		require.True(t, time.Now().Before(deadline),
			"icm-services signature-aggregator %s connected to %d of %d validators in 2 minutes\n%s",
			icm.nodeID, connected, sigAggNodes, icm.logTail(40))
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for icm-services to connect: %v", ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
	t.Logf("icm-services signature-aggregator %s (%s) connected to every validator %s after start, log %s",
		icm.nodeID, bin, time.Since(began).Round(time.Millisecond), icm.log)
	return icm
}

// connectedValidators is how many nodes list the aggregator among their
// connected peers (info.peers, the nodes' own view).
func (icm *icmSigAgg) connectedValidators(ctx context.Context, sn *sigAggNet) int {
	n := 0
	for _, uri := range sn.uris {
		peers, err := info.NewClient(uri).Peers(ctx, []ids.NodeID{icm.nodeID})
		if err == nil && slices.ContainsFunc(peers, func(p info.Peer) bool { return p.ID == icm.nodeID }) {
			n++
		}
	}
	return n
}

// healthy is icm-services' own /health (connected stake ≥ 67%).
func (icm *icmSigAgg) healthy(ctx context.Context, apiPort int) bool {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/health", apiPort), nil)
	if err != nil {
		return false
	}
	resp, err := harness.HTTPClient.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// aggregate asks icm-services for msg at its defaults (67%, proposed
// P-chain height).
func (icm *icmSigAgg) aggregate(t *testing.T, ctx context.Context, msg *avalancheWarp.UnsignedMessage) harness.Reply {
	t.Helper()
	body := []byte(`{"message":"` + hex.EncodeToString(msg.Bytes()) + `"}`)
	return harness.Do(t, ctx, http.MethodPost, icm.url, body, map[string]string{"Content-Type": "application/json"})
}

// verify checks an icm-services reply as sigAggNet.verify checks avadata's:
// the signed message is msg and verifies with avalanchego's warp
// verification against the primary network's validators read from node 2.
// icm-services does not say which P-chain height it used; this network's
// validator set never changes, so the current one is that set. It returns
// the number of signers.
func (icm *icmSigAgg) verify(t *testing.T, ctx context.Context, sn *sigAggNet, r harness.Reply,
	msg *avalancheWarp.UnsignedMessage, quorum uint64,
) int {
	t.Helper()
	var body struct {
		SignedMessage string `json:"signed-message"`
	}
	r.Decode(t, &body)
	raw, err := hex.DecodeString(strings.TrimPrefix(body.SignedMessage, "0x"))
	require.NoError(t, err)
	signed, err := avalancheWarp.ParseMessage(raw)
	require.NoError(t, err)
	require.Equal(t, msg.Bytes(), signed.UnsignedMessage.Bytes())
	p := platformvm.NewClient(sn.uris[1])
	height, err := p.GetHeight(ctx)
	require.NoError(t, err)
	vdrs, err := p.GetValidatorsAt(ctx, constants.PrimaryNetworkID, platformapi.Height(height))
	require.NoError(t, err)
	set, err := validators.FlattenValidatorSet(vdrs)
	require.NoError(t, err)
	require.NoError(t, signed.Signature.Verify(&signed.UnsignedMessage, 88888, set, quorum, 100),
		"icm-services' result verifies against the primary network at P-chain height %d", height)
	n, err := signed.Signature.NumSigners()
	require.NoError(t, err)
	return n
}

// logTail is the last lines of the aggregator's log.
func (icm *icmSigAgg) logTail(lines int) string {
	b, err := os.ReadFile(icm.log)
	if err != nil {
		return fmt.Sprintf("(reading %s: %v)", icm.log, err)
	}
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}

// freeTCPPort is a port nothing listens on right now.
func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	addr, ok := l.Addr().(*net.TCPAddr)
	require.True(t, ok, "TCP listener address %v", l.Addr())
	return addr.Port
}
