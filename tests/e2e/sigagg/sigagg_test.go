package sigagg

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/scripts/localnet/multinode"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// sigAggNodes validators with equal stakes: 67% needs 4 of them, so one
// may be down.
const sigAggNodes = 5

// sigAggNet is a 5-validator tmpnet network (sybil protection on) with
// avadata on its first node only.
type sigAggNet struct {
	n        *multinode.TmpnetNetwork
	uris     []string
	url      string // node 1's aggregateSignatures URL
	cChainID ids.ID
	evm      *evmtest.Client // EWOQ on node 1's C-chain
}

// TestSigAgg aggregates real C-chain warp messages through the plugin on
// one of five validators, and checks every result independently against
// the P-chain's validator set at the height the aggregator used.
func TestSigAgg(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 18*time.Minute)
	defer cancel()
	sn := startSigAggNet(t, ctx)

	// Accepted blocks give fresh messages that every validator signs.
	var blocks []common.Hash
	for range 8 {
		r, err := sn.evm.SendAndWait(ctx, evmtest.Tx{To: harness.Ptr(sn.evm.Address()), Value: harness.Ether(0)})
		require.NoError(t, err)
		blocks = append(blocks, r.BlockHash)
	}
	sn.waitCChainHeight(t, ctx, uint64(len(blocks)))

	t.Run("BlockHash", func(t *testing.T) {
		msg := sn.blockHashMessage(t, blocks[0])
		r := sn.aggregate(t, ctx, map[string]any{"message": "0x" + hex.EncodeToString(msg.Bytes())})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		signers := sn.verify(t, ctx, r, msg, 67)
		require.GreaterOrEqual(t, signers, 4)
	})
	t.Run("Latency", func(t *testing.T) {
		var fresh []time.Duration
		for _, h := range blocks[1:5] {
			msg := sn.blockHashMessage(t, h)
			start := time.Now()
			r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
			fresh = append(fresh, time.Since(start))
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
			sn.verify(t, ctx, r, msg, 67)
		}
		msg := sn.blockHashMessage(t, blocks[1])
		var cached []time.Duration
		for range 5 {
			start := time.Now()
			r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
			cached = append(cached, time.Since(start))
			require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		}
		slices.Sort(fresh)
		slices.Sort(cached)
		t.Logf("time to quorum through the node's HTTP API, %d validators: fresh message %v (median %v), cached %v (median %v)",
			sigAggNodes, fresh, fresh[len(fresh)/2], cached, cached[len(cached)/2])
	})
	t.Run("SendWarpMessage", func(t *testing.T) {
		tx, err := evmtest.WarpTx([]byte("avadata signature aggregation e2e"))
		require.NoError(t, err)
		receipt, err := sn.evm.SendAndWait(ctx, tx)
		require.NoError(t, err)
		msg, err := evmtest.WarpMessage(receipt)
		require.NoError(t, err)
		// Asked as soon as the sender's node has the block: validators that
		// have not accepted it yet refuse, and are asked again.
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		sn.verify(t, ctx, r, msg, 67)
	})
	t.Run("Seed", func(t *testing.T) { sigAggSeed(t, ctx, sn) })
	t.Run("BufferAndHeight", func(t *testing.T) {
		msg := sn.blockHashMessage(t, blocks[5])
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes()), "quorumPercentageBuffer": 33})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, sigAggNodes, sn.verify(t, ctx, r, msg, 100), "the buffer asks for everyone")
		height := r.Header.Get("X-Pchain-Height")
		h, err := strconv.ParseUint(height, 10, 64)
		require.NoError(t, err)

		r = sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes()), "pChainHeight": h})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, height, r.Header.Get("X-Pchain-Height"))
		sn.verify(t, ctx, r, msg, 67)
	})
	t.Run("UnknownBlockRefused", func(t *testing.T) {
		msg := sn.blockHashMessage(t, common.Hash(ids.GenerateTestID()))
		start := time.Now()
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
		harness.RequireErrorBody(t, r, http.StatusBadRequest, "5 validator(s) holding 100% refused with AppError code 2")
		require.Contains(t, string(r.Body), "signed (0 of ")
		t.Logf("refused in %v: %s", time.Since(start), r.Body)
	})
	t.Run("Metrics", func(t *testing.T) {
		body := string(harness.Get(t, ctx, sn.uris[0]+"/ext/metrics").Body)
		for _, name := range []string{"requests_total", "request_duration_seconds_bucket", "signatures_requested_total",
			"replies_total", "app_errors_total", "signature_cache_hits_total", "connected_stake_ratio", "p2p_peers"} {
			require.Regexp(t, `_vm_sigagg_`+name+`\b`, body)
		}
		require.Regexp(t, `_vm_sigagg_requests_total\{[^}]*outcome="success"[^}]*\} [1-9]`, body)
		require.Regexp(t, `_vm_sigagg_app_errors_total\{[^}]*code="2"[^}]*\} [1-9]`, body)
		require.Regexp(t, `_vm_sigagg_connected_stake_ratio\{[^}]*subnet="`+constants.PrimaryNetworkID.String()+`"[^}]*\} 1\b`, body)
	})
	t.Run("Throughput", func(t *testing.T) { sigAggThroughput(t, ctx, sn) })
	t.Run("L1ConversionByTxHash", func(t *testing.T) { sigAggL1Conversion(t, ctx, sn) })
	t.Run("OneValidatorDown", func(t *testing.T) {
		stopped := sn.n.Network().Nodes[sigAggNodes-1]
		require.NoError(t, stopped.Stop(ctx))
		msg := sn.blockHashMessage(t, blocks[6])
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, 4, sn.verify(t, ctx, r, msg, 67))

		// 100% cannot be met: the error says how much signed, and that the
		// rest is unreachable rather than unwilling.
		msg = sn.blockHashMessage(t, blocks[7])
		start := time.Now()
		r = sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes()), "quorumPercentage": 100})
		elapsed := time.Since(start)
		harness.RequireErrorBody(t, r, http.StatusServiceUnavailable, "quorum not reached")
		require.Contains(t, string(r.Body), "holding 80% of the signing subnet's weight signed")
		require.Contains(t, string(r.Body), "1 validator(s) holding 20% could not be reached")
		require.Contains(t, string(r.Body), stopped.NodeID.String())
		t.Logf("impossible quorum answered in %v: %s", elapsed, r.Body)
		require.Less(t, elapsed, 10*time.Second)
	})
}

