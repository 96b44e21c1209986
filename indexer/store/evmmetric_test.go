package store

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/metricdata"
)

// metricChain is randomChain (txs, reverted ones, transfers of every kind
// with mints and burns, creations, factory ones included) with more
// senders, receipts' effective gas prices on some txs, and block times that
// start on Sunday 2024-03-31 20:10 UTC and cross hours, the day, the week
// (Sunday to Monday) and the month at once, then days and weeks more: some
// blocks share their second, some are hours or days apart.
func metricChain(seed uint64, n int) []*evmdata.Block {
	blocks := randomChain(seed, n)
	r := rand.New(rand.NewPCG(seed, 2))
	ts := time.Date(2024, 3, 31, 20, 10, 0, 0, time.UTC).Unix()
	gaps := []int64{0, 0, 1, 2, 7, 45, 300, 900, 1800, 3700, 3 * 3600}
	for i, b := range blocks {
		switch {
		case i == n/2:
			ts += 9 * 86400 // a gap of days: empty buckets between
		case i > 0:
			ts += gaps[r.IntN(len(gaps))]
		}
		b.Timestamp = uint64(ts)
		for j := range b.Txs {
			tx := &b.Txs[j]
			if r.IntN(3) == 0 { // a sender of its own among many
				from := common.BigToAddress(big.NewInt(int64(0x5e0000 + r.IntN(60))))
				tx.From = from
				for k := range tx.Creations {
					tx.Creations[k].Deployer = from
				}
			}
			if r.IntN(2) == 0 {
				tx.EffectiveGasPrice = big.NewInt(int64(20 + r.IntN(40)))
			}
		}
	}
	return blocks
}

// wantBucket is a bucket as the test recomputes it, in comparable form.
type wantBucket struct {
	Start                                                int64
	Blocks, Txs, GasUsed                                 uint64
	FeesPaid, GasPriceSum, MaxGasPrice                   string
	FirstBlockTs, LastBlockTs, PrevBlockTs               int64
	MaxTps, MaxGps                                       string
	ActiveAddresses, ActiveSenders, Deployers, Contracts uint64
	CumTxs, CumAddresses, CumContracts, CumDeployers     uint64
}

func gotBucket(b metricdata.ChainBucket) wantBucket {
	return wantBucket{Start: b.Start, Blocks: b.Blocks, Txs: b.Txs, GasUsed: b.GasUsed, FeesPaid: b.FeesPaid.String(),
		GasPriceSum: b.GasPriceSum.String(), MaxGasPrice: b.MaxGasPrice.String(), FirstBlockTs: b.FirstBlockTs,
		LastBlockTs: b.LastBlockTs, PrevBlockTs: b.PrevBlockTs, MaxTps: rateString(b.MaxTps.Count, b.MaxTps.Seconds),
		MaxGps: rateString(b.MaxGps.Count, b.MaxGps.Seconds), ActiveAddresses: b.ActiveAddresses,
		ActiveSenders: b.ActiveSenders, Deployers: b.Deployers, Contracts: b.Contracts, CumTxs: b.CumulativeTxs,
		CumAddresses: b.CumulativeAddresses, CumContracts: b.CumulativeContracts, CumDeployers: b.CumulativeDeployers}
}

func rateString(count, secs uint64) string {
	if secs == 0 {
		return "0"
	}
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(count), new(big.Int).SetUint64(secs)).RatString()
}

// bucketStartOf is the start of ts's bucket, computed here from the
// calendar rather than by metricdata.
func bucketStartOf(g metricdata.Granularity, ts int64) int64 {
	switch g {
	case metricdata.Hour:
		return ts - ts%3600
	case metricdata.Day:
		return ts - ts%86400
	case metricdata.Week:
		days := ts / 86400
		return (days - (days+3)%7) * 86400 // 1970-01-01 was a Thursday
	default:
		t := time.Unix(ts, 0).UTC()
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Unix()
	}
}

type metricAddrs map[common.Address]bool

func (s metricAddrs) add(a common.Address) {
	if a != (common.Address{}) {
		s[a] = true
	}
}

