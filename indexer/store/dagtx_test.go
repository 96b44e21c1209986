package store

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/txsig"
)

// dagScenario is an X-chain with a DAG era: a genesis asset, three vertices
// (the second holds a tx the first already holds, the third is the stop
// vertex), then two linear blocks, one of which spends a UTXO a vertex
// created that a second address co-owns without signing for it.
type dagScenario struct {
	fakeTxs
	genesis    *pdata.Block
	vertices   []*pdata.Vertex
	linear     []*pdata.Block
	asset      *pdata.Tx
	d1, d2     *pdata.Tx
	l1, l2     *pdata.Tx
	x1, m, c   pdata.UTXO
	o, q, p    pdata.UTXO
	fromVertex []pdata.TxVertex // d1's vertices
}

func newDAGScenario(t *testing.T) *dagScenario {
	sc := &dagScenario{fakeTxs: newFakeTxs('d')}
	sc.asset = sc.tx("asset", "CreateAssetTx", nil)
	sc.x1 = out(sc.asset.ID, 0, 2000, addrA)
	sc.asset.Produced = []pdata.UTXO{sc.x1}
	sc.asset.Asset = &pdata.Asset{ID: avax, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}
	sc.genesis = &pdata.Block{Number: 0, ID: ids.ID{'g', 'X'}, Timestamp: 900, Type: "StandardBlock",
		Txs: []*pdata.Tx{sc.asset}}

	sc.d1 = sc.tx("d1", "BaseTx", []pdata.Input{spend(sc.x1)})
	sc.m, sc.c = out(sc.d1.ID, 0, 700, addrA, addrB), out(sc.d1.ID, 1, 1299, addrA)
	sc.d1.Produced = []pdata.UTXO{sc.m, sc.c}
	sc.d2 = sc.tx("d2", "BaseTx", []pdata.Input{spend(sc.c)})
	sc.o = out(sc.d2.ID, 0, 1298, addrD)
	sc.d2.Produced = []pdata.UTXO{sc.o}

	v0 := buildVertex(t, 0, 0, nil, "d1")
	v1 := buildVertex(t, 1, 1, []ids.ID{v0.ID}, "d2", "d1 again")
	stop := buildVertex(t, 2, 2, []ids.ID{v1.ID})
	// The vertices hold the scenario's txs (buildVertex gives them IDs of
	// their own bytes).
	v0.TxIDs, v0.Txs = []ids.ID{sc.d1.ID}, []*pdata.Tx{sc.d1}
	v1.TxIDs, v1.Txs = []ids.ID{sc.d2.ID, sc.d1.ID}, []*pdata.Tx{sc.d2, sc.d1}
	v0.Timestamp, v1.Timestamp, stop.Timestamp = 1100, 1200, 1300
	sc.vertices = []*pdata.Vertex{v0, v1, stop}
	sc.fromVertex = []pdata.TxVertex{{ID: v0.ID, DAGHeight: 0, Timestamp: 1100}, {ID: v1.ID, DAGHeight: 1, Timestamp: 1200}}

	// m is A's and B's (one signature of either spends it); A signs.
	in := spend(sc.m)
	in.Signers = txsig.Known(addrA)
	sc.l1 = sc.tx("l1", "BaseTx", []pdata.Input{in})
	sc.q = out(sc.l1.ID, 0, 699, addrD)
	sc.l1.Produced = []pdata.UTXO{sc.q}
	sc.l2 = sc.tx("l2", "BaseTx", []pdata.Input{spend(sc.o)})
	sc.p = out(sc.l2.ID, 0, 1297, addrD)
	sc.l2.Produced = []pdata.UTXO{sc.p}
	sc.linear = []*pdata.Block{
		{Number: 1, ID: ids.ID{'X', 1}, ParentID: ids.ID{'g', 'X'}, Timestamp: 1500, Type: "StandardBlock", Txs: []*pdata.Tx{sc.l1}},
		{Number: 2, ID: ids.ID{'X', 2}, ParentID: ids.ID{'X', 1}, Timestamp: 1600, Type: "StandardBlock", Txs: []*pdata.Tx{sc.l2}},
	}
	return sc
}

// dagWrite is one write of the scenario: vertices or linear blocks.
type dagWrite struct {
	vertices []*pdata.Vertex
	blocks   []*pdata.Block
}