// sigAggThroughput measures requests per second at 16 concurrent clients,
// for fresh messages (sendWarpMessage calls, many per block) and for
// cached ones. Every fresh request leaves a late answer behind (four of
// five validators reach the quorum), which must never stall a connection:
// a request after the run still answers at once.
func sigAggThroughput(t *testing.T, ctx context.Context, sn *sigAggNet) {
	const messages, clients = 320, 16
	var hashes []common.Hash
	for i := range messages {
		tx, err := evmtest.WarpTx([]byte(fmt.Sprintf("avadata throughput %d", i)))
		require.NoError(t, err)
		sent, err := sn.evm.Send(ctx, tx)
		require.NoError(t, err)
		hashes = append(hashes, sent.Hash)
	}
	receipts, err := sn.evm.WaitReceipts(ctx, hashes...)
	require.NoError(t, err)
	var msgs [][]byte
	var last uint64
	for _, r := range receipts {
		require.Equal(t, uint64(1), r.Status)
		msg, err := evmtest.WarpMessage(r)
		require.NoError(t, err)
		msgs = append(msgs, msg.Bytes())
		last = max(last, r.BlockNumber)
	}
	sn.waitCChainHeight(t, ctx, last)

	run := func(what string) {
		t.Helper()
		next := make(chan []byte, len(msgs))
		for _, m := range msgs {
			next <- m
		}
		close(next)
		var wg sync.WaitGroup
		failures := make(chan string, len(msgs))
		start := time.Now()
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for m := range next {
					status, _, body := harness.HTTPDo(t, ctx, http.MethodPost, sn.url, []byte(`{"message":"`+hex.EncodeToString(m)+`"}`))
					if status != http.StatusOK {
						failures <- fmt.Sprintf("%d %s", status, body)
					}
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		close(failures)
		for f := range failures {
			t.Errorf("%s: %s", what, f)
		}
		t.Logf("%s: %d requests by %d clients in %v: %.0f requests/s", what, len(msgs), clients,
			elapsed.Round(time.Millisecond), float64(len(msgs))/elapsed.Seconds())
	}
	run("fresh messages")
	run("cached messages")

	msg := sn.blockHashMessage(t, receipts[len(receipts)-1].BlockHash)
	start := time.Now()
	r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes())})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sn.verify(t, ctx, r, msg, 67)
	require.Less(t, time.Since(start), time.Second, "connections still answer after the run")
}

// startSigAggNet starts the network and waits until the aggregator answers.
func startSigAggNet(t *testing.T, ctx context.Context) *sigAggNet {
	t.Helper()
	began := time.Now()
	n := harness.StartMultiNode(t, ctx, multinode.TmpnetConfig{
		Nodes:       sigAggNodes,
		ChainNodes:  1,
		ChainConfig: harness.ChainConfig(),
		// Node 1's plugin hosts the aggregator.
		ChainNodeFlags: localnet.AggregatorHostFlags(),
	})
	uris := n.URIs()
	require.Len(t, uris, sigAggNodes)
	sn := &sigAggNet{n: n, uris: uris,
		url: uris[0] + "/ext/bc/" + n.ChainID().String() + "/v1/signatureAggregator/network-88888/aggregateSignatures"}
	var err error
	sn.cChainID, err = info.NewClient(uris[0]).GetBlockchainID(ctx, "C")
	require.NoError(t, err)
	sn.evm, err = evmtest.Dial(ctx, uris[0]+"/ext/bc/C/rpc", genesis.EWOQKey)
	require.NoError(t, err)
	t.Cleanup(sn.evm.Close)
	t.Logf("%d-node network up in %s: %v, dir %s", sigAggNodes, time.Since(began).Round(time.Millisecond), uris, n.Dir())

	// The aggregator connects at start-up; wait until it has everyone.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		stake := sn.connectedPercent(t, ctx)
		if stake == 100 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the aggregator never connected to every validator (%.1f%%)", stake)
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("aggregator connected to every validator %s after start", time.Since(began).Round(time.Millisecond))
	return sn
}

