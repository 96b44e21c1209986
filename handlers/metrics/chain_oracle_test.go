package metrics

import (
	"math/big"
	"math/rand"
	"slices"

	"github.com/avadata/avadata/indexer/metricdata"
)

// The chain metrics' tests build a chain of synthetic blocks, store the
// buckets the store would keep of them (oracleBuckets, the fake store's
// contents) and recompute every metric of every bucket from the blocks by
// the definitions (oracleSeries), independently of the handler's table.

// oTx is one transaction: addresses are small numbers, 0 none (to 0 is a
// contract creation; a token party 0 is the zero address of a mint/burn).
type oTx struct {
	from, to  int
	gas       uint64
	price     *big.Int
	parties   []int // token transfer senders and receivers
	deployers []int // the creator of each contract the tx created
}

type oBlock struct {
	ts  int64
	txs []oTx
}

// oChain is a chain's blocks (height i+1 at index i) and the first height
// its metrics count from (1: genesis).
type oChain struct {
	blocks []oBlock
	from   int
}

// oracleBase is Thursday 2024-01-25 00:00 UTC: the chains cross weeks,
// months and February 29.
const oracleBase = int64(1706140800)

// newOracleChain makes a chain of blocks over days [firstDay, lastDay) from
// oracleBase, with whole days, a week and hours without blocks, blocks
// without transactions, blocks sharing a second, and a few transactions
// whose fees exceed 2^64 wei.
func newOracleChain(seed int64, firstDay, lastDay int) oChain {
	rng := rand.New(rand.NewSource(seed))
	var c oChain
	c.from = 1
	for day := firstDay; day < lastDay; day++ {
		if day%9 == 3 || (day >= 12 && day < 20) { // single days and a whole week without blocks
			continue
		}
		ts := oracleBase + int64(day)*86400 + int64(rng.Intn(3600))
		for n := rng.Intn(5); n >= 0; n-- {
			b := oBlock{ts: ts}
			for k := rng.Intn(4); k > 0; k-- {
				tx := oTx{from: 1 + rng.Intn(30), to: rng.Intn(30), gas: 21_000 + uint64(rng.Intn(500_000)),
					price: big.NewInt(25_000_000_000 + rng.Int63n(5_000_000_000))}
				if rng.Intn(40) == 0 {
					tx.price = new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil) // fees above 2^64
				}
				for p := rng.Intn(3); p > 0; p-- {
					tx.parties = append(tx.parties, rng.Intn(40), 30+rng.Intn(20))
				}
				if tx.to == 0 || rng.Intn(6) == 0 {
					tx.deployers = append(tx.deployers, tx.from)
					if rng.Intn(3) == 0 { // a factory contract creates another
						tx.deployers = append(tx.deployers, 100+rng.Intn(3))
					}
				}
				b.txs = append(b.txs, tx)
			}
			c.blocks = append(c.blocks, b)
			// The next block: in the same second, a few seconds later, or
			// hours later.
			switch rng.Intn(4) {
			case 0:
			case 1, 2:
				ts += 1 + int64(rng.Intn(20))
			default:
				ts += int64(3600 * (1 + rng.Intn(6)))
			}
			if ts >= oracleBase+int64(day+1)*86400 {
				break
			}
		}
	}
	return c
}

// counted are the blocks the chain's metrics count, with the timestamp of
// the counted block before each (0: none).
func (c oChain) counted() (blocks []oBlock, prev []int64) {
	for i := max(c.from, 1) - 1; i < len(c.blocks); i++ {
		p := int64(0)
		if len(blocks) > 0 {
			p = blocks[len(blocks)-1].ts
		}
		blocks = append(blocks, c.blocks[i])
		prev = append(prev, p)
	}
	return blocks, prev
}