// blockRoles are the addresses of b in each role, as the metric
// definitions say.
func blockRoles(b *evmdata.Block) (active, senders, deployers metricAddrs, contracts uint64) {
	active, senders, deployers = metricAddrs{}, metricAddrs{}, metricAddrs{}
	for _, tx := range b.Txs {
		senders.add(tx.From)
		active.add(tx.From)
		if tx.To != nil {
			active.add(*tx.To)
		}
		for _, t := range tx.Transfers {
			active.add(t.From)
			active.add(t.To)
		}
		if tx.Status != 1 {
			continue
		}
		for _, c := range tx.Creations {
			contracts++
			if c.DeployerContract != (common.Address{}) {
				deployers.add(c.DeployerContract)
			} else {
				deployers.add(c.Deployer)
			}
		}
	}
	return active, senders, deployers, contracts
}

// wantBuckets recomputes every bucket of granularity g, newest first, of
// the blocks from index first on (the chain's first indexed block).
func wantBuckets(blocks []*evmdata.Block, first int, g metricdata.Granularity) []wantBucket {
	type acc struct {
		wantBucket
		fees, priceSum, maxPrice *big.Int
		maxTps, maxGps           *big.Rat
		active, senders, deps    metricAddrs
	}
	var out []*acc
	var cumTxs, cumContracts uint64
	everActive, everDeployers := metricAddrs{}, metricAddrs{}
	for i := first; i < len(blocks); i++ {
		b := blocks[i]
		ts := int64(b.Timestamp)
		start := bucketStartOf(g, ts)
		if len(out) == 0 || out[len(out)-1].Start != start {
			prev := ts
			if i > first {
				prev = int64(blocks[i-1].Timestamp)
			}
			out = append(out, &acc{wantBucket: wantBucket{Start: start, FirstBlockTs: ts, PrevBlockTs: prev},
				fees: new(big.Int), priceSum: new(big.Int), maxPrice: new(big.Int), maxTps: new(big.Rat), maxGps: new(big.Rat),
				active: metricAddrs{}, senders: metricAddrs{}, deps: metricAddrs{}})
		}
		a := out[len(out)-1]
		a.Blocks++
		a.LastBlockTs = ts
		var gas uint64
		for _, tx := range b.Txs {
			gas += tx.GasUsed
			price := tx.EffectiveGasPrice
			if price == nil {
				price = tx.GasPrice
			}
			if price == nil {
				price = new(big.Int)
			}
			a.fees.Add(a.fees, new(big.Int).Mul(new(big.Int).SetUint64(tx.GasUsed), price))
			a.priceSum.Add(a.priceSum, price)
			if price.Cmp(a.maxPrice) > 0 {
				a.maxPrice = price
			}
		}
		a.Txs += uint64(len(b.Txs))
		a.GasUsed += gas
		if i > first {
			secs := max(1, ts-int64(blocks[i-1].Timestamp))
			if r := big.NewRat(int64(len(b.Txs)), secs); r.Cmp(a.maxTps) > 0 {
				a.maxTps = r
			}
			if r := big.NewRat(int64(gas), secs); r.Cmp(a.maxGps) > 0 {
				a.maxGps = r
			}
		}
		active, senders, deps, contracts := blockRoles(b)
		for x := range active {
			a.active[x], everActive[x] = true, true
		}
		for x := range senders {
			a.senders[x] = true
		}
		for x := range deps {
			a.deps[x], everDeployers[x] = true, true
		}
		a.Contracts += contracts
		cumTxs += uint64(len(b.Txs))
		cumContracts += contracts
		a.CumTxs, a.CumContracts = cumTxs, cumContracts
		a.CumAddresses, a.CumDeployers = uint64(len(everActive)), uint64(len(everDeployers))
	}
	want := make([]wantBucket, len(out))
	for i, a := range out {
		w := a.wantBucket
		w.FeesPaid, w.GasPriceSum, w.MaxGasPrice = a.fees.String(), a.priceSum.String(), a.maxPrice.String()
		w.MaxTps, w.MaxGps = a.maxTps.RatString(), a.maxGps.RatString()
		w.ActiveAddresses, w.ActiveSenders, w.Deployers = uint64(len(a.active)), uint64(len(a.senders)), uint64(len(a.deps))
		want[len(out)-1-i] = w
	}
	return want
}

// wantActiveSince counts the addresses with role in the blocks (from index
// first on) at or after hour.
func wantActiveSince(blocks []*evmdata.Block, first int, role metricdata.Role, hour int64) uint64 {
	seen := metricAddrs{}
	for _, b := range blocks[first:] {
		if int64(b.Timestamp) < hour {
			continue
		}
		active, senders, deps, _ := blockRoles(b)
		set := map[metricdata.Role]metricAddrs{metricdata.Active: active, metricdata.Sender: senders, metricdata.Deployer: deps}[role]
		for x := range set {
			seen[x] = true
		}
	}
	return uint64(len(seen))
}