// connectedPercent reads the aggregator's connected primary stake from the
// plugin's health details.
func (sn *sigAggNet) connectedPercent(t *testing.T, ctx context.Context) float64 {
	t.Helper()
	r := harness.Get(t, ctx, sn.uris[0]+"/ext/health")
	var h struct {
		Checks map[string]struct {
			Message json.RawMessage `json:"message"`
		} `json:"checks"`
	}
	r.Decode(t, &h)
	var msg struct {
		Engine struct {
			VM struct {
				Health struct {
					SigAgg struct {
						ConnectedStake map[string]struct {
							Percent float64 `json:"percent"`
						} `json:"connectedStake"`
					} `json:"signatureAggregator"`
				} `json:"health"`
			} `json:"vm"`
		} `json:"engine"`
	}
	check, ok := h.Checks[sn.n.ChainID().String()]
	if !ok {
		return 0
	}
	if err := json.Unmarshal(check.Message, &msg); err != nil {
		return 0
	}
	return msg.Engine.VM.Health.SigAgg.ConnectedStake[constants.PrimaryNetworkID.String()].Percent
}

func (sn *sigAggNet) blockHashMessage(t *testing.T, h common.Hash) *avalancheWarp.UnsignedMessage {
	t.Helper()
	p, err := payload.NewHash(ids.ID(h))
	require.NoError(t, err)
	msg, err := avalancheWarp.NewUnsignedMessage(88888, sn.cChainID, p.Bytes())
	require.NoError(t, err)
	return msg
}

func (sn *sigAggNet) aggregate(t *testing.T, ctx context.Context, body map[string]any) harness.Reply {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	return harness.Do(t, ctx, http.MethodPost, sn.url, b, map[string]string{"Content-Type": "application/json"})
}

// verify checks a 200 reply independently: the signed message is msg, and
// its signature verifies with avalanchego's warp verification against the
// primary network's validators at the height the aggregator names, as read
// from platform.getValidatorsAt on another node. It returns the signers.
func (sn *sigAggNet) verify(t *testing.T, ctx context.Context, r harness.Reply, msg *avalancheWarp.UnsignedMessage, quorum uint64) int {
	t.Helper()
	return sn.verifyAgainst(t, ctx, r, msg, constants.PrimaryNetworkID, quorum)
}

// waitCChainHeight waits until every running node's C-chain has height.
func (sn *sigAggNet) waitCChainHeight(t *testing.T, ctx context.Context, height uint64) {
	t.Helper()
	for _, uri := range sn.uris {
		c, err := evmtest.Dial(ctx, uri+"/ext/bc/C/rpc", genesis.EWOQKey)
		require.NoError(t, err)
		for {
			h, err := c.BlockNumber(ctx)
			require.NoError(t, err)
			if h >= height {
				break
			}
			select {
			case <-ctx.Done():
				c.Close()
				t.Fatalf("%s never reached C-chain height %d", uri, height)
			case <-time.After(50 * time.Millisecond):
			}
		}
		c.Close()
	}
}

// TestSigAggWithoutValidators: the shared network's node runs without
// sybil protection, so its P-chain has no validator sets and the
// aggregator makes no p2p connection (the node would take it for a
// validator to bootstrap from); a request says why nothing can be signed.
func TestSigAggWithoutValidators(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cChainID, err := info.NewClient(env.URI(t)).GetBlockchainID(ctx, "C")
	require.NoError(t, err)
	p, err := payload.NewHash(ids.GenerateTestID())
	require.NoError(t, err)
	msg, err := avalancheWarp.NewUnsignedMessage(constants.LocalID, cChainID, p.Bytes())
	require.NoError(t, err)
	r := harness.Do(t, ctx, http.MethodPost, env.Base(t)+"/v1/signatureAggregator/local/aggregateSignatures",
		[]byte(`{"message":"`+hex.EncodeToString(msg.Bytes())+`"}`), map[string]string{"Content-Type": "application/json"})
	harness.RequireErrorBody(t, r, http.StatusNotFound, "no validator sets")

	// A message of another network is the client's mistake.
	other, err := avalancheWarp.NewUnsignedMessage(constants.FujiID, cChainID, p.Bytes())
	require.NoError(t, err)
	r = harness.Do(t, ctx, http.MethodPost, env.Base(t)+"/v1/signatureAggregator/local/aggregateSignatures",
		[]byte(`{"message":"`+hex.EncodeToString(other.Bytes())+`"}`), map[string]string{"Content-Type": "application/json"})
	harness.RequireErrorBody(t, r, http.StatusBadRequest, "network ID 5, this node serves network ID 12345")
}
