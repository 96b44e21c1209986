package store

import (
	"fmt"
	"math"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The EVM chain metric rows (keys.go 0x9B-0x9E): every block the EVM
// writer commits adds to the bucket holding its timestamp at each
// granularity (0x9B), moves the last-activity hour of each address it
// involves in each role (0x9C, and its by-hour twin 0x9D), and carries the
// chain's running totals (0x9E), all in the block's own commit.
//
// Distinct counts need no membership rows per bucket: block times never
// decrease, and the buckets of every granularity are unions of whole hours,
// so an address is new in the g-bucket starting at S exactly when the last
// hour it had the role in is before S (or it has none: new on the chain,
// which is what the cumulative counts count). One row per (role, address)
// serves the four granularities and the totals, and it changes at most once
// an hour: a transaction keeps what it read and changed in memory and
// writes each touched row once, at its commit (flushMetrics), and a cache
// of committed hours per chain (chainMetricCache) spares the Badger read
// of an address seen recently.
//
// The rows are running state (backfill.go): the follower leaves them to a
// back-fill's re-derive, which recomputes them from the stored rows
// through the same applyMetrics.
//
// They came without a SchemaVersion bump: a store written before holds
// none for the blocks it has, and its writer starts them at the next block
// it writes. The totals row records that block (ChainTotals.FirstHeight),
// and ChainMetricsFrom answers it: the metrics of such a store count from
// there, as those of a chain indexed from above genesis do, until a rebuild.

// absentHour is the last hour of an address never seen in a role.
const absentHour int64 = math.MinInt64

// granularityCount is how many granularities a block adds to; the
// granularities are 1..granularityCount (metricdata.Hour first).
const granularityCount = 4

// roleAddr is a (role, address) pair, the 0x9C key's tail.
type roleAddr [1 + common.AddressLength]byte

func roleAddrOf(role metricdata.Role, a common.Address) roleAddr {
	var k roleAddr
	k[0] = byte(role)
	copy(k[1:], a[:])
	return k
}

func (k roleAddr) split() (metricdata.Role, common.Address) {
	return metricdata.Role(k[0]), common.Address(k[1:])
}

// lastActive is an address's last hour in a role as the transaction found
// it (was) and as its blocks left it (now); cached says was came from the
// cache.
type lastActive struct {
	was, now int64
	cached   bool
}

type bucketID struct {
	g     metricdata.Granularity
	start int64
}

// metricTxn is what a blockTxn accumulates of the metric rows until its
// commit.
type metricTxn struct {
	cache   *chainMetricCache
	buckets map[bucketID]*metricdata.ChainBucket
	last    map[roleAddr]lastActive
	totals  metricdata.ChainTotals
	// totalsRead says totals holds the stored row (or the cache's copy);
	// applied says a block changed them.
	totalsRead, applied bool

	// pendingSize and pendingCount are what flushMetrics will write, as
	// blockTxn.set counts it: overHalf adds them, so that a transaction
	// stops taking blocks while the rows they move still fit in it.
	pendingSize, pendingCount int64

	// Scratch sums of the block being applied.
	fees, priceSum, maxPrice, product big.Int
}

// pend counts a write flushMetrics will make of a key of keyLen bytes and
// a value of valueLen.
func (m *metricTxn) pend(keyLen, valueLen int) {
	m.pendingSize += int64(keyLen + valueLen + entryOverhead)
	m.pendingCount++
}

// Sizes of the metric rows' keys and values, for the pending budget.
const (
	metricBucketKeyLen   = 1 + 1 + 1 + 8
	lastActiveKeyLen     = 1 + 1 + 1 + 20
	lastActiveHourKeyLen = 1 + 1 + 1 + 8 + 20
	metricTotalsKeyLen   = 1 + 1
)

func (w *blockTxn) metricState() *metricTxn {
	if w.metrics == nil {
		w.metrics = &metricTxn{
			cache:   w.s.metricCaches.chain(w.chain),
			buckets: map[bucketID]*metricdata.ChainBucket{},
			last:    map[roleAddr]lastActive{},
		}
	}
	return w.metrics
}

// applyMetrics counts block b into the metric rows: the live writer's
// blocks (writeBlock) and the re-derive's, rebuilt from the stored rows
// (backfill.go). hasPrev says the block before b is indexed and counted.
func (w *blockTxn) applyMetrics(b *evmdata.Block, hasPrev bool) error {
	m := w.metricState()
	if err := m.loadTotals(w); err != nil {
		return err
	}
	ts := b.Time()
	prevTs := ts // the chain's first indexed block: its own time
	if hasPrev {
		var err error
		if prevTs, err = m.previousTime(w, b.Number); err != nil {
			return err
		}
	}

	// The block's sums.
	txs, gas, contracts := uint64(len(b.Txs)), uint64(0), uint64(0)
	m.fees.SetUint64(0)
	m.priceSum.SetUint64(0)
	m.maxPrice.SetUint64(0)
	for i := range b.Txs {
		tx := &b.Txs[i]
		gas += tx.GasUsed
		if price := txPrice(tx); price != nil {
			m.priceSum.Add(&m.priceSum, price)
			if price.Cmp(&m.maxPrice) > 0 {
				m.maxPrice.Set(price)
			}
			m.product.SetUint64(tx.GasUsed)
			m.fees.Add(&m.fees, m.product.Mul(&m.product, price))
		}
		if tx.Succeeded() {
			contracts += uint64(len(tx.Creations))
		}
	}

	var starts [granularityCount]int64
	var bs [granularityCount]*metricdata.ChainBucket
	for i := range granularityCount {
		g := metricdata.Granularity(i + 1)
		starts[i] = g.Start(ts)
		bk, err := m.bucket(w, g, starts[i])
		if err != nil {
			return err
		}
		bs[i] = bk
		if bk.Blocks == 0 {
			bk.FirstBlockTs, bk.PrevBlockTs = ts, prevTs
		}
		bk.Blocks++
		bk.Txs += txs
		bk.GasUsed += gas
		bk.FeesPaid.Add(bk.FeesPaid, &m.fees)
		bk.GasPriceSum.Add(bk.GasPriceSum, &m.priceSum)
		if m.maxPrice.Cmp(bk.MaxGasPrice) > 0 {
			bk.MaxGasPrice.Set(&m.maxPrice)
		}
		bk.LastBlockTs = ts
		bk.Contracts += contracts
		if hasPrev {
			secs := uint64(max(1, ts-prevTs))
			if r := (metricdata.Rate{Count: txs, Seconds: secs}); r.Greater(bk.MaxTps) {
				bk.MaxTps = r
			}
			if r := (metricdata.Rate{Count: gas, Seconds: secs}); r.Greater(bk.MaxGps) {
				bk.MaxGps = r
			}
		}
	}

	// The block's addresses, by role.
	for i := range b.Txs {
		tx := &b.Txs[i]
		if err := m.note(w, metricdata.Sender, tx.From, &starts, &bs); err != nil {
			return err
		}
		if err := m.note(w, metricdata.Active, tx.From, &starts, &bs); err != nil {
			return err
		}
		if tx.To != nil {
			if err := m.note(w, metricdata.Active, *tx.To, &starts, &bs); err != nil {
				return err
			}
		}
		for j := range tx.Transfers {
			t := &tx.Transfers[j]
			if err := m.note(w, metricdata.Active, t.From, &starts, &bs); err != nil {
				return err
			}
			if err := m.note(w, metricdata.Active, t.To, &starts, &bs); err != nil {
				return err
			}
		}
		if !tx.Succeeded() {
			continue // a reverted tx deployed nothing
		}
		for j := range tx.Creations {
			c := &tx.Creations[j]
			deployer := c.DeployerContract
			if deployer == (common.Address{}) {
				deployer = c.Deployer
			}
			if err := m.note(w, metricdata.Deployer, deployer, &starts, &bs); err != nil {
				return err
			}
		}
	}

	t := &m.totals
	if t.LastHeight == 0 {
		t.FirstHeight = b.Number
	}
	t.Txs += txs
	t.Contracts += contracts
	t.LastHeight, t.LastBlockTs = b.Number, ts
	m.applied = true
	for _, bk := range bs {
		bk.CumulativeTxs, bk.CumulativeAddresses = t.Txs, t.Addresses
		bk.CumulativeContracts, bk.CumulativeDeployers = t.Contracts, t.Deployers
	}
	return nil
}

// txPrice is what a tx paid per gas: the receipt's effective gas price,
// else the legacy gas price (as txFee).
func txPrice(tx *evmdata.Tx) *big.Int {
	if tx.EffectiveGasPrice != nil {
		return tx.EffectiveGasPrice
	}
	return tx.GasPrice
}

// note counts address a in role into the block's buckets: new in each
// bucket it had not had the role in yet, new on the chain when never seen.
func (m *metricTxn) note(w *blockTxn, role metricdata.Role, a common.Address,
	starts *[granularityCount]int64, bs *[granularityCount]*metricdata.ChainBucket,
) error {
	if a == (common.Address{}) {
		return nil // mints and burns
	}
	k := roleAddrOf(role, a)
	e, ok := m.last[k]
	if ok && e.now >= starts[0] {
		return nil // already counted this hour
	}
	if !ok {
		was, cached, err := m.readLast(w, k)
		if err != nil {
			return err
		}
		e = lastActive{was: was, now: was, cached: cached}
	}
	if e.now == e.was && e.now < starts[0] { // the row changes: flushMetrics writes it
		m.pend(lastActiveKeyLen, 8)
		m.pend(lastActiveHourKeyLen, 0)
		if e.was != absentHour {
			m.pend(lastActiveHourKeyLen, 0) // the old by-hour row's delete
		}
	}
	if e.now == absentHour {
		switch role {
		case metricdata.Active:
			m.totals.Addresses++
		case metricdata.Deployer:
			m.totals.Deployers++
		}
	}
	for i, bk := range bs {
		if e.now >= starts[i] {
			continue
		}
		switch role {
		case metricdata.Active:
			bk.ActiveAddresses++
		case metricdata.Sender:
			bk.ActiveSenders++
		case metricdata.Deployer:
			bk.Deployers++
		}
	}
	e.now = max(e.now, starts[0])
	m.last[k] = e
	return nil
}

// readLast is the committed last hour of (role, address): the cache's, or
// the stored row's.
func (m *metricTxn) readLast(w *blockTxn, k roleAddr) (hour int64, cached bool, err error) {
	if h, ok := m.cache.lastHour(k); ok {
		return h, true, nil
	}
	role, a := k.split()
	v, err := w.get(lastActiveKey(w.chain, role, a))
	if err != nil {
		return 0, false, fmt.Errorf("reading the last activity of %s: %w", a, err)
	}
	if v == nil {
		return absentHour, false, nil
	}
	if len(v) != 8 {
		return 0, false, fmt.Errorf("last activity row of %s has %d bytes", a, len(v))
	}
	return int64(beUint64(v)), false, nil
}

// bucket is the transaction's copy of the bucket (g, start): loaded from the
// cache or the store the first time, new when none is stored.
func (m *metricTxn) bucket(w *blockTxn, g metricdata.Granularity, start int64) (*metricdata.ChainBucket, error) {
	id := bucketID{g, start}
	if bk, ok := m.buckets[id]; ok {
		return bk, nil
	}
	bk, ok := m.cache.bucket(g, start)
	if !ok {
		v, err := w.get(metricBucketKey(w.chain, g, start))
		if err != nil {
			return nil, fmt.Errorf("reading the %s bucket at %d: %w", g, start, err)
		}
		if v != nil {
			if bk, err = decodeMetricBucket(g, start, v); err != nil {
				return nil, fmt.Errorf("the %s bucket at %d: %w", g, start, err)
			}
		} else {
			bk = metricdata.ChainBucket{Granularity: g, Start: start, FeesPaid: new(big.Int),
				GasPriceSum: new(big.Int), MaxGasPrice: new(big.Int)}
		}
	}
	p := &bk
	m.buckets[id] = p
	m.pend(metricBucketKeyLen, metricBucketLen)
	return p, nil
}

func (m *metricTxn) loadTotals(w *blockTxn) error {
	if m.totalsRead {
		return nil
	}
	m.pend(metricTotalsKeyLen, metricTotalsLen)
	if t, ok := m.cache.totalsOf(); ok {
		m.totals, m.totalsRead = t, true
		return nil
	}
	v, err := w.get(metricTotalsKey(w.chain))
	if err != nil {
		return fmt.Errorf("reading the metric totals: %w", err)
	}
	if v != nil {
		if m.totals, err = decodeMetricTotals(v); err != nil {
			return err
		}
	}
	m.totalsRead = true
	return nil
}

// previousTime is the timestamp of block h-1: the totals carry it when they
// were last written by it (every block counted in order), else its row.
func (m *metricTxn) previousTime(w *blockTxn, h uint64) (int64, error) {
	if m.totals.LastHeight == h-1 && m.totals.LastHeight != 0 {
		return m.totals.LastBlockTs, nil
	}
	prev, ok, err := readEVMBlock(w.txn, w.chain, h-1)
	if err != nil {
		return 0, fmt.Errorf("reading block %d: %w", h-1, err)
	}
	if !ok {
		return 0, fmt.Errorf("block %d, which block %d carries on from, is not indexed", h-1, h)
	}
	return int64(prev.Timestamp), nil
}

// flushMetrics writes the rows the transaction's blocks changed, each once.
func (w *blockTxn) flushMetrics() error {
	m := w.metrics
	if m == nil || !m.applied {
		return nil
	}
	for id, bk := range m.buckets {
		if err := w.set(metricBucketKey(w.chain, id.g, id.start), encodeMetricBucket(bk)); err != nil {
			return fmt.Errorf("writing %s metric bucket: %w", w.chain, err)
		}
	}
	for k, e := range m.last {
		if e.now == e.was {
			continue
		}
		role, a := k.split()
		if err := w.set(lastActiveKey(w.chain, role, a), key{}.u64(uint64(e.now))); err != nil {
			return err
		}
		if e.was != absentHour {
			if err := w.delete(lastActiveHourKey(w.chain, role, e.was, a)); err != nil {
				return err
			}
		}
		if err := w.set(lastActiveHourKey(w.chain, role, e.now, a), nil); err != nil {
			return err
		}
	}
	return w.set(metricTotalsKey(w.chain), encodeMetricTotals(&m.totals))
}

// metricsCommitted tells the cache how the transaction's commit ended: its
// values become the cache's once committed; after a failed commit, which
// may still have been applied, the chain's cache is dropped.
func (w *blockTxn) metricsCommitted(ok bool) {
	m := w.metrics
	if m == nil {
		return
	}
	if !ok {
		w.s.metricCaches.drop(w.chain)
		return
	}
	for k, e := range m.last {
		if e.now != e.was || !e.cached {
			m.cache.putLast(k, e.now)
		}
	}
	for _, bk := range m.buckets {
		m.cache.putBucket(bk)
	}
	if m.totalsRead {
		m.cache.totals, m.cache.totalsKnown = m.totals, true
	}
}

// dropMetricCache forgets the chain's cached metric rows (a re-derive
// cleared them).
func (s *Store) dropMetricCache(chain netinfo.Chain) { s.metricCaches.drop(chain) }
