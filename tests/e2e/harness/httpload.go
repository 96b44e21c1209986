package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	rand "math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/vm"
)

// The load of the HTTP benchmarks (BenchmarkEVMHTTPRoutesAt1M,
// BenchmarkPrimaryHTTPRoutes): concurrent clients sending requests through
// the node's HTTP server, and what the node and its plugins spend on them.

// HTTPLoad sends the requests of a benchmark's sides to a network's node.
type HTTPLoad struct {
	Net     *localnet.Network
	Clients int // concurrent clients
	Client  *http.Client
	// Plugins are the node's plugin processes a side's CPU is charged to,
	// by the name the metrics carry ("avadata", "subnetevm") and VM ID.
	Plugins []LoadPlugin
}

// LoadPlugin is a plugin process of the node.
type LoadPlugin struct {
	Name string
	VMID string
}

// NewHTTPLoad is the load of clients concurrent clients against net, with
// enough idle connections that no client waits for one or opens a new one
// in the middle of the load, its CPU charged to the node and plugins.
func NewHTTPLoad(net *localnet.Network, clients int, plugins ...LoadPlugin) *HTTPLoad {
	return &HTTPLoad{Net: net, Clients: clients, Plugins: plugins, Client: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{MaxIdleConns: 2 * clients, MaxIdleConnsPerHost: 2 * clients, IdleConnTimeout: time.Minute}}}
}

// AvadataPlugin is avadata's plugin process.
func AvadataPlugin() LoadPlugin { return LoadPlugin{Name: "avadata", VMID: vm.ID.String()} }

// LoadSide is one side of an HTTP benchmark: the requests it sends.
type LoadSide struct {
	Name string
	Next func(context.Context, *rand.Rand) *http.Request
}

// RunSides runs b.N rounds of the sides' loads, n requests each, the sides
// in order in every round (so that whatever else the machine does weighs on
// all alike), then reports each side and returns its rate (req/s) by name.
func (l *HTTPLoad) RunSides(b *testing.B, ctx context.Context, n int, sides []LoadSide) map[string]float64 {
	results := make([]LoadResult, len(sides))
	for range b.N {
		for i, side := range sides {
			l.Run(b, ctx, n, &results[i], side.Next)
		}
	}
	b.StopTimer()
	rates := map[string]float64{}
	for i, side := range sides {
		rates[side.Name] = results[i].Report(b, side.Name)
	}
	return rates
}

// LoadResult is what the loads of one side measured.
type LoadResult struct {
	latencies []time.Duration
	bytes     int64
	elapsed   time.Duration
	// ticks is the CPU the node ("node") and each plugin used, USER_HZ:
	// where a side's cost is.
	ticks map[string]int64
}

// Report reports the side's metrics and returns its rate (req/s).
func (r *LoadResult) Report(b *testing.B, side string) float64 {
	sorted := slices.Clone(r.latencies)
	slices.Sort(sorted)
	ms := func(p float64) float64 { return float64(sorted[int(p*float64(len(sorted)-1))].Microseconds()) / 1000 }
	n := float64(len(sorted))
	b.ReportMetric(n/r.elapsed.Seconds(), side+"-req/s")
	b.ReportMetric(ms(0.5), side+"-p50-ms")
	b.ReportMetric(ms(0.99), side+"-p99-ms")
	b.ReportMetric(float64(r.bytes)/n, side+"-B/resp")
	// What a request costs the server side, whatever the machine's load:
	// the node and its plugins together (the client not counted), then
	// each.
	var server int64
	for name, ticks := range r.ticks {
		server += ticks
		b.ReportMetric(float64(ticks)*10/n, side+"-"+name+"-cpu-ms/req")
	}
	b.ReportMetric(float64(server)*10/n, side+"-server-cpu-ms/req")
	return n / r.elapsed.Seconds()
}

