package sigagg

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// The soak: distinct messages, as many as icm-services needs to stall a
// validator connection (after ~1,000-2,000 requests its late responses
// are never read), asked by concurrent clients.
const (
	soakRequests = 5000
	soakClients  = 16
	// soakEarly is where memory is read the first time: after warm-up, so
	// that what grows from there to the end is what the requests leave.
	soakEarly = 1000
	// Every soakSampleEvery-th reply, and the last soakTail, are verified
	// independently.
	soakSampleEvery = 50
	soakTail        = 100
	// soakSpare messages serve the tests that share the soak's network.
	soakSpare = 16
)

// Memory growth allowed between soakEarly and soakRequests requests. The
// signature cache is bounded (aggregator.DefaultCacheBytes, 64 MiB, by
// the sizes cache.go accounts: about 1.9 KB for a message with 5
// signatures), so the 5,000 messages all stay cached: 4,000 more cached
// messages account for about 7.4 MB. The bounds allow four times their
// accounted size per request (map and BLS point overhead) plus room for
// the garbage collector's slack (GOGC=100 lets the heap reach twice the
// live heap before it collects), and far less than a leak of a few tens
// of KB per request (a reply buffer or a goroutine's stack kept per late
// answer) would take. Goroutines must come back to where they were: a
// leak of one per request would add 4,000.
const (
	soakHeapGrowthPerRequest = 8 << 10
	soakHeapSlack            = 48 << 20
	soakRSSSlack             = 64 << 20
	soakGoroutineSlack       = 100
)

// TestSigAggSoak runs the aggregator on a network whose C-chains sign a
// pool of off-chain messages: late answers filling the cache
// (cache_test.go), an older pChainHeight after the validator set
// changed (height_test.go), a soak of 5,000 distinct messages, and
// a buffer answered from the cache while validators are down (last: it
// stops two of them).
func TestSigAggSoak(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	on := startOffChainSigAggNet(t, ctx, soakRequests+soakSpare)
	t.Run("LateAnswerCached", func(t *testing.T) { sigAggLateAnswerCached(t, ctx, on) })
	t.Run("OlderPChainHeight", func(t *testing.T) { sigAggOlderPChainHeight(t, ctx, on) })
	t.Run("Soak", func(t *testing.T) { sigAggSoak(t, ctx, on) })
	t.Run("BufferFromCacheValidatorsDown", func(t *testing.T) { sigAggBufferFromCacheValidatorsDown(t, ctx, on) })
}

// pluginMemory is the plugin process's memory, from its own collectors.
type pluginMemory struct {
	rss, heapInuse, goroutines float64
}

func readPluginMemory(tb testing.TB, m pluginMetrics) pluginMemory {
	tb.Helper()
	return pluginMemory{
		rss:        m.mustValue(tb, "process_process_resident_memory_bytes"),
		heapInuse:  m.mustValue(tb, "process_go_memstats_heap_inuse_bytes"),
		goroutines: m.mustValue(tb, "process_go_goroutines"),
	}
}

func (p pluginMemory) String() string {
	return fmt.Sprintf("RSS %.1f MiB, heap in use %.1f MiB, %.0f goroutines", p.rss/(1<<20), p.heapInuse/(1<<20), p.goroutines)
}