// oracleBuckets are the buckets the store keeps of the chain, at every
// granularity.
func oracleBuckets(c oChain) []metricdata.ChainBucket {
	blocks, prev := c.counted()
	var out []metricdata.ChainBucket
	for _, g := range metricdata.Granularities() {
		var cum oCumulative
		var cur *metricdata.ChainBucket
		var active, senders, deployers map[int]bool
		for i, b := range blocks {
			start := g.Start(b.ts)
			if cur == nil || cur.Start != start {
				if cur != nil {
					out = append(out, *cur)
				}
				cur = &metricdata.ChainBucket{Granularity: g, Start: start, FeesPaid: new(big.Int), GasPriceSum: new(big.Int),
					MaxGasPrice: new(big.Int), FirstBlockTs: b.ts, PrevBlockTs: prev[i]}
				active, senders, deployers = map[int]bool{}, map[int]bool{}, map[int]bool{}
			}
			cur.Blocks++
			cur.LastBlockTs = b.ts
			var gas uint64
			for _, tx := range b.txs {
				cur.Txs++
				gas += tx.gas
				cur.FeesPaid.Add(cur.FeesPaid, new(big.Int).Mul(new(big.Int).SetUint64(tx.gas), tx.price))
				cur.GasPriceSum.Add(cur.GasPriceSum, tx.price)
				if tx.price.Cmp(cur.MaxGasPrice) > 0 {
					cur.MaxGasPrice.Set(tx.price)
				}
				for _, a := range tx.activeAddresses() {
					active[a] = true
				}
				senders[tx.from] = true
				for _, d := range tx.deployers {
					deployers[d] = true
				}
				cur.Contracts += uint64(len(tx.deployers))
			}
			cur.GasUsed += gas
			if i > 0 {
				secs := uint64(max(1, b.ts-prev[i]))
				if r := (metricdata.Rate{Count: uint64(len(b.txs)), Seconds: secs}); r.Greater(cur.MaxTps) {
					cur.MaxTps = r
				}
				if r := (metricdata.Rate{Count: gas, Seconds: secs}); r.Greater(cur.MaxGps) {
					cur.MaxGps = r
				}
			}
			cur.ActiveAddresses, cur.ActiveSenders, cur.Deployers = uint64(len(active)), uint64(len(senders)), uint64(len(deployers))
			cum.add(b)
			cur.CumulativeTxs, cur.CumulativeAddresses = cum.txs, uint64(len(cum.addresses))
			cur.CumulativeContracts, cur.CumulativeDeployers = cum.contracts, uint64(len(cum.deployers))
		}
		if cur != nil {
			out = append(out, *cur)
		}
	}
	return out
}

func (tx oTx) activeAddresses() []int {
	var out []int
	for _, a := range append([]int{tx.from, tx.to}, tx.parties...) {
		if a != 0 {
			out = append(out, a)
		}
	}
	return out
}

// oCumulative are the running totals.
type oCumulative struct {
	txs, contracts       uint64
	addresses, deployers map[int]bool
}

func (c *oCumulative) add(b oBlock) {
	if c.addresses == nil {
		c.addresses, c.deployers = map[int]bool{}, map[int]bool{}
	}
	for _, tx := range b.txs {
		c.txs++
		c.contracts += uint64(len(tx.deployers))
		for _, a := range tx.activeAddresses() {
			c.addresses[a] = true
		}
		for _, d := range tx.deployers {
			c.deployers[d] = true
		}
	}
}

// oPoint is an expected point: an exact value.
type oPoint struct {
	ts    int64
	value *big.Rat
}

// oracleValue is metric's value over one chain's blocks of the bucket
// [start, next), recomputed from the definitions; cum holds the running
// totals through the bucket's end.
func oracleValue(metric string, bucket []oBlock, prevTs int64, cum oCumulative) *big.Rat {
	var txs, gas, contracts uint64
	fees, prices, maxPrice := new(big.Int), new(big.Int), new(big.Int)
	active, senders, deployers := map[int]bool{}, map[int]bool{}, map[int]bool{}
	maxTps, maxGps := new(big.Rat), new(big.Rat)
	for i, b := range bucket {
		var blockGas uint64
		for _, tx := range b.txs {
			txs++
			blockGas += tx.gas
			fees.Add(fees, new(big.Int).Mul(new(big.Int).SetUint64(tx.gas), tx.price))
			prices.Add(prices, tx.price)
			if tx.price.Cmp(maxPrice) > 0 {
				maxPrice.Set(tx.price)
			}
			for _, a := range tx.activeAddresses() {
				active[a] = true
			}
			senders[tx.from] = true
			for _, d := range tx.deployers {
				deployers[d] = true
			}
			contracts += uint64(len(tx.deployers))
		}
		gas += blockGas
		before := prevTs
		if i > 0 {
			before = bucket[i-1].ts
		}
		if before != 0 { // the block has an indexed predecessor
			secs := max(1, b.ts-before)
			maxTps = ratMax(maxTps, big.NewRat(int64(len(b.txs)), secs))
			maxGps = ratMax(maxGps, big.NewRat(int64(blockGas), secs))
		}
	}
	span := int64(1)
	if len(bucket) > 0 {
		from := prevTs
		if from == 0 {
			from = bucket[0].ts
		}
		span = max(1, bucket[len(bucket)-1].ts-from)
	}
	n := func(v uint64) *big.Rat { return new(big.Rat).SetUint64(v) }
	switch metric {
	case "txCount":
		return n(txs)
	case "gasUsed":
		return n(gas)
	case "feesPaid":
		return new(big.Rat).SetInt(fees)
	case "maxGasPrice":
		return new(big.Rat).SetInt(maxPrice)
	case "avgGasPrice":
		if txs == 0 {
			return new(big.Rat)
		}
		return new(big.Rat).SetFrac(prices, new(big.Int).SetUint64(txs))
	case "avgTps":
		return big.NewRat(int64(txs), span)
	case "avgGps":
		return big.NewRat(int64(gas), span)
	case "maxTps":
		return maxTps
	case "maxGps":
		return maxGps
	case "activeAddresses":
		return n(uint64(len(active)))
	case "activeSenders":
		return n(uint64(len(senders)))
	case "contracts":
		return n(contracts)
	case "deployers":
		return n(uint64(len(deployers)))
	case "cumulativeTxCount":
		return n(cum.txs)
	case "cumulativeAddresses":
		return n(uint64(len(cum.addresses)))
	case "cumulativeContracts":
		return n(cum.contracts)
	case "cumulativeDeployers":
		return n(uint64(len(cum.deployers)))
	}
	panic("unknown metric " + metric)
}

