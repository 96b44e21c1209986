package store

import (
	"sync"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// metricCaches keeps, per EVM chain, committed values of its metric rows
// (evmmetric.go): the last-activity hours of the addresses seen recently,
// the newest bucket of each granularity and the totals. Only a chain's
// writer uses its cache, under the chain's commit lock, and puts into it
// only what a commit wrote (or found); a failed commit drops it.
type metricCaches struct {
	mu     sync.Mutex
	chains map[netinfo.Chain]*chainMetricCache
	// generation overrides lastHourGeneration (tests).
	generation int
}

func (c *metricCaches) chain(chain netinfo.Chain) *chainMetricCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.chains == nil {
		c.chains = map[netinfo.Chain]*chainMetricCache{}
	}
	cc := c.chains[chain]
	if cc == nil {
		gen := lastHourGeneration
		if c.generation > 0 {
			gen = c.generation
		}
		cc = &chainMetricCache{cur: make(map[roleAddr]int64, 1024), generation: gen}
		c.chains[chain] = cc
	}
	return cc
}

func (c *metricCaches) drop(chain netinfo.Chain) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.chains, chain)
}

// lastHourGeneration bounds the last-activity cache: it holds two
// generations of at most this many entries; when the current one fills up
// the older is dropped, and an entry read from the older moves to the
// current one (an LRU's effect without its bookkeeping).
const lastHourGeneration = 1 << 17

type chainMetricCache struct {
	cur, old   map[roleAddr]int64
	generation int
	// buckets holds the newest bucket of each granularity (index g).
	buckets     [granularityCount + 1]metricdata.ChainBucket
	bucketKnown [granularityCount + 1]bool
	totals      metricdata.ChainTotals
	totalsKnown bool
}

func (c *chainMetricCache) lastHour(k roleAddr) (int64, bool) {
	if h, ok := c.cur[k]; ok {
		return h, true
	}
	if h, ok := c.old[k]; ok {
		c.putLast(k, h)
		return h, true
	}
	return 0, false
}

func (c *chainMetricCache) putLast(k roleAddr, hour int64) {
	if _, ok := c.cur[k]; !ok && len(c.cur) >= c.generation {
		c.old, c.cur = c.cur, make(map[roleAddr]int64, c.generation)
	}
	c.cur[k] = hour
}

// bucket is a copy of the cached bucket (g, start), when it is the one
// cached.
func (c *chainMetricCache) bucket(g metricdata.Granularity, start int64) (metricdata.ChainBucket, bool) {
	if int(g) >= len(c.buckets) || !c.bucketKnown[g] || c.buckets[g].Start != start {
		return metricdata.ChainBucket{}, false
	}
	return copyBucket(c.buckets[g]), true
}

func (c *chainMetricCache) putBucket(b *metricdata.ChainBucket) {
	g := b.Granularity
	if int(g) >= len(c.buckets) || (c.bucketKnown[g] && c.buckets[g].Start > b.Start) {
		return
	}
	c.buckets[g], c.bucketKnown[g] = copyBucket(*b), true
}

func (c *chainMetricCache) totalsOf() (metricdata.ChainTotals, bool) { return c.totals, c.totalsKnown }
