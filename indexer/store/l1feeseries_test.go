package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/vms/platformvm/validators/fee"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The fee config of the series tests: with fewer active validators than
// the target the excess stays 0, so a second costs MinPrice, which lets
// the test's model charge balances directly.
const l1TestPrice = 3

var l1TestConfig = fee.Config{Capacity: 200, Target: 100, MinPrice: l1TestPrice, ExcessConversionConstant: 1_000_000}

const l1Day0 = 10 * 86400

type l1Sim struct {
	bal     map[ids.ID]uint64
	active  map[ids.ID]bool
	dep     map[ids.ID]uint64 // deposited
	ref     map[ids.ID]uint64 // refunded
	charged map[ids.ID]map[int64]uint64
	created map[ids.ID]int64
	subnet  map[ids.ID]ids.ID
	node    map[ids.ID]ids.NodeID
	last    int64
}

func newL1Sim(genesis int64) *l1Sim {
	return &l1Sim{
		bal: map[ids.ID]uint64{}, active: map[ids.ID]bool{}, dep: map[ids.ID]uint64{}, ref: map[ids.ID]uint64{},
		charged: map[ids.ID]map[int64]uint64{}, created: map[ids.ID]int64{}, subnet: map[ids.ID]ids.ID{},
		node: map[ids.ID]ids.NodeID{}, last: genesis,
	}
}

func (m *l1Sim) charge(id ids.ID, day int64, amount uint64) {
	if m.charged[id] == nil {
		m.charged[id] = map[int64]uint64{}
	}
	m.charged[id][day] += amount
	m.bal[id] -= amount
	if m.bal[id] == 0 {
		m.active[id] = false
	}
}

// block applies one P block the way platformvm charges balances: the
// elapsed seconds at the advance (a balance that cannot pay them all pays
// what it has), the txs, then whoever cannot pay one more second pays
// what it has left and goes inactive.
func (m *l1Sim) block(ts int64, txs []*pdata.Tx) {
	day := l1FeeDay(ts)
	cost := uint64(ts-m.last) * l1TestPrice
	m.last = ts
	for id, on := range m.active {
		if on {
			m.charge(id, day, min(cost, m.bal[id]))
		}
	}
	for _, tx := range txs {
		for _, v := range tx.L1Validators {
			id := v.ValidationID
			switch tx.Type {
			case "RegisterL1ValidatorTx", "ConvertSubnetToL1Tx":
				m.created[id], m.subnet[id], m.node[id] = day, v.Subnet, v.NodeID
				m.bal[id], m.dep[id], m.active[id] = v.Balance, v.Balance, v.Balance > 0
			case "IncreaseL1ValidatorBalanceTx":
				m.bal[id] += v.BalanceChange
				m.dep[id] += v.BalanceChange
				m.active[id] = true
			case "DisableL1ValidatorTx", "SetL1ValidatorWeightTx":
				m.ref[id] += m.bal[id]
				m.bal[id], m.active[id] = 0, false
			}
		}
	}
	for id, on := range m.active {
		if on && m.bal[id] < l1TestPrice {
			m.charge(id, day, m.bal[id])
		}
	}
}

// series is what the model says a query answers.
func (m *l1Sim) series(pick func(ids.ID) bool, from, to int64) []metricdata.L1FeeDay {
	first := int64(-1)
	for id, d := range m.created {
		if pick(id) && (first < 0 || d < first) {
			first = d
		}
	}
	if first < 0 {
		return nil
	}
	var cum uint64
	var out []metricdata.L1FeeDay
	for day := first; day <= l1FeeDay(m.last); day += 86400 {
		p := metricdata.L1FeeDay{Start: day}
		for id := range m.created {
			if c := m.charged[id][day]; pick(id) && c > 0 {
				p.Fees += c
				p.Paying++
			}
		}
		cum += p.Fees
		p.Cumulative = cum
		if day >= l1FeeDay(from) && day <= l1FeeDay(to) {
			out = append(out, p)
		}
	}
	slices.Reverse(out)
	return out
}

