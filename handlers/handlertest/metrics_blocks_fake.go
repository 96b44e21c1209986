package handlertest

import (
	"context"
	"math/big"
	"slices"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The EVM metric rows built block by block, as the store's writer builds
// them (AddMetricBlock): the buckets of every granularity, each address's
// last hour per role (ActiveSince) and the running totals.

// MetricBlock is one synthetic EVM block as the metric rows count it.
type MetricBlock struct {
	Ts        int64
	GasUsed   uint64   // Σ GasUsedOf
	GasPrices []int64  // each transaction's effective gas price (wei)
	GasUsedOf []uint64 // each transaction's gasUsed
	Active    []string // addresses active in the block (repeats allowed)
	Senders   []string
	Deployers []string
	Contracts uint64
}

// metricTotals are a chain's running totals.
type metricTotals struct {
	txs, contracts uint64
	lastTs         int64
	hasBlock       bool
	addresses      map[string]bool
	deployers      map[string]bool
}

// AddMetricBlocks counts blocks of chain, in order, after every block
// added before them (timestamps never decrease).
func (f *Fakes) AddMetricBlocks(chain netinfo.Chain, blocks ...MetricBlock) {
	cm := f.chainMetrics()
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.buckets == nil {
		cm.buckets = map[netinfo.Chain]map[metricdata.Granularity][]metricdata.ChainBucket{}
		cm.lastHour = map[netinfo.Chain]map[metricdata.Role]map[string]int64{}
		cm.totals = map[netinfo.Chain]*metricTotals{}
	}
	if cm.buckets[chain] == nil {
		cm.buckets[chain] = map[metricdata.Granularity][]metricdata.ChainBucket{}
	}
	if cm.lastHour[chain] == nil {
		cm.lastHour[chain] = map[metricdata.Role]map[string]int64{}
	}
	tot := cm.totals[chain]
	if tot == nil {
		tot = &metricTotals{addresses: map[string]bool{}, deployers: map[string]bool{}}
		cm.totals[chain] = tot
	}
	// The stored lists are newest first; they grow at the end, oldest
	// first, while the blocks are counted.
	for _, list := range cm.buckets[chain] {
		slices.Reverse(list)
	}
	for _, b := range blocks {
		cm.addMetricBlock(chain, tot, b)
	}
	for _, list := range cm.buckets[chain] {
		slices.Reverse(list)
	}
}

// addMetricBlock counts block b; the bucket lists are oldest first.
func (cm *ChainMetrics) addMetricBlock(chain netinfo.Chain, tot *metricTotals, b MetricBlock) {
	fees, priceSum, maxPrice := new(big.Int), new(big.Int), new(big.Int)
	for i, p := range b.GasPrices {
		price := big.NewInt(p)
		priceSum.Add(priceSum, price)
		if price.Cmp(maxPrice) > 0 {
			maxPrice.Set(price)
		}
		fees.Add(fees, new(big.Int).Mul(price, new(big.Int).SetUint64(b.GasUsedOf[i])))
	}
	txs := uint64(len(b.GasPrices))

	// An address is new in the bucket starting at S iff its last hour
	// with the role is before S.
	hour := metricdata.Hour.Start(b.Ts)
	newIn := map[metricdata.Granularity]map[metricdata.Role]uint64{}
	for _, g := range metricdata.Granularities() {
		newIn[g] = map[metricdata.Role]uint64{}
	}
	for role, addrs := range map[metricdata.Role][]string{
		metricdata.Active: b.Active, metricdata.Sender: b.Senders, metricdata.Deployer: b.Deployers,
	} {
		if cm.lastHour[chain][role] == nil {
			cm.lastHour[chain][role] = map[string]int64{}
		}
		addrs = slices.Clone(addrs)
		slices.Sort(addrs)
		for _, a := range slices.Compact(addrs) {
			last, seen := cm.lastHour[chain][role][a]
			for _, g := range metricdata.Granularities() {
				if !seen || last < g.Start(b.Ts) {
					newIn[g][role]++
				}
			}
			cm.lastHour[chain][role][a] = hour
			switch role {
			case metricdata.Active:
				tot.addresses[a] = true
			case metricdata.Deployer:
				tot.deployers[a] = true
			}
		}
	}
	tot.txs += txs
	tot.contracts += b.Contracts
	prevTs, hasPrev := tot.lastTs, tot.hasBlock
	tot.lastTs, tot.hasBlock = b.Ts, true

	for _, g := range metricdata.Granularities() {
		list := cm.buckets[chain][g] // oldest first
		start := g.Start(b.Ts)
		if len(list) == 0 || list[len(list)-1].Start != start {
			nb := metricdata.ChainBucket{Granularity: g, Start: start, FeesPaid: new(big.Int), GasPriceSum: new(big.Int),
				MaxGasPrice: new(big.Int), FirstBlockTs: b.Ts}
			if hasPrev {
				nb.PrevBlockTs = prevTs
			}
			list = append(list, nb)
		}
		bk := &list[len(list)-1]
		bk.Blocks++
		bk.Txs += txs
		bk.GasUsed += b.GasUsed
		bk.FeesPaid = new(big.Int).Add(bk.FeesPaid, fees)
		bk.GasPriceSum = new(big.Int).Add(bk.GasPriceSum, priceSum)
		if maxPrice.Cmp(bk.MaxGasPrice) > 0 {
			bk.MaxGasPrice = new(big.Int).Set(maxPrice)
		}
		bk.LastBlockTs = b.Ts
		if hasPrev {
			secs := uint64(max(b.Ts-prevTs, 1))
			if r := (metricdata.Rate{Count: txs, Seconds: secs}); r.Greater(bk.MaxTps) {
				bk.MaxTps = r
			}
			if r := (metricdata.Rate{Count: b.GasUsed, Seconds: secs}); r.Greater(bk.MaxGps) {
				bk.MaxGps = r
			}
		}
		bk.ActiveAddresses += newIn[g][metricdata.Active]
		bk.ActiveSenders += newIn[g][metricdata.Sender]
		bk.Deployers += newIn[g][metricdata.Deployer]
		bk.Contracts += b.Contracts
		bk.CumulativeTxs = tot.txs
		bk.CumulativeAddresses = uint64(len(tot.addresses))
		bk.CumulativeContracts = tot.contracts
		bk.CumulativeDeployers = uint64(len(tot.deployers))
		cm.buckets[chain][g] = list
	}
}

// ActiveSince is the store's: the addresses whose last hour with role on
// chain is at least hour.
func (f *Fakes) ActiveSince(ctx context.Context, chain netinfo.Chain, role metricdata.Role, hour int64) (uint64, error) {
	cm := f.chainMetrics()
	cm.mu.Lock()
	defer cm.mu.Unlock()
	if cm.Err != nil {
		return 0, cm.Err
	}
	var n uint64
	for _, last := range cm.lastHour[chain][role] {
		if last >= hour {
			n++
		}
	}
	return n, ctx.Err()
}