// writeDAGScenario writes the scenario in the given order into a store in
// dir, closing and reopening it between writes (a restart each time), and
// returns it open.
func writeDAGScenario(t *testing.T, sc *dagScenario, dir string, order []dagWrite) *Store {
	t.Helper()
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0)
	var s *Store
	for i, w := range order {
		if s != nil {
			require.NoError(t, s.Close())
		}
		var err error
		s, err = Open(dir, logging.NoLog{})
		require.NoError(t, err)
		s.SetPrimaryNetwork(testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.X: sc.genesis}))
		if w.vertices != nil {
			require.NoError(t, s.VertexWriter().Apply(ctx, w.vertices, now), "write %d", i)
		}
		if w.blocks != nil {
			require.NoError(t, s.PrimaryWriter(netinfo.X).Apply(ctx, w.blocks, now), "write %d", i)
		}
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// dumpStore reads every row of s but the meta rows.
func dumpStore(t *testing.T, s *Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			k := it.Item().KeyCopy(nil)
			if k[0] == tagMeta {
				continue
			}
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			out[string(k)] = string(v)
		}
		return nil
	}))
	return out
}

// The DAG-first, linear-first and interleaved write orders (with restarts
// between writes) end in the same index, row for row.
func TestDAGTxsWriteOrder(t *testing.T) {
	sc := newDAGScenario(t)
	vs, bs := sc.vertices, sc.linear
	dagFirst := writeDAGScenario(t, sc, t.TempDir(), []dagWrite{{vertices: vs}, {blocks: bs}})
	want := dumpStore(t, dagFirst)
	for name, order := range map[string][]dagWrite{
		"linear first": {{blocks: bs}, {vertices: vs}},
		"interleaved":  {{vertices: vs[:1]}, {blocks: bs[:1]}, {vertices: vs[1:2]}, {blocks: bs[1:]}, {vertices: vs[2:]}},
		"one by one":   {{vertices: vs[:1]}, {vertices: vs[1:2]}, {vertices: vs[2:]}, {blocks: bs}},
	} {
		got := dumpStore(t, writeDAGScenario(t, sc, t.TempDir(), order))
		require.Equal(t, len(want), len(got), name)
		require.Equal(t, want, got, name)
	}
}

func TestDAGTxsListedBeforeLinearTxs(t *testing.T) {
	require := require.New(t)
	sc := newDAGScenario(t)
	s := writeDAGScenario(t, sc, t.TempDir(), []dagWrite{{blocks: sc.linear}, {vertices: sc.vertices}})
	r := s.PrimaryReader(sc.decode)
	ctx := context.Background()
	list := func(q pdata.TxQuery) []ids.ID {
		txs, err := r.Txs(ctx, netinfo.X, q)
		require.NoError(err)
		return txIDs(txs)
	}
	all := []ids.ID{sc.asset.ID, sc.d1.ID, sc.d2.ID, sc.l1.ID, sc.l2.ID}
	require.Equal(all, list(pdata.TxQuery{}), "genesis, the DAG in acceptance order, then the linear blocks")
	require.Equal([]ids.ID{sc.l2.ID, sc.l1.ID, sc.d2.ID, sc.d1.ID, sc.asset.ID}, list(pdata.TxQuery{Desc: true}))
	// B co-owns m without signing its spend: l1 is B's all the same.
	require.Equal([]ids.ID{sc.d1.ID, sc.l1.ID}, list(pdata.TxQuery{Addresses: []ids.ShortID{addrB}}))
	require.Equal([]ids.ID{sc.l2.ID, sc.l1.ID, sc.d2.ID}, list(pdata.TxQuery{Addresses: []ids.ShortID{addrD}, Desc: true}))
	// Paging through the DAG: positions continue across it.
	first := mustTxs(t, r, pdata.TxQuery{Addresses: []ids.ShortID{addrA, addrD}, Limit: 2})
	require.Equal([]ids.ID{sc.asset.ID, sc.d1.ID}, txIDs(first))
	require.Equal([]ids.ID{sc.d2.ID, sc.l1.ID, sc.l2.ID},
		list(pdata.TxQuery{Addresses: []ids.ShortID{addrA, addrD}, After: &first[1].Pos}))
	require.Equal([]ids.ID{sc.d2.ID, sc.d1.ID, sc.asset.ID},
		list(pdata.TxQuery{Addresses: []ids.ShortID{addrA}, Desc: true, After: &pdata.TxPos{Height: 1}}))

	// A time range whose heights start above the DAG still reaches the DAG
	// txs of its times (a node that bootstrapped the DAG stamps vertices
	// later than the first linear blocks).
	from, to := int64(1200), int64(1600)
	require.Equal([]ids.ID{sc.d2.ID, sc.l2.ID}, list(pdata.TxQuery{FromHeight: 2, FromTime: &from, ToTime: &to}))
	require.Equal([]ids.ID{sc.l2.ID, sc.d2.ID}, list(pdata.TxQuery{FromHeight: 2, FromTime: &from, Desc: true}))
	require.Equal([]ids.ID{sc.d2.ID, sc.l1.ID}, list(pdata.TxQuery{FromTime: &from, ToTime: ptr(int64(1500))}))

	txs := mustTxs(t, r, pdata.TxQuery{Addresses: []ids.ShortID{addrB}})
	d1, l1 := txs[0], txs[1]
	require.Equal(pdata.TxPos{Height: 0, Index: dagTxIndexBase}, d1.Pos)
	require.Equal(sc.vertices[0].ID, d1.BlockID, "the first vertex that holds it")
	require.Equal(int64(1100), d1.BlockTime)
	require.Equal(sc.fromVertex, d1.Vertices)
	require.Nil(l1.Vertices, "a linear tx has no vertices")
	require.Equal(pdata.TxPos{Height: 1}, l1.Pos)
	m := l1.Consumed[0]
	require.Equal(sc.m, m.UTXO)
	require.Equal(netinfo.X, m.CreatedOn)
	require.Equal(sc.d1.ID, m.CreatingTx)
	require.Equal(int64(1100), m.CreatedTime)
	require.Equal(sc.l1.ID, m.ConsumingTx)
	require.Equal(int64(1500), m.ConsumingTime)
	d2 := mustTxs(t, r, pdata.TxQuery{Addresses: []ids.ShortID{addrD}, Limit: 1})[0]
	require.Equal(pdata.TxPos{Height: 0, Index: dagTxIndexBase + 1}, d2.Pos, "a tx held twice takes one position")

	g, ok, err := r.Block(ctx, netinfo.X, 0)
	require.NoError(err)
	require.True(ok)
	require.Equal([]ids.ID{sc.asset.ID}, g.TxIDs, "the genesis block holds the genesis txs, not the DAG's")
	vertices, err := s.LatestVertices(ctx, nil, 0)
	require.NoError(err)
	require.Len(vertices, 3, "the vertex endpoints still list every vertex")
	require.Equal(sc.vertices[1].TxIDs, vertices[1].TxIDs)
}