func l1Tx(n byte, typ string, vals ...pdata.L1Validator) *pdata.Tx {
	id := ids.ID{'L', n}
	return &pdata.Tx{ID: id, Type: typ, Bytes: id[:], L1Validators: vals}
}

func openL1Store(t testing.TB) (*Store, *fixture) {
	f := newFixture()
	s := openFixture(t, f)
	net := testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: f.gP, netinfo.X: f.gX})
	net.GenesisTime = l1Day0 + 100
	net.L1Fees = &L1FeeRules{Config: l1TestConfig, Upgrades: upgrade.Config{EtnaTime: time.Unix(0, 0)}, GenesisTime: l1Day0 + 100}
	s.SetPrimaryNetwork(net)
	return s, f
}

// The series over five days against the model: a sweep of the validations
// active at a day's first block, a reactivation counted later that day, a
// validation whose tiny balance is charged at once, one that runs out at
// an advance, a disable's and a removal's refund, a day without blocks;
// every block in its own commit for the first days, the rest in one.
func TestL1FeeSeriesAgainstModel(t *testing.T) {
	s, f := openL1Store(t)
	const d0, d1, d2, d4 = l1Day0, l1Day0 + 86400, l1Day0 + 2*86400, l1Day0 + 4*86400
	s1, s2 := ids.ID{'s', 1}, ids.ID{'s', 2}
	n1, n2, n3 := ids.NodeID{1}, ids.NodeID{2}, ids.NodeID{3}
	v1, v2, v3, v4 := ids.ID{'v', 1}, ids.ID{'v', 2}, ids.ID{'v', 3}, ids.ID{'v', 4}
	type blk struct {
		ts  int64
		txs []*pdata.Tx
	}
	blocks := []blk{
		{d0 + 1000, []*pdata.Tx{
			l1Tx(1, "ConvertSubnetToL1Tx",
				pdata.L1Validator{ValidationID: v1, NodeID: n1, Subnet: s1, Weight: 1, Balance: 600_000},
				pdata.L1Validator{ValidationID: v2, NodeID: n2, Subnet: s1, Weight: 1}),
			l1Tx(2, "RegisterL1ValidatorTx", pdata.L1Validator{ValidationID: v4, NodeID: n3, Subnet: s2, Weight: 1, Balance: 2_000_000}),
		}},
		{d0 + 50_000, []*pdata.Tx{{ID: ids.ID{'S', 1}, Type: "AddPermissionlessValidatorTx", Bytes: []byte{'S', 1},
			Staker: &pdata.Staker{NodeID: ids.NodeID{7}, Start: d0 + 50_000, End: d4, Weight: 1}}}},
		{d1 + 10, []*pdata.Tx{l1Tx(3, "IncreaseL1ValidatorBalanceTx", pdata.L1Validator{ValidationID: v2, BalanceChange: 60_000})}},
		{d1 + 5000, []*pdata.Tx{l1Tx(4, "RegisterL1ValidatorTx", pdata.L1Validator{ValidationID: v3, NodeID: n1, Subnet: s2, Weight: 1, Balance: 2})}},
		{d1 + 6000, []*pdata.Tx{l1Tx(5, "DisableL1ValidatorTx", pdata.L1Validator{ValidationID: v2})}},
		{d1 + 80_000, nil},
		{d2 + 20_000, nil},
		{d2 + 40_000, nil}, // v1 runs out at d2+28200
		{d2 + 40_001, []*pdata.Tx{l1Tx(6, "IncreaseL1ValidatorBalanceTx", pdata.L1Validator{ValidationID: v1, BalanceChange: 30})}},
		{d2 + 40_005, nil},
		// Day 3 has no block.
		{d4 + 100, []*pdata.Tx{l1Tx(7, "SetL1ValidatorWeightTx", pdata.L1Validator{ValidationID: v4, Weight: 0})}},
		{d4 + 200, nil},
	}
	m := newL1Sim(l1Day0 + 100)
	var pblocks []*pdata.Block
	for i, b := range blocks {
		m.block(b.ts, b.txs)
		pblocks = append(pblocks, &pdata.Block{Number: uint64(i + 1), ID: ids.ID{'B', byte(i + 1)}, Timestamp: b.ts,
			Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: b.txs})
	}
	for _, b := range pblocks[:6] {
		writeP(t, s, []*pdata.Block{b})
	}
	writeP(t, s, pblocks[6:])
	// The rows do not depend on how the blocks were batched into commits.
	batched, _ := openL1Store(t)
	writeP(t, batched, pblocks)
	require.Equal(t, l1SeriesRows(t, s), l1SeriesRows(t, batched))

	ctx := context.Background()
	check := func(q metricdata.L1FeeQuery, pick func(ids.ID) bool) {
		t.Helper()
		got, err := s.L1FeeSeries(ctx, q)
		require.NoError(t, err)
		require.True(t, got.Found)
		require.True(t, got.Known)
		require.Equal(t, m.series(pick, q.From, q.To), got.Days, "query %+v", q)
	}
	all := func(ids.ID) bool { return true }
	for _, r := range [][2]int64{{0, 1 << 40}, {d1 + 5, d2}, {d2 + 86399, d2 + 86400}, {d4, d4 + 1}, {0, d0}} {
		check(metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal, From: r[0], To: r[1]}, all)
		for _, v := range []ids.ID{v1, v2, v3, v4} {
			check(metricdata.L1FeeQuery{Scope: metricdata.L1FeeValidation, Validation: v, From: r[0], To: r[1]},
				func(id ids.ID) bool { return id == v })
		}
		for _, sub := range []ids.ID{s1, s2} {
			check(metricdata.L1FeeQuery{Scope: metricdata.L1FeeSubnet, Subnet: sub, From: r[0], To: r[1]},
				func(id ids.ID) bool { return m.subnet[id] == sub })
		}
		for _, n := range []ids.NodeID{n1, n2, n3} {
			check(metricdata.L1FeeQuery{Scope: metricdata.L1FeeNode, Node: n, From: r[0], To: r[1]},
				func(id ids.ID) bool { return m.node[id] == n })
		}
	}

	// The model's shape: every kind of charge happened.
	total, err := s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal, To: 1 << 40})
	require.NoError(t, err)
	require.Len(t, total.Days, 5)
	require.Equal(t, []uint64{2, 0, 2, 4, 2}, []uint64{total.Days[0].Paying, total.Days[1].Paying, total.Days[2].Paying,
		total.Days[3].Paying, total.Days[4].Paying}, "day 4 v1's last 18 and v4 until removed, day 3 none, day 2 v1 and v4, day 1 v1 v2 v3 v4, day 0 v1 and v4")
	require.Equal(t, uint64(2), m.charged[v3][d1], "v3's balance charged as it could not pay a second")

	// The ground truth the e2e test uses: deposits - refunds - balance.
	set, err := s.PrimaryReader(f.decode).L1Validations(ctx, pdata.L1ValidationQuery{})
	require.NoError(t, err)
	for _, v := range set.Validations {
		got, err := s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeValidation, Validation: v.ValidationID, To: 1 << 40})
		require.NoError(t, err)
		require.Equal(t, m.dep[v.ValidationID]-m.ref[v.ValidationID]-v.Balance, got.Days[0].Cumulative, "validation %s", v.ValidationID)
		require.Equal(t, m.bal[v.ValidationID], v.Balance)
	}

	// Unknown subjects.
	got, err := s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeValidation, Validation: ids.ID{'?'}, To: 1 << 40})
	require.NoError(t, err)
	require.False(t, got.Found)
	got, err = s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeNode, Node: ids.NodeID{9}, To: 1 << 40})
	require.NoError(t, err)
	require.False(t, got.Found)
	got, err = s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeSubnet, Subnet: ids.ID{'?'}, To: 1 << 40})
	require.NoError(t, err)
	require.False(t, got.Found)
	// A staker without L1 validations: known, nothing to chart.
	got, err = s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeNode, Node: ids.NodeID{7}, To: 1 << 40})
	require.NoError(t, err)
	require.Equal(t, metricdata.L1FeeSeries{Found: true, Known: true}, got)
}