// sigAggSoak asks for 5,000 distinct messages from 16 clients. Every one
// must succeed, and a sample verifies independently. No validator
// connection may stall: every validator's own metrics show it handled
// every request, in the first 1,000 and in the 4,000 after; the host
// node's inbound throttlers never held a connection back (it runs with
// localnet.AggregatorHostFlags); the last messages' signatures are all
// cached (so every validator answered them, the 5th answer each time a
// late one); and a fresh message still gets all five. The plugin's memory
// and goroutines stay flat from 1,000 requests to 5,000.
func sigAggSoak(t *testing.T, ctx context.Context, on *offChainNet) {
	msgs := on.take(t, soakRequests)
	start := on.settle(t, ctx)
	startMem, startHandled := readPluginMemory(t, start), on.acp118Handled(t, ctx)
	startThrottling := on.throttling(t, ctx)

	sampled := map[int]harness.Reply{}
	on.soakPhase(t, ctx, msgs, 0, soakEarly, sampled)
	early := on.settle(t, ctx)
	earlyMem, earlyHandled := readPluginMemory(t, early), on.acp118Handled(t, ctx)
	on.soakPhase(t, ctx, msgs, soakEarly, soakRequests, sampled)
	end := on.settle(t, ctx)
	endMem, endHandled := readPluginMemory(t, end), on.acp118Handled(t, ctx)
	endThrottling := on.throttling(t, ctx)
	t.Logf("plugin memory: at start %s; after %d requests %s; after %d %s", startMem, soakEarly, earlyMem, soakRequests, endMem)
	grown := soakRequests - soakEarly
	assert.LessOrEqual(t, endMem.heapInuse-earlyMem.heapInuse, float64(grown*soakHeapGrowthPerRequest+soakHeapSlack),
		"heap in use grew from %s to %s", earlyMem, endMem)
	assert.LessOrEqual(t, endMem.rss-earlyMem.rss, float64(grown*soakHeapGrowthPerRequest+soakRSSSlack),
		"RSS grew from %s to %s", earlyMem, endMem)
	assert.LessOrEqual(t, endMem.goroutines-earlyMem.goroutines, float64(soakGoroutineSlack),
		"goroutines grew from %s to %s", earlyMem, endMem)

	asked := end.mustValue(t, metricSignaturesRequested) - start.mustValue(t, metricSignaturesRequested)
	t.Logf("signature requests %v; replies by result at the end %v", asked, end.byLabel(metricReplies, "result"))
	t.Logf("ACP-118 requests each validator handled: at start %v, after %d requests %v, after %d %v",
		startHandled, soakEarly, earlyHandled, soakRequests, endHandled)
	for i, nodeID := range on.n.NodeIDs() {
		assert.GreaterOrEqual(t, earlyHandled[i]-startHandled[i], float64(soakEarly),
			"validator %d (%s) handled every one of the first %d requests", i, nodeID, soakEarly)
		assert.GreaterOrEqual(t, endHandled[i]-earlyHandled[i], float64(soakRequests-soakEarly),
			"validator %d (%s) handled every one of the last %d requests", i, nodeID, soakRequests-soakEarly)
	}
	for i := range on.uris {
		t.Logf("node %d's inbound throttlers: CPU waits during the soak %v; after it, peers held back %v",
			i+1, endThrottling[i].cpuWaits-startThrottling[i].cpuWaits, endThrottling[i].awaiting)
	}
	host := endThrottling[0]
	assert.Zero(t, host.cpuWaits-startThrottling[0].cpuWaits,
		"the host's CPU throttler never held a peer back, the aggregator's connection included")
	for name, peers := range host.awaiting {
		assert.Zero(t, peers, "after the soak the host's %s holds back no peer", name)
	}

	for i, r := range sampled {
		on.verify(t, ctx, r, msgs[i], 67)
	}
	t.Logf("verified %d of the %d replies independently", len(sampled), soakRequests)

	// The last messages' late answers are cached too: every validator still
	// answered at the end, and no request is needed for all five.
	before := on.settle(t, ctx)
	for _, msg := range msgs[soakRequests-soakTail:] {
		r := on.aggregate(t, ctx, messageRequest(msg, map[string]any{"quorumPercentageBuffer": 33}))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, sigAggNodes, on.verify(t, ctx, r, msg, 100))
	}
	after := on.settle(t, ctx)
	require.Zero(t, after.mustValue(t, metricSignaturesRequested)-before.mustValue(t, metricSignaturesRequested),
		"the last %d messages' signatures all came from the cache", soakTail)
	require.Equal(t, float64(sigAggNodes*soakTail), after.mustValue(t, metricCacheHits)-before.mustValue(t, metricCacheHits))

	// Every connection still answers a fresh message.
	on.requireAllSign(t, ctx, on.take(t, 1)[0])
}

// freshRetryFor bounds how long requireAllSign asks again. A node whose
// inbound CPU throttler holds a peer's connection back reads from it again
// only once the CPU usage it charges to that peer has decayed below the
// peer's allowance: avalanchego's CPU and processing trackers decay with a
// 15 s half-life (system-tracker-cpu-halflife and
// system-tracker-processing-halflife), so two half-lives cover a throttle
// that lasts until the load ends. The host runs with AggregatorHostFlags
// and is not expected to throttle (the soak asserts it did not); the retry
// keeps this check about whether every validator still answers, not about
// how soon the shared machine's load fell.
const freshRetryFor = 30 * time.Second