// checkMetrics requires s's metric rows of blocks (counted from index
// first on) to be what the test recomputes.
func checkMetrics(t *testing.T, s *Store, blocks []*evmdata.Block, first int) {
	t.Helper()
	ctx := context.Background()
	for _, g := range metricdata.Granularities() {
		got, err := s.ChainBuckets(ctx, evmChain, g, 0, math.MaxInt64, 100000)
		require.NoError(t, err)
		gotRows := make([]wantBucket, len(got))
		for i, b := range got {
			require.Equal(t, g, b.Granularity)
			gotRows[i] = gotBucket(b)
		}
		want := wantBuckets(blocks, first, g)
		if first == 0 {
			require.Greater(t, len(want), 1, "%s: the blocks cross buckets", g)
		}
		require.Equal(t, want, gotRows, "%s buckets", g)

		// A range and a limit pick the stored buckets in it, newest first.
		mid := want[len(want)/2].Start
		part, err := s.ChainBuckets(ctx, evmChain, g, mid, want[0].Start-1, 2)
		require.NoError(t, err)
		var wantPart []wantBucket
		for _, w := range want {
			if w.Start >= mid && w.Start <= want[0].Start-1 && len(wantPart) < 2 {
				wantPart = append(wantPart, w)
			}
		}
		var gotPart []wantBucket
		for _, b := range part {
			gotPart = append(gotPart, gotBucket(b))
		}
		require.Equal(t, wantPart, gotPart, "%s buckets in [%d, %d]", g, mid, want[0].Start-1)
	}
	hours := wantBuckets(blocks, first, metricdata.Hour)
	for _, role := range []metricdata.Role{metricdata.Active, metricdata.Sender, metricdata.Deployer} {
		for _, hour := range []int64{0, hours[len(hours)-1].Start, hours[len(hours)/3].Start, hours[len(hours)/2].Start,
			hours[1].Start, hours[0].Start, hours[0].Start + 3600} {
			n, err := s.ActiveSince(ctx, evmChain, role, hour)
			require.NoError(t, err)
			require.Equal(t, wantActiveSince(blocks, first, role, hour), n, "role %d since %d", role, hour)
		}
	}
	totals, err := s.ChainMetricTotals(ctx, evmChain)
	require.NoError(t, err)
	newest := hours[0]
	require.Equal(t, metricdata.ChainTotals{FirstHeight: blocks[first].Number, LastHeight: blocks[len(blocks)-1].Number, LastBlockTs: newest.LastBlockTs,
		Txs: newest.CumTxs, Addresses: newest.CumAddresses, Contracts: newest.CumContracts, Deployers: newest.CumDeployers}, totals)
}

// metricRows is the dump of s's metric rows.
func metricRows(t *testing.T, s *Store) []string {
	var out []string
	for _, row := range dumpAll(t, s) {
		if tag := row[:2]; tag >= "9b" && tag <= "9e" {
			out = append(out, row)
		}
	}
	return out
}

// The metric rows hold, at every granularity, the figures the test
// recomputes from the blocks, whether the blocks come in one commit or in
// several of different sizes, across a close and reopen (the cache cold),
// or with a last-activity cache of a few entries.
func TestEVMMetricRows(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_800_000_000, 0)
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			blocks := metricChain(seed, 160)

			one := openTest(t, t.TempDir())
			defer one.Close()
			require.NoError(t, one.EVMWriter(evmChain).Apply(ctx, blocks, now))
			checkMetrics(t, one, blocks, 0)
			want := metricRows(t, one)
			require.NotEmpty(t, want)

			dir := t.TempDir()
			split := openTest(t, dir)
			split.metricCaches.generation = 3 // evicts all the time
			at := 0
			for i, size := range []int{1, 7, 3, 50, 1, 2} {
				if i == 4 { // close and reopen: nothing cached
					require.NoError(t, split.Close())
					split = openTest(t, dir)
				}
				require.NoError(t, split.EVMWriter(evmChain).Apply(ctx, blocks[at:at+size], now))
				at += size
			}
			require.NoError(t, split.EVMWriter(evmChain).Apply(ctx, blocks[at:], now))
			defer split.Close()
			require.Equal(t, want, metricRows(t, split))
			checkMetrics(t, split, blocks, 0)
		})
	}
}