// Before any L1 validation the total is empty; a store that holds
// validations written before the rows existed says the series is unknown.
func TestL1FeeSeriesUnknownOnOlderStore(t *testing.T) {
	s, _ := openL1Store(t)
	ctx := context.Background()
	writeP(t, s, []*pdata.Block{{Number: 1, ID: ids.ID{'B', 1}, Timestamp: l1Day0 + 500, Type: "BanffStandardBlock", AdvancesTime: true}})
	got, err := s.L1FeeSeries(ctx, metricdata.L1FeeQuery{Scope: metricdata.L1FeeTotal, To: 1 << 40})
	require.NoError(t, err)
	require.Equal(t, metricdata.L1FeeSeries{Found: true, Known: true}, got)

	v := ids.ID{'v'}
	writeP(t, s, []*pdata.Block{{Number: 2, ID: ids.ID{'B', 2}, Timestamp: l1Day0 + 600, Type: "BanffStandardBlock", AdvancesTime: true,
		Txs: []*pdata.Tx{l1Tx(1, "RegisterL1ValidatorTx", pdata.L1Validator{ValidationID: v, NodeID: ids.NodeID{1}, Subnet: ids.ID{'s'}, Balance: 1000})}}})
	// Drop the series' rows as a store written before them lacks them.
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		for _, tag := range []byte{tagL1FeeDay, tagL1FeeVal, tagL1FeeBy} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{tag}})
			var keys [][]byte
			for it.Rewind(); it.Valid(); it.Next() {
				keys = append(keys, it.Item().KeyCopy(nil))
			}
			it.Close()
			for _, k := range keys {
				if err := txn.Delete(k); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	writeP(t, s, []*pdata.Block{{Number: 3, ID: ids.ID{'B', 3}, Timestamp: l1Day0 + 700, Type: "BanffStandardBlock", AdvancesTime: true,
		Txs: []*pdata.Tx{l1Tx(2, "RegisterL1ValidatorTx", pdata.L1Validator{ValidationID: ids.ID{'w'}, NodeID: ids.NodeID{1}, Subnet: ids.ID{'s'}, Balance: 1000})}}})
	for _, q := range []metricdata.L1FeeQuery{
		{Scope: metricdata.L1FeeTotal, To: 1 << 40},
		{Scope: metricdata.L1FeeValidation, Validation: v, To: 1 << 40},
		{Scope: metricdata.L1FeeNode, Node: ids.NodeID{1}, To: 1 << 40},
	} {
		got, err := s.L1FeeSeries(ctx, q)
		require.NoError(t, err)
		require.True(t, got.Found, "%+v", q)
		require.False(t, got.Known, "%+v", q)
	}
}

// l1SeriesRows are the store's fee series rows (0x3D-0x3F).
func l1SeriesRows(t *testing.T, s *Store) map[string]string {
	t.Helper()
	rows := map[string]string{}
	require.NoError(t, s.db.View(func(txn *badger.Txn) error {
		for _, tag := range []byte{tagL1FeeDay, tagL1FeeVal, tagL1FeeBy} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{tag}})
			for it.Rewind(); it.Valid(); it.Next() {
				v, err := it.Item().ValueCopy(nil)
				if err != nil {
					it.Close()
					return err
				}
				rows[string(it.Item().Key())] = string(v)
			}
			it.Close()
		}
		return nil
	}))
	require.NotEmpty(t, rows)
	return rows
}
