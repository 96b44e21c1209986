package follower

import (
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"
)

const rateWindow = 30 * time.Second

// rateMeter measures blocks per second over a sliding window.
type rateMeter struct {
	mu      sync.Mutex
	samples []rateSample
}

type rateSample struct {
	at     time.Time
	blocks int
}

func newRateMeter() *rateMeter { return &rateMeter{} }

func (r *rateMeter) add(at time.Time, blocks int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.samples = append(r.samples, rateSample{at: at, blocks: blocks})
	r.trim(at)
}

func (r *rateMeter) trim(now time.Time) {
	i := 0
	for i < len(r.samples) && now.Sub(r.samples[i].at) > rateWindow {
		i++
	}
	r.samples = r.samples[i:]
}

func (r *rateMeter) perSecond(now time.Time) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trim(now)
	if len(r.samples) == 0 {
		return 0
	}
	total := 0
	for _, s := range r.samples {
		total += s.blocks
	}
	span := now.Sub(r.samples[0].at)
	if span < time.Second {
		span = time.Second
	}
	return float64(total) / span.Seconds()
}

// progressLog writes a catch-up line (height, blocks/s, ETA) at most every
// progressInterval.
type progressLog struct {
	log    logging.Logger
	chain  string
	lastAt time.Time
}

func newProgressLog(log logging.Logger, chain string) *progressLog {
	return &progressLog{log: log, chain: chain, lastAt: time.Now()}
}

func (p *progressLog) maybeLog(s Status) {
	now := time.Now()
	if now.Sub(p.lastAt) < progressInterval {
		return
	}
	fields := []zap.Field{
		zapChain(p.chain),
		zap.Uint64("height", s.IndexedHeight),
		zap.Uint64("nodeHeight", s.NodeHeight),
		zap.Uint64("lag", s.Lag),
		zap.String("blocksPerSecond", formatRate(s.BlocksPerSecond)),
	}
	if s.TracesAvailable != nil {
		fields = append(fields, zap.Bool("traces", *s.TracesAvailable))
	}
	if s.BlocksPerSecond > 0 && s.Lag > 0 {
		eta := time.Duration(float64(s.Lag) / s.BlocksPerSecond * float64(time.Second))
		fields = append(fields, zap.Duration("eta", eta.Round(time.Second)))
	}
	p.log.Info("indexing", fields...)
	p.lastAt = now
}