// requireAllSign asks for msg with a 33% buffer, so that every validator
// is asked, until the reply carries all five signatures, for at most
// freshRetryFor. Asking again asks only the validators whose signature is
// not cached yet.
func (on *offChainNet) requireAllSign(t *testing.T, ctx context.Context, msg *avalancheWarp.UnsignedMessage) {
	t.Helper()
	began := time.Now()
	for attempt := 1; ; attempt++ {
		r := on.aggregate(t, ctx, messageRequest(msg, map[string]any{"quorumPercentageBuffer": 33}))
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		signers := on.verify(t, ctx, r, msg, 67)
		if signers == sigAggNodes {
			t.Logf("a fresh message got all %d signatures after the soak: attempt %d, %v",
				sigAggNodes, attempt, time.Since(began).Round(time.Millisecond))
			return
		}
		require.Less(t, time.Since(began), freshRetryFor,
			"a fresh message still has %d of %d signatures after %d attempts", signers, sigAggNodes, attempt)
		t.Logf("attempt %d: %d of %d signatures; asking again", attempt, signers, sigAggNodes)
		time.Sleep(time.Second)
	}
}

// inboundThrottlerGauges are the gauges of a node's inbound message
// throttlers (avalanchego network/throttling): how many peers' connections
// each is holding back from reading now.
var inboundThrottlerGauges = []string{
	"network_cpu_throttler_awaiting_acquire",
	"network_disk_throttler_awaiting_acquire",
	"network_bandwidth_throttler_inbound_awaiting_acquire",
	"network_buffer_throttler_inbound_awaiting_acquire",
	"network_byte_throttler_inbound_awaiting_acquire",
}

// nodeThrottling is what a node's own metrics say of its inbound
// throttlers: the peers each holds back now, and how many times in all its
// CPU throttler made a peer wait.
type nodeThrottling struct {
	awaiting map[string]float64
	cpuWaits float64
}

// throttling reads every node's inbound throttlers, in node order.
func (on *offChainNet) throttling(tb testing.TB, ctx context.Context) []nodeThrottling {
	tb.Helper()
	out := make([]nodeThrottling, len(on.uris))
	for i, uri := range on.uris {
		m, err := on.scrapeNode(ctx, uri, "avalanche_")
		require.NoError(tb, err)
		out[i] = nodeThrottling{awaiting: map[string]float64{}, cpuWaits: m.counter("network_cpu_throttler_total_waits")}
		for _, name := range inboundThrottlerGauges {
			out[i].awaiting[name] = m.mustValue(tb, name)
		}
	}
	return out
}

// soakPhase asks for msgs[from:to] from soakClients concurrent clients,
// requires a 200 for every one, keeps the replies to verify (every
// soakSampleEvery-th and the last soakTail) in sampled, and logs the rate.
func (on *offChainNet) soakPhase(t *testing.T, ctx context.Context, msgs []*avalancheWarp.UnsignedMessage,
	from, to int, sampled map[int]harness.Reply,
) {
	t.Helper()
	next := make(chan int, to-from)
	for i := from; i < to; i++ {
		next <- i
	}
	close(next)
	var (
		mu       sync.Mutex
		failures []string
		wg       sync.WaitGroup
	)
	began := time.Now()
	for range soakClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := on.post(ctx, messageRequest(msgs[i], nil))
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, fmt.Sprintf("message %d: %v", i, err))
				case r.Status != http.StatusOK:
					failures = append(failures, fmt.Sprintf("message %d: %d %s", i, r.Status, r.Body))
				case i%soakSampleEvery == 0 || i >= len(msgs)-soakTail:
					sampled[i] = r
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	for i, f := range failures {
		if i == 10 {
			t.Errorf("... and %d more failures", len(failures)-10)
			break
		}
		t.Error(f)
	}
	require.Empty(t, failures, "requests %d to %d", from, to)
	t.Logf("requests %d to %d, %d clients: %v, %.0f requests/s", from, to, soakClients,
		elapsed.Round(time.Millisecond), float64(to-from)/elapsed.Seconds())
}
