package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// CPUMeter adds up what the timed parts of a benchmark cost in CPU: this
// process's (fetchers, follower, Badger), the node's, and this process's
// page faults (a trap of about 12 µs each on the CI's virtual machines). On
// a machine whose cores are all busy, CPU per block sets the rate. A nil
// meter only starts and stops the timer.
type CPUMeter struct {
	Node int // the node's pid

	Wall      time.Duration
	self      time.Duration
	nodeTicks int64
	faults    int64
	wallAt    time.Time
	selfAt    time.Duration
	nodeAt    int64
	faultsAt  int64
}

// Start starts the timer, and the meter with it.
func (m *CPUMeter) Start(b *testing.B) {
	if m != nil {
		m.selfAt, m.faultsAt = selfUsage(b)
		m.nodeAt = CPUTicks(b, m.Node)
		m.wallAt = time.Now()
	}
	b.StartTimer()
}

// Stop stops the timer and adds what the run since Start cost.
func (m *CPUMeter) Stop(b *testing.B) {
	b.StopTimer()
	if m == nil {
		return
	}
	m.Wall += time.Since(m.wallAt)
	self, faults := selfUsage(b)
	m.self += self - m.selfAt
	m.faults += faults - m.faultsAt
	m.nodeTicks += CPUTicks(b, m.Node) - m.nodeAt
}

// Report adds the rate and the costs per block of the blocks the timed
// runs handled, named after what was measured.
func (m *CPUMeter) Report(b *testing.B, name string, blocks uint64) {
	per := func(v float64) float64 { return v / float64(blocks) }
	b.ReportMetric(float64(blocks)/m.Wall.Seconds(), name+"-blocks/s")
	b.ReportMetric(per(float64(m.self.Microseconds())), name+"-self-cpu-µs/block")
	b.ReportMetric(per(float64(m.nodeTicks)*1e6/ticksPerSecond), name+"-node-cpu-µs/block")
	b.ReportMetric(per(float64(m.faults)), name+"-self-faults/block")
}

// ticksPerSecond is USER_HZ, the unit of /proc/<pid>/stat's CPU times.
const ticksPerSecond = 100

// selfUsage is the user + system CPU this process has used and its page
// faults.
func selfUsage(b *testing.B) (time.Duration, int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Minflt + ru.Majflt
}

// ProcStat returns the fields of /proc/<pid>/stat after the parenthesised
// command (state, ppid, ...; utime and stime are 11 and 12), nil if gone.
func ProcStat(pid string) []string {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return nil
	}
	return strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
}

// CPUTicks is the CPU pid has used (utime + stime), in USER_HZ: 100/s.
func CPUTicks(b *testing.B, pid int) int64 {
	fields := ProcStat(strconv.Itoa(pid))
	if len(fields) < 13 {
		b.Fatalf("pid %d gone", pid)
	}
	u, _ := strconv.ParseInt(fields[11], 10, 64)
	s, _ := strconv.ParseInt(fields[12], 10, 64)
	return u + s
}

// How the catch-up benchmarks read blocks, fetch-only and follower alike:
// BenchBatch blocks a fetch (unless a benchmark says otherwise),
// BenchFetchers fetches at once.
const (
	BenchBatch    = 64
	BenchFetchers = 4
)

// FetchAll fetches blocks 1..head with BenchFetchers parallel workers.
func FetchAll[B chaindata.Block](b *testing.B, ctx context.Context, src follower.Source[B], head uint64) {
	FetchRange(b, ctx, src, 1, head, BenchBatch)
}

// FetchRange fetches blocks from..head, batch blocks a fetch, with
// BenchFetchers parallel workers.
func FetchRange[B chaindata.Block](b *testing.B, ctx context.Context, src follower.Source[B], from, head uint64, batch int) {
	ranges := make(chan uint64)
	var wg sync.WaitGroup
	for range BenchFetchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for start := range ranges {
				if _, err := src.Fetch(ctx, start, int(min(uint64(batch), head-start+1))); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	for h := from; h <= head; h += uint64(batch) {
		ranges <- h
	}
	close(ranges)
	wg.Wait()
}

// CatchUpOnce runs a follower of chain on a fresh store until it reaches
// head.
func CatchUpOnce[B chaindata.Block](b *testing.B, ctx context.Context, chain netinfo.Chain, src follower.Source[B],
	head uint64, sink func(*store.Store) follower.Sink[B], meter *CPUMeter,
) {
	CatchUpRange(b, ctx, chain, src, 1, head, BenchBatch, sink, meter)
}

// CatchUpRange runs a follower of chain on a fresh store, indexing from
// height from, batch blocks a fetch, until it reaches head. From a later height than 1 the store
// is started there before the clock runs (the follower's own fresh start,
// IndexFrom, first checks that the node serves a window of 300 blocks with
// their receipts above the oldest it finds, which on full blocks costs
// about as much as fetching them again): what is timed is the catch-up.
func CatchUpRange[B chaindata.Block](b *testing.B, ctx context.Context, chain netinfo.Chain, src follower.Source[B],
	from, head uint64, batch int, sink func(*store.Store) follower.Sink[B], meter *CPUMeter,
) {
	b.StopTimer()
	st, err := store.Open(b.TempDir(), logging.NoLog{})
	if err != nil {
		b.Fatal(err)
	}
	// Closed with the timer stopped: closing flushes the memtable, which a
	// catch-up does in the background as it goes, not as its last step.
	defer func() {
		b.StopTimer()
		_ = st.Close()
		b.StartTimer()
	}()
	m, err := follower.NewMetrics(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	cfg := follower.Config{PollInterval: time.Millisecond, BatchSize: batch, Fetchers: BenchFetchers}
	out := sink(st)
	if from > 1 {
		cfg.IndexFrom = follower.IndexFrom{Height: from}
		if err := out.Start(ctx, from); err != nil {
			b.Fatal(err)
		}
	}
	f := follower.New(follower.Identity{Chain: chain, Name: chain.String()}, src, out, cfg, logging.NoLog{}, m)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	meter.Start(b)
	go func() { done <- f.Run(runCtx) }()
	// Polled every millisecond: a catch-up takes 100 ms or more, and a
	// tighter poll takes CPU from the follower it measures (at 100 µs, a
	// tenth of a core on these two-core machines).
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	for f.Status().IndexedHeight < head {
		select {
		case err := <-done:
			b.Fatalf("follower stopped: %v", err)
		case <-poll.C:
		}
	}
	meter.Stop(b)
	stop()
	<-done
	if c, _ := st.Cursor(ctx, chain, store.StreamBlocks); c.NextHeight != head+1 {
		b.Fatalf("cursor %d after catching up to %d", c.NextHeight, head)
	}
}