func ratMax(a, b *big.Rat) *big.Rat {
	if b.Cmp(a) > 0 {
		return b
	}
	return a
}

// oracleChainValues are metric's values of every bucket of g from the
// chain's first complete bucket to its newest, by start; first is the
// first complete bucket's start (ok false: none).
func oracleChainValues(c oChain, metric string, g metricdata.Granularity) (values map[int64]*big.Rat, first, newest int64, ok bool) {
	blocks, prev := c.counted()
	if len(blocks) == 0 {
		return nil, 0, 0, false
	}
	first, newest = g.Start(blocks[0].ts), g.Start(blocks[len(blocks)-1].ts)
	if c.from > 1 {
		first = g.Next(first)
	}
	values = map[int64]*big.Rat{}
	var cum oCumulative
	i := 0
	for p := g.Start(blocks[0].ts); p <= newest; p = g.Next(p) {
		j := i
		for j < len(blocks) && blocks[j].ts < g.Next(p) {
			cum.add(blocks[j])
			j++
		}
		prevTs := int64(0)
		if i < len(blocks) {
			prevTs = prev[i]
		}
		values[p] = oracleValue(metric, blocks[i:j], prevTs, cum)
		i = j
	}
	return values, first, newest, first <= newest
}

// oracleSeries is the expected series of metric over chains (one: that
// chain; several: their aggregate), newest first, within [start, end] when
// set (nil: unset).
func oracleSeries(chains []oChain, metric string, g metricdata.Granularity, start, end *int64) []oPoint {
	type chainValues struct {
		values        map[int64]*big.Rat
		first, newest int64
	}
	var cvs []chainValues
	lo, partialLo, hi := int64(1<<62), int64(-1<<62), int64(-1<<62)
	for _, c := range chains {
		values, first, newest, ok := oracleChainValues(c, metric, g)
		if !ok {
			if c.from > 1 {
				return nil // a partial chain with no complete bucket
			}
			continue
		}
		cvs = append(cvs, chainValues{values: values, first: first, newest: newest})
		lo, hi = min(lo, first), max(hi, newest)
		if c.from > 1 {
			partialLo = max(partialLo, first)
		}
	}
	lo = max(lo, partialLo)
	if start != nil {
		lo = max(lo, g.Start(*start))
	}
	if end != nil {
		hi = min(hi, g.Start(*end))
	}
	cumulative := slices.Contains([]string{"cumulativeTxCount", "cumulativeAddresses", "cumulativeContracts", "cumulativeDeployers"}, metric)
	var out []oPoint
	for p := hi; p >= lo; p = g.Previous(p) {
		var v *big.Rat
		gasPrice := false
		for _, cv := range cvs {
			cvv, in := cv.values[p]
			switch {
			case in:
			case cumulative && p > cv.newest:
				cvv = cv.values[cv.newest]
			default:
				cvv = new(big.Rat)
			}
			switch {
			case metric == "avgGasPrice" && len(cvs) > 1:
				gasPrice = true // Σ prices / Σ txs over the chains: recomputed below
			case v == nil:
				v = new(big.Rat).Set(cvv)
			case metric == "maxTps" || metric == "maxGps" || metric == "maxGasPrice":
				v = ratMax(v, cvv)
			default:
				v = new(big.Rat).Add(v, cvv)
			}
		}
		if gasPrice {
			v = aggregateGasPrice(chains, g, p)
		}
		if v == nil {
			v = new(big.Rat)
		}
		out = append(out, oPoint{ts: p, value: v})
	}
	return out
}

// aggregateGasPrice is Σ effectiveGasPrice / Σ txs over the chains' blocks
// of the bucket starting at p.
func aggregateGasPrice(chains []oChain, g metricdata.Granularity, p int64) *big.Rat {
	sum, txs := new(big.Int), int64(0)
	for _, c := range chains {
		blocks, _ := c.counted()
		for _, b := range blocks {
			if g.Start(b.ts) != p {
				continue
			}
			for _, tx := range b.txs {
				sum.Add(sum, tx.price)
				txs++
			}
		}
	}
	if txs == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(sum, big.NewInt(txs))
}
