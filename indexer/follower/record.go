package follower

import (
	"time"
)

// The record* methods keep Status and the metrics in step with the loop.

func (f *Follower[B]) setRunning(running bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.Running = running
}

func (f *Follower[B]) fail(err error) error {
	f.recordError(err)
	return err
}

func (f *Follower[B]) recordError(err error) {
	f.metrics.errors.Inc()
	f.log.Warn("follower error", zapChain(f.id.Name), zapErr(err))
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.LastError = err.Error()
}

func (f *Follower[B]) recordIndexed(height uint64, lastApplied time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.IndexedHeight = height
	if lastApplied.UnixNano() > 0 {
		f.status.LastApplied = lastApplied
	}
	f.status.LastProgress = time.Now()
	f.metrics.indexedHeight.Set(float64(height))
}

func (f *Follower[B]) recordHistoryFrom(first uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.HistoryFrom = first
}

func (f *Follower[B]) recordHead(head uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.NodeHeight = head
	f.status.NodeHeightKnown = true
	f.status.Lag = 0
	if head > f.status.IndexedHeight {
		f.status.Lag = head - f.status.IndexedHeight
	}
	f.metrics.nodeHeight.Set(float64(head))
	f.metrics.lag.Set(float64(f.status.Lag))
}

func (f *Follower[B]) recordCaughtUp() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status.CaughtUp = true
	f.status.LastProgress = time.Now()
	f.status.LastError = ""
}

func (f *Follower[B]) recordBatch(blocks []B, now time.Time, took time.Duration) {
	var txs uint64
	for _, b := range blocks {
		txs += uint64(b.TxCount())
	}
	last := blocks[len(blocks)-1].Height()
	f.rate.add(now, len(blocks))
	f.metrics.blocks.Add(float64(len(blocks)))
	f.metrics.txs.Add(float64(txs))
	f.metrics.batchSeconds.Observe(took.Seconds())
	f.metrics.blocksPerSec.Set(f.rate.perSecond(now))
	f.mu.Lock()
	f.status.LastApplied = now
	f.status.LastError = ""
	if traced, ok := any(blocks[len(blocks)-1]).(interface{ HasTraces() bool }); ok {
		has := traced.HasTraces()
		f.status.TracesAvailable = &has
	}
	f.mu.Unlock()
	f.recordIndexed(last, now)
	f.recordHead(max(last, f.Status().NodeHeight))
}