func TestDAGTxsBalances(t *testing.T) {
	sc := newDAGScenario(t)
	s := writeDAGScenario(t, sc, t.TempDir(), []dagWrite{{blocks: sc.linear[:1]}, {vertices: sc.vertices}, {blocks: sc.linear[1:]}})
	r := s.PrimaryReader(nil)
	entry := func(amount uint64, n int) pdata.BalanceEntry {
		return pdata.BalanceEntry{Category: pdata.UnlockedUnstaked, Asset: avax, Amount: amount, UTXOs: n}
	}
	abd := []ids.ShortID{addrA, addrB, addrD}
	for _, tc := range []struct {
		addrs []ids.ShortID
		at    int64
		want  []pdata.BalanceEntry
	}{
		{abd, 899, []pdata.BalanceEntry{}},
		{abd, 1000, []pdata.BalanceEntry{entry(2000, 1)}},                 // x1
		{abd, 1100, []pdata.BalanceEntry{entry(1999, 2)}},                 // m, c
		{abd, 1250, []pdata.BalanceEntry{entry(1998, 2)}},                 // m, o
		{abd, 1500, []pdata.BalanceEntry{entry(1997, 2)}},                 // o, q: m spent in linear block 1
		{abd, 1600, []pdata.BalanceEntry{entry(1996, 2)}},                 // q, p
		{[]ids.ShortID{addrB}, 1499, []pdata.BalanceEntry{entry(700, 1)}}, // m, co-owned
		{[]ids.ShortID{addrB}, 1500, []pdata.BalanceEntry{}},
	} {
		got, err := r.Balances(context.Background(), netinfo.X, tc.addrs, tc.at)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "balances at %d", tc.at)
	}
}

// A vertex whose decoded txs do not match its tx IDs is refused, and
// nothing of its batch is written.
func TestDAGTxsMismatchRefused(t *testing.T) {
	sc := newDAGScenario(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	bad := *sc.vertices[1]
	bad.Txs = bad.Txs[:1]
	err := s.VertexWriter().Apply(context.Background(), []*pdata.Vertex{sc.vertices[0], &bad}, time.Now())
	require.ErrorContains(t, err, "1 decoded txs for 2 tx IDs")
	c, err := s.VertexWriter().Cursor(context.Background())
	require.NoError(t, err)
	require.Equal(t, uint64(1), c.NextHeight)
}

func mustTxs(t *testing.T, r *PrimaryReader, q pdata.TxQuery) []pdata.IndexedTx {
	t.Helper()
	txs, err := r.Txs(context.Background(), netinfo.X, q)
	require.NoError(t, err)
	return txs
}