// A chain indexed from a later height counts from its first block, which
// has no predecessor: its buckets' previous time is their first block's.
func TestEVMMetricRowsFromLaterHeight(t *testing.T) {
	ctx := context.Background()
	blocks := metricChain(4, 120)
	s := openTest(t, t.TempDir())
	defer s.Close()
	w := s.EVMWriter(evmChain)
	require.NoError(t, w.Start(ctx, 30))
	require.NoError(t, w.Apply(ctx, blocks[29:], time.Now()))
	checkMetrics(t, s, blocks, 29)
}

// An index built before it kept the metric rows gets them from the block
// its writer resumes at, and says so: ChainMetricsFrom is that block, and
// the rows are those of an index that started there.
func TestChainMetricsFromIndexBuiltBefore(t *testing.T) {
	ctx := context.Background()
	blocks := metricChain(5, 120)
	s := openTest(t, t.TempDir())
	defer s.Close()
	w := s.EVMWriter(evmChain)
	require.NoError(t, w.Apply(ctx, blocks[:40], time.Now()))
	from, ok, err := s.ChainMetricsFrom(ctx, evmChain)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint64(1), from, "an index from genesis counts its metrics from genesis")

	// The index as a version without the metric rows left it.
	for _, tag := range []byte{tagEMetric, tagELast, tagELastH, tagEMTotals} {
		require.NoError(t, s.db.DropPrefix(newKey(tag, evmChain)))
	}
	s.metricCaches = metricCaches{}
	from, ok, err = s.ChainMetricsFrom(ctx, evmChain)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, blocks[40].Number, from, "before its writer carries on, none of the blocks held is counted")
	require.NoError(t, w.Apply(ctx, blocks[40:], time.Now()))
	from, ok, err = s.ChainMetricsFrom(ctx, evmChain)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, blocks[40].Number, from)
	totals, err := s.ChainMetricTotals(ctx, evmChain)
	require.NoError(t, err)
	var txs uint64
	for _, b := range blocks[40:] {
		txs += uint64(len(b.Txs))
	}
	require.Equal(t, txs, totals.Txs, "the running totals count from the block it resumed at")
	require.Equal(t, blocks[40].Number, totals.FirstHeight)
}

// A back-fill's re-derive recomputes the metric rows byte for byte as a
// build from genesis writes them, over blocks that cross every kind of
// bucket boundary.
func TestEVMMetricRowsBackfill(t *testing.T) {
	for seed := uint64(5); seed <= 7; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			backfillScenario(t, evmChain, metricChain(seed, 90), nil, nil)
		})
	}
}

// The zero address never counts, and a reverted tx counts its sender and
// recipient but deploys nothing.
func TestEVMMetricRowsRevertedAndZero(t *testing.T) {
	ctx := context.Background()
	var c chainBuilder
	created := common.HexToAddress("0xc0ffee")
	reverted := evmdata.Tx{From: alice, Status: 0, GasUsed: 30000, GasPrice: big.NewInt(7), ContractAddress: &created,
		Creations: []evmdata.ContractCreation{{Address: created, Deployer: alice}}}
	mint := transferTx(bob, token, nftMove(evmdata.Erc20, token, common.Address{}, carol, 0, 5, 0))
	b := c.block(reverted, mint)
	s := openTest(t, t.TempDir())
	defer s.Close()
	require.NoError(t, s.EVMWriter(evmChain).Apply(ctx, []*evmdata.Block{b}, time.Now()))
	got, err := s.ChainBuckets(ctx, evmChain, metricdata.Day, 0, math.MaxInt64, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, uint64(4), got[0].ActiveAddresses, "alice, bob, token, carol")
	require.Equal(t, uint64(2), got[0].ActiveSenders)
	require.Zero(t, got[0].Contracts)
	require.Zero(t, got[0].Deployers)
	require.Equal(t, "210000", got[0].FeesPaid.String())
	require.Equal(t, got[0].FirstBlockTs, got[0].PrevBlockTs, "the first block has no predecessor")
	require.Equal(t, metricdata.Rate{}, got[0].MaxTps)
	require.True(t, slices.Equal([]uint64{got[0].CumulativeTxs, got[0].CumulativeAddresses}, []uint64{2, 4}))
}
