package e2e

import (
	"syscall"
	"testing"
	"time"
)

// cpuMeter adds up what the timed parts of a benchmark cost in CPU: this
// process's (fetchers, follower, Badger), the node's, and this process's
// page faults (a trap of about 12 µs each on the CI's virtual machines). On
// a machine whose cores are all busy, CPU per block sets the rate. A nil
// meter only starts and stops the timer.
type cpuMeter struct {
	node int // the node's pid

	wall      time.Duration
	self      time.Duration
	nodeTicks int64
	faults    int64
	wallAt    time.Time
	selfAt    time.Duration
	nodeAt    int64
	faultsAt  int64
}

func (m *cpuMeter) start(b *testing.B) {
	if m != nil {
		m.selfAt, m.faultsAt = selfUsage(b)
		m.nodeAt = cpuTicks(b, m.node)
		m.wallAt = time.Now()
	}
	b.StartTimer()
}

func (m *cpuMeter) stop(b *testing.B) {
	b.StopTimer()
	if m == nil {
		return
	}
	m.wall += time.Since(m.wallAt)
	self, faults := selfUsage(b)
	m.self += self - m.selfAt
	m.faults += faults - m.faultsAt
	m.nodeTicks += cpuTicks(b, m.node) - m.nodeAt
}

// report adds the rate and the costs per block of the blocks the timed
// runs handled, named after what was measured.
func (m *cpuMeter) report(b *testing.B, name string, blocks uint64) {
	per := func(v float64) float64 { return v / float64(blocks) }
	b.ReportMetric(float64(blocks)/m.wall.Seconds(), name+"-blocks/s")
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
