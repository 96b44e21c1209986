package evm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	rand "math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/vm"
)

// The load and the process measurements of BenchmarkEVMHTTPRoutesAt1M.

// loadResult is what the loads of one side measured.
type loadResult struct {
	latencies []time.Duration
	bytes     int64
	elapsed   time.Duration
	cpuTicks  int64 // CPU the node and its two plugins used, USER_HZ
	// CPU each process used, USER_HZ: where a side's cost is.
	nodeTicks, avadataTicks, subnetEVMTicks int64
}

// report reports the side's metrics and returns its rate (req/s).
func (r *loadResult) report(b *testing.B, side string) float64 {
	sorted := slices.Clone(r.latencies)
	slices.Sort(sorted)
	ms := func(p float64) float64 { return float64(sorted[int(p*float64(len(sorted)-1))].Microseconds()) / 1000 }
	n := float64(len(sorted))
	b.ReportMetric(n/r.elapsed.Seconds(), side+"-req/s")
	b.ReportMetric(ms(0.5), side+"-p50-ms")
	b.ReportMetric(ms(0.99), side+"-p99-ms")
	b.ReportMetric(float64(r.bytes)/n, side+"-B/resp")
	// What a request costs the server side, whatever the machine's load:
	// the node, avadata and subnet-evm together (the client not counted).
	b.ReportMetric(float64(r.cpuTicks)*10/n, side+"-server-cpu-ms/req")
	b.ReportMetric(float64(r.nodeTicks)*10/n, side+"-node-cpu-ms/req")
	b.ReportMetric(float64(r.avadataTicks)*10/n, side+"-avadata-cpu-ms/req")
	b.ReportMetric(float64(r.subnetEVMTicks)*10/n, side+"-subnetevm-cpu-ms/req")
	return n / r.elapsed.Seconds()
}

// runLoad sends n requests from httpBenchClients goroutines, each sending
// its next as soon as its last is answered, and adds their timings to r. A
// failed request fails the benchmark: a fast error is not a result.
func (f *httpBench) runLoad(b *testing.B, ctx context.Context, n int, r *loadResult, next func(context.Context, *rand.Rand) *http.Request) {
	latencies := make([]time.Duration, n)
	var issued, bytesRead atomic.Int64
	var failure atomic.Pointer[string]
	var wg sync.WaitGroup
	node, avadata, subnetEVM := f.serverTicks(b)
	began := time.Now()
	for w := range httpBenchClients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), uint64(began.UnixNano())))
			for i := issued.Add(1) - 1; i < int64(n) && failure.Load() == nil; i = issued.Add(1) - 1 {
				req := next(ctx, rng)
				start := time.Now()
				resp, err := f.client.Do(req)
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
	node2, avadata2, subnetEVM2 := f.serverTicks(b)
	r.nodeTicks += node2 - node
	r.avadataTicks += avadata2 - avadata
	r.subnetEVMTicks += subnetEVM2 - subnetEVM
	r.cpuTicks += (node2 - node) + (avadata2 - avadata) + (subnetEVM2 - subnetEVM)
	if msg := failure.Load(); msg != nil {
		b.Fatal(*msg)
	}
	r.latencies, r.bytes = append(r.latencies, latencies...), r.bytes+bytesRead.Load()
}

// childPID finds the node's child process running the plugin binary named
// after vmID (avadata's or subnet-evm's).
func (f *httpBench) childPID(b *testing.B, vmID string) int {
	node := strconv.Itoa(f.net.PID())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if fields := harness.ProcStat(e.Name()); len(fields) < 2 || fields[1] != node {
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

// serverTicks is the CPU the node and its avadata and subnet-evm plugins
// have used.
func (f *httpBench) serverTicks(b *testing.B) (node, avadata, subnetEVM int64) {
	return harness.CPUTicks(b, f.net.PID()), harness.CPUTicks(b, f.childPID(b, vm.ID.String())),
		harness.CPUTicks(b, f.childPID(b, localnet.SubnetEVMVMID.String()))
}

// procStatusKB reads the kB fields of /proc/<pid>/status (VmRSS, VmHWM...).
func procStatusKB(b *testing.B, pid int) map[string]float64 {
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

// waitPluginSettled waits (five minutes at most) until the plugin uses under
// a quarter of a core over a second, so that the load measures serving and
// not a start-up burst (Badger compacting what the bulk write left), and
// returns the plugin's CPU use in that last second (% of a core): the
// followers polling an idle node.
func (f *httpBench) waitPluginSettled(b *testing.B, ctx context.Context) float64 {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	pid, began := f.childPID(b, vm.ID.String()), time.Now()
	for prev := harness.CPUTicks(b, pid); ; {
		select {
		case <-ctx.Done():
			b.Fatal("the plugin never settled after the restart")
		case <-time.After(time.Second):
		}
		now := harness.CPUTicks(b, pid)
		if now-prev < 25 {
			f.logf(b, "plugin settled %s after the restart, then used %d%% of a core idle", time.Since(began).Round(time.Second), now-prev)
			return float64(now - prev)
		}
		prev = now
	}
}

// findIndexDir returns avadata's Badger directory (the VM's "index" dir
// under the node's chain data), found as RemoveIndex finds it.
func findIndexDir(b *testing.B, dataDir string) string {
	var found []string
	err := filepath.WalkDir(dataDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "index" {
			if _, statErr := os.Stat(filepath.Join(path, "MANIFEST")); statErr == nil {
				found = append(found, path)
			}
		}
		return err
	})
	if err != nil || len(found) != 1 {
		b.Fatalf("avadata index dirs under %s: %v (%v)", dataDir, found, err)
	}
	return found[0]
}

// dirBytes is the disk space dir's files take: allocated blocks, so that
// Badger's preallocated value-log file counts only what it holds.
func dirBytes(dir string) (allocated int64) {
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				allocated += info.Sys().(*syscall.Stat_t).Blocks * 512
			}
		}
		return nil
	})
	return allocated
}