// Run sends n requests from l.Clients goroutines, each sending its next as
// soon as its last is answered, and adds their timings to r. A failed
// request fails the benchmark: a fast error is not a result.
func (l *HTTPLoad) Run(b *testing.B, ctx context.Context, n int, r *LoadResult, next func(context.Context, *rand.Rand) *http.Request) {
	latencies := make([]time.Duration, n)
	var issued, bytesRead atomic.Int64
	var failure atomic.Pointer[string]
	var wg sync.WaitGroup
	before := l.serverTicks(b)
	began := time.Now()
	for w := range l.Clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), uint64(began.UnixNano())))
			for i := issued.Add(1) - 1; i < int64(n) && failure.Load() == nil; i = issued.Add(1) - 1 {
				req := next(ctx, rng)
				start := time.Now()
				resp, err := l.Client.Do(req)
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				latencies[i] = time.Since(start)
				if err == nil && (resp.StatusCode != http.StatusOK || bytes.Contains(body, []byte(`"error"`))) {
					err = fmt.Errorf("status %d: %.300s", resp.StatusCode, body)
				}
				if err != nil {
					msg := fmt.Sprintf("%s %s: %v", req.Method, req.URL, err)
					failure.CompareAndSwap(nil, &msg)
					return
				}
				bytesRead.Add(int64(len(body)))
			}
		})
	}
	wg.Wait()
	r.elapsed += time.Since(began)
	if r.ticks == nil {
		r.ticks = map[string]int64{}
	}
	for name, ticks := range l.serverTicks(b) {
		r.ticks[name] += ticks - before[name]
	}
	if msg := failure.Load(); msg != nil {
		b.Fatal(*msg)
	}
	r.latencies, r.bytes = append(r.latencies, latencies...), r.bytes+bytesRead.Load()
}

// serverTicks is the CPU the node ("node") and each plugin have used.
func (l *HTTPLoad) serverTicks(b *testing.B) map[string]int64 {
	out := map[string]int64{"node": CPUTicks(b, l.Net.PID())}
	for _, p := range l.Plugins {
		out[p.Name] = CPUTicks(b, l.PluginPID(b, p.VMID))
	}
	return out
}

// PluginPID finds the node's child process running the plugin binary named
// after vmID.
func (l *HTTPLoad) PluginPID(b *testing.B, vmID string) int {
	node := strconv.Itoa(l.Net.PID())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if fields := ProcStat(e.Name()); len(fields) < 2 || fields[1] != node {
			continue // not a process, gone meanwhile, or not the node's child
		}
		if cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); bytes.Contains(cmdline, []byte(vmID)) {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	b.Fatalf("no plugin %s under node pid %s", vmID, node)
	return 0
}

// ProcStatusKB reads the kB fields of /proc/<pid>/status (VmRSS, VmHWM...).
func ProcStatusKB(b *testing.B, pid int) map[string]float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		name, value, _ := strings.Cut(line, ":")
		if fields := strings.Fields(value); len(fields) == 2 && fields[1] == "kB" {
			out[name], _ = strconv.ParseFloat(fields[0], 64)
		}
	}
	return out
}

// WaitPluginSettled waits (five minutes at most) until avadata's plugin
// uses under a quarter of a core over a second, so that the load measures
// serving and not a start-up burst (Badger compacting what a bulk write
// left), and returns how long that took and the plugin's CPU use in that
// last second (% of a core): the followers polling an idle node.
func (l *HTTPLoad) WaitPluginSettled(b *testing.B, ctx context.Context) (time.Duration, float64) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	pid, began := l.PluginPID(b, vm.ID.String()), time.Now()
	for prev := CPUTicks(b, pid); ; {
		select {
		case <-ctx.Done():
			b.Fatal("the plugin never settled")
		case <-time.After(time.Second):
		}
		now := CPUTicks(b, pid)
		if now-prev < 25 {
			return time.Since(began), float64(now - prev)
		}
		prev = now
	}
}

// HTTPGet GETs url with HTTPClient and reads the reply whole.
func HTTPGet(ctx context.Context, url string) (int, []byte, error) {
	resp, err := HTTPClient.Do(MustRequest(ctx, http.MethodGet, url, nil))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// MustRequest makes a request of a URL the benchmark built: a bad one is a
// bug of the benchmark.
func MustRequest(ctx context.Context, method, url string, body io.Reader) *http.Request {
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		panic(err)
	}
	return req
}

// EnvInt is the positive integer in the environment variable name, else
// def.
func EnvInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchTrivialPath is the cheapest plugin route, the follower status read
// from memory (a few hundred bytes): the HTTP benchmarks measure the node →
// gRPC → plugin hop with it, and report their sides against it.
const BenchTrivialPath = "/v1/status"

// StartBenchNetwork starts a single-node local network of its own for an
// HTTP benchmark, without the anonymous rate limit (its default bucket, 20
// req/s shared by every client without a key, would measure the rate
// limiter, not the index), and stops it when the benchmark ends.
func StartBenchNetwork(b *testing.B, ctx context.Context) *localnet.Network {
	avalanchego, pluginDir, err := Binaries()
	if err != nil {
		b.Fatal(err)
	}
	config := ChainConfig()
	config["rateLimit"] = map[string]any{"anonymousRps": 1e6, "anonymousBurst": 1_000_000}
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(b.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: NodeFlags(),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := net.Stop(stopCtx); err != nil {
			b.Error(err)
		}
	})
	return net
}
