package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// writeExportFirst indexes X (the exports) before P and C import them.
func writeExportFirst(t *testing.T, f *fixture) *Store {
	s := openFixture(t, f)
	first, second := f.pBlocks()
	writeX(t, s, f)
	writeP(t, s, first)
	writeP(t, s, second)
	writeC(t, s, f)
	return s
}

// writeImportFirst indexes P and C (the imports) before the X exports.
func writeImportFirst(t *testing.T, f *fixture) *Store {
	s := openFixture(t, f)
	first, second := f.pBlocks()
	writeP(t, s, first)
	writeP(t, s, second)
	writeC(t, s, f)
	writeX(t, s, f)
	return s
}

func txIDs(txs []pdata.IndexedTx) []ids.ID {
	out := make([]ids.ID, len(txs))
	for i, tx := range txs {
		out[i] = tx.Tx.ID
	}
	return out
}

func TestPrimaryTxListings(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := writeExportFirst(t, f)
	r := s.PrimaryReader(f.decode)
	ctx := context.Background()
	list := func(chain netinfo.Chain, q pdata.TxQuery) []ids.ID {
		txs, err := r.Txs(ctx, chain, q)
		require.NoError(err)
		return txIDs(txs)
	}
	all := []ids.ID{f.t1.ID, f.t2.ID, f.t3.ID, f.t4.ID, f.t5.ID}
	require.Equal(all, list(netinfo.P, pdata.TxQuery{}), "the genesis pseudo tx is not listed")
	require.Equal([]ids.ID{f.t5.ID, f.t4.ID, f.t3.ID, f.t2.ID, f.t1.ID}, list(netinfo.P, pdata.TxQuery{Desc: true}))
	require.Equal(all, list(netinfo.P, pdata.TxQuery{Addresses: []ids.ShortID{addrA}}))
	// B: t1 (output p1) and t5 (spends p1, co-owns p6); D: t5 (p5): t5 once.
	require.Equal([]ids.ID{f.t1.ID, f.t5.ID}, list(netinfo.P, pdata.TxQuery{Addresses: []ids.ShortID{addrB, addrD}}))
	require.Equal([]ids.ID{f.t5.ID, f.t1.ID}, list(netinfo.P, pdata.TxQuery{Addresses: []ids.ShortID{addrD, addrB}, Desc: true}))
	require.Equal([]ids.ID{f.t3.ID, f.t4.ID, f.t5.ID},
		list(netinfo.P, pdata.TxQuery{Addresses: []ids.ShortID{addrA, addrB}, After: &pdata.TxPos{Height: 2}}))
	require.Equal([]ids.ID{f.t3.ID, f.t2.ID, f.t1.ID},
		list(netinfo.P, pdata.TxQuery{Addresses: []ids.ShortID{addrA, addrB}, After: &pdata.TxPos{Height: 4}, Desc: true}))
	require.Equal([]ids.ID{f.t2.ID, f.t3.ID}, list(netinfo.P, pdata.TxQuery{Types: []string{"AddValidatorTx", "ImportTx"}}))
	require.Equal([]ids.ID{f.t2.ID, f.t3.ID}, list(netinfo.P, pdata.TxQuery{FromHeight: 2, ToHeight: 4}))
	require.Equal([]ids.ID{f.t3.ID, f.t2.ID}, list(netinfo.P, pdata.TxQuery{FromHeight: 2, ToHeight: 4, Desc: true}))
	require.Equal([]ids.ID{f.t1.ID, f.t2.ID}, list(netinfo.P, pdata.TxQuery{Addresses: []ids.ShortID{addrA}, Limit: 2}))
	// t1 holds 3 UTXOs, t2 4, t3 3: a page stops before passing MaxUTXOs,
	// but always holds one tx.
	require.Equal([]ids.ID{f.t1.ID}, list(netinfo.P, pdata.TxQuery{MaxUTXOs: 5}))
	require.Equal([]ids.ID{f.t1.ID, f.t2.ID}, list(netinfo.P, pdata.TxQuery{MaxUTXOs: 7}))
	require.Equal([]ids.ID{f.t1.ID}, list(netinfo.P, pdata.TxQuery{MaxUTXOs: 1}))

	require.Equal([]ids.ID{f.asset.ID, f.e1.ID}, list(netinfo.X, pdata.TxQuery{}), "X genesis txs are listed")
	require.Equal([]ids.ID{f.c1.ID, f.c2.ID}, list(netinfo.C, pdata.TxQuery{Addresses: []ids.ShortID{ids.ShortID(evmE)}}))
	require.Equal([]ids.ID{f.c2.ID, f.c1.ID}, list(netinfo.C, pdata.TxQuery{Addresses: []ids.ShortID{addrA}, Desc: true}))
	require.Empty(list(netinfo.C, pdata.TxQuery{Addresses: []ids.ShortID{addrB}}))
}

func TestPrimaryTxContent(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := writeExportFirst(t, f)
	txs, err := s.PrimaryReader(f.decode).Txs(context.Background(), netinfo.P, pdata.TxQuery{})
	require.NoError(err)
	require.Len(txs, 5)
	t1, t2, t3, t4 := txs[0], txs[1], txs[2], txs[3]

	// Apricot blocks take the chain time: genesis time, then the time
	// block 2's AdvanceTimeTx set (in a later Apply).
	require.Equal(int64(genesisTime), t1.BlockTime)
	require.Equal(int64(genesisTime), t2.BlockTime)
	require.Equal(int64(2000), t3.BlockTime)
	require.Equal(pdata.TxPos{Height: 3}, t3.Pos)
	require.Equal(ids.ID{'P', 3}, t3.BlockID)

	g1 := t1.Consumed[0]
	require.Equal(f.g1, g1.UTXO)
	require.Equal(netinfo.P, g1.CreatedOn)
	require.Equal(ids.Empty, g1.CreatingTx)
	require.Equal(uint64(0), g1.CreatedHeight)
	require.Equal(int64(genesisTime), g1.CreatedTime)
	require.Equal(f.t1.ID, g1.ConsumingTx)
	require.Equal(int64(genesisTime), g1.ConsumingTime)
	require.True(t1.Produced[0].Spent(), "p1 is spent by t5")
	require.Equal(f.t5.ID, t1.Produced[0].ConsumingTx)
	require.Equal(uint64(5), t1.Produced[0].ConsumingHeight)

	s1 := t2.Produced[1]
	require.Equal(pdata.KindStake, s1.Kind)
	require.Equal(int64(10000), s1.UnstakedTime)
	require.False(s1.Spent())

	ex1 := t3.Consumed[0]
	require.Equal(netinfo.X, ex1.CreatedOn)
	require.Equal(f.e1.ID, ex1.CreatingTx)
	require.Equal(int64(1500), ex1.CreatedTime)
	require.True(ex1.Exported)
	require.Equal(netinfo.P, ex1.ConsumedOn)
	require.Equal(int64(2000), ex1.ConsumingTime)
	// A UTXO of a chain the index never saw: built from the input.
	unknown := t3.Consumed[1]
	require.Equal(f.unknown.ID, unknown.ID)
	require.Equal(uint64(7), unknown.Amount)
	require.Equal([]ids.ShortID{addrA}, unknown.Owners.Addrs)
	require.Equal(netinfo.X, unknown.CreatedOn)
	require.Equal(f.t3.ID, unknown.ConsumingTx)

	require.Equal(pdata.OutcomeCommit, t4.Tx.Outcome)
	require.Equal([]ids.ID{f.s1.ID, f.s2.ID}, t4.Tx.Unstaked)
	require.Len(t4.Produced, 1)
	r1 := t4.Produced[0]
	require.Equal(pdata.KindReward, r1.Kind)
	require.Equal(f.t2.ID, r1.TxID)
	require.Equal(f.t4.ID, r1.CreatingTx)
	require.Equal([]pdata.UTXO{r1.UTXO}, t4.Tx.Produced)

	c, err := s.Cursor(context.Background(), netinfo.P, StreamBlocks)
	require.NoError(err)
	require.Equal(int64(12000), c.LastBlockTs)
	buckets, err := s.TPSBuckets(context.Background(), netinfo.P, 0, 1)
	require.NoError(err)
	require.Equal([]TPSBucket{{Start: 0, TxCount: 5, BlockCount: 5, FirstBlockTs: genesisTime, LastBlockTs: 12000}}, buckets,
		"resolved times are counted; the genesis block is not")
}

func TestPrimaryBalances(t *testing.T) {
	f := newFixture()
	s := writeExportFirst(t, f)
	r := s.PrimaryReader(f.decode)
	abd := []ids.ShortID{addrA, addrB, addrD}
	entry := func(c pdata.BalanceCategory, amount uint64, n int) pdata.BalanceEntry {
		return pdata.BalanceEntry{Category: c, Asset: avax, Amount: amount, UTXOs: n}
	}
	atomic := func(c pdata.BalanceCategory, amount uint64, from ids.ID) pdata.BalanceEntry {
		return pdata.BalanceEntry{Category: c, Asset: avax, Amount: amount, UTXOs: 1, SharedWith: from}
	}
	for _, tc := range []struct {
		chain netinfo.Chain
		addrs []ids.ShortID
		at    int64
		want  []pdata.BalanceEntry
	}{
		{netinfo.P, abd, 999, nil},
		{netinfo.P, abd, 1000, []pdata.BalanceEntry{
			entry(pdata.UnlockedUnstaked, 499, 2), // p1, p3
			entry(pdata.LockedPlatform, 300, 1),   // g3
			entry(pdata.LockedStakeable, 500, 1),  // g2
			entry(pdata.PendingStaked, 500, 2),    // s1, s2 before their start
		}},
		{netinfo.P, abd, 1700, []pdata.BalanceEntry{
			entry(pdata.UnlockedUnstaked, 499, 2),
			entry(pdata.LockedPlatform, 300, 1),
			entry(pdata.LockedStakeable, 500, 1),
			entry(pdata.PendingStaked, 500, 2),
			atomic(pdata.AtomicMemoryUnlocked, 499, xChainID), // ex1, exported by X at 1500
			atomic(pdata.AtomicMemoryLocked, 60, cChainID),    // cx1, exported by C at 1200
		}},
		{netinfo.P, abd, 5000, []pdata.BalanceEntry{
			entry(pdata.UnlockedUnstaked, 1304, 4), // p1, p3, p4 (imported at 2000), g3
			entry(pdata.UnlockedStaked, 400, 1),    // s1
			entry(pdata.LockedStakeable, 500, 1),   // g2
			entry(pdata.LockedStaked, 100, 1),      // s2: locked past its stake end
			atomic(pdata.AtomicMemoryLocked, 60, cChainID),
		}},
		{netinfo.P, abd, 11000, []pdata.BalanceEntry{
			entry(pdata.UnlockedUnstaked, 2214, 7), // + s1 unstaked, g2, r1
			entry(pdata.LockedStakeable, 100, 1),   // s2
			atomic(pdata.AtomicMemoryLocked, 60, cChainID),
		}},
		{netinfo.P, abd, 13000, []pdata.BalanceEntry{
			entry(pdata.UnlockedUnstaked, 2214, 8), // - p1 + p5 + p6 (owned by A and B: once)
			entry(pdata.LockedStakeable, 100, 1),
			atomic(pdata.AtomicMemoryLocked, 60, cChainID),
		}},
		{netinfo.P, []ids.ShortID{addrB}, 13000, []pdata.BalanceEntry{entry(pdata.UnlockedUnstaked, 301, 2)}},
		{netinfo.X, []ids.ShortID{addrA}, 1000, []pdata.BalanceEntry{entry(pdata.UnlockedUnstaked, 2000, 1)}},
		{netinfo.X, []ids.ShortID{addrA}, 2000, []pdata.BalanceEntry{
			entry(pdata.UnlockedUnstaked, 1400, 1),
			entry(pdata.LockedPlatform, 50, 1),
		}},
		{netinfo.C, []ids.ShortID{addrA}, 2000, []pdata.BalanceEntry{atomic(pdata.AtomicMemoryUnlocked, 40, xChainID)}},
		{netinfo.C, []ids.ShortID{addrA}, 2500, nil},
	} {
		got, err := r.Balances(context.Background(), tc.chain, tc.addrs, tc.at)
		require.NoError(t, err)
		if tc.want == nil {
			tc.want = []pdata.BalanceEntry{}
		}
		require.Equal(t, tc.want, got, "%s at %d", tc.chain, tc.at)
	}
}

// The X exports and the P/C imports of them end in the same index whichever
// writer commits first.
func TestPrimaryExportImportOrder(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	a := writeExportFirst(t, f)
	b := writeImportFirst(t, f)
	ctx := context.Background()
	for _, chain := range netinfo.PrimaryChains() {
		for _, q := range []pdata.TxQuery{{}, {Addresses: []ids.ShortID{addrA, addrB}, Desc: true}} {
			want, err := a.PrimaryReader(f.decode).Txs(ctx, chain, q)
			require.NoError(err)
			got, err := b.PrimaryReader(f.decode).Txs(ctx, chain, q)
			require.NoError(err)
			require.Equal(want, got, "%s txs", chain)
		}
		for _, at := range []int64{1000, 1700, 2000, 2600, 11000, 13000} {
			want, err := a.PrimaryReader(nil).Balances(ctx, chain, []ids.ShortID{addrA, addrB, addrD}, at)
			require.NoError(err)
			got, err := b.PrimaryReader(nil).Balances(ctx, chain, []ids.ShortID{addrA, addrB, addrD}, at)
			require.NoError(err)
			require.Equal(want, got, "%s balances at %d", chain, at)
		}
	}
}

func TestPrimaryBlocksHeightsAndAssets(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := writeExportFirst(t, f)
	r := s.PrimaryReader(f.decode)
	ctx := context.Background()

	heights := func(q pdata.BlockQuery) []uint64 {
		blocks, err := r.BlocksByProposer(ctx, netinfo.P, q)
		require.NoError(err)
		var out []uint64
		for _, b := range blocks {
			out = append(out, b.Number)
		}
		return out
	}
	require.Equal([]uint64{5, 4}, heights(pdata.BlockQuery{NodeID: node1, Desc: true}))
	require.Equal([]uint64{4, 5}, heights(pdata.BlockQuery{NodeID: node1}))
	require.Equal([]uint64{5}, heights(pdata.BlockQuery{NodeID: node1, Desc: true, Limit: 1}))
	require.Equal([]uint64{4}, heights(pdata.BlockQuery{NodeID: node1, Desc: true, After: 5}))
	require.Equal([]uint64{5}, heights(pdata.BlockQuery{NodeID: node1, After: 4}))
	require.Equal([]uint64{4}, heights(pdata.BlockQuery{NodeID: node1, FromHeight: 1, ToHeight: 5}))
	require.Empty(heights(pdata.BlockQuery{NodeID: ids.EmptyNodeID}), "blocks any node could build are not listed")

	blocks, err := r.BlocksByProposer(ctx, netinfo.P, pdata.BlockQuery{NodeID: node1, Desc: true, Limit: 1})
	require.NoError(err)
	require.Equal(pdata.IndexedBlock{Chain: netinfo.P, Number: 5, ID: ids.ID{'P', 5}, ParentID: ids.ID{'P', 4}, Time: 12000,
		Type: "BanffStandardBlock", TxIDs: []ids.ID{f.t5.ID},
		Proposer: &pdata.Proposer{ID: ids.ID{'o', 5}, ParentID: ids.ID{'o', 4}, NodeID: node1, PChainHeight: 4, Timestamp: 12000},
	}, blocks[0])

	b3, ok, err := r.Block(ctx, netinfo.P, 3)
	require.NoError(err)
	require.True(ok)
	require.Equal(int64(2000), b3.Time)
	require.Equal(&pdata.Proposer{ID: ids.ID{'P', 3}, PChainHeight: 2}, b3.Proposer)
	g, ok, err := r.Block(ctx, netinfo.P, 0)
	require.NoError(err)
	require.True(ok, "the genesis block is written with block 1")
	require.Equal(int64(genesisTime), g.Time)
	require.Empty(g.TxIDs)

	for _, tc := range []struct {
		chain netinfo.Chain
		ts    int64
		want  uint64
	}{
		{netinfo.P, 999, 0}, {netinfo.P, 1000, 2}, {netinfo.P, 1999, 2}, {netinfo.P, 2000, 3},
		{netinfo.P, 10000, 4}, {netinfo.P, 11999, 4}, {netinfo.P, 12000, 5}, {netinfo.P, 1 << 40, 5},
		{netinfo.X, 1499, 0}, {netinfo.X, 1500, 1},
		{netinfo.C, 1199, 0}, {netinfo.C, 1200, 1}, {netinfo.C, 2499, 1}, {netinfo.C, 2500, 2},
	} {
		h, err := r.HeightAtTime(ctx, tc.chain, tc.ts)
		require.NoError(err)
		require.Equal(tc.want, h, "%s at %d", tc.chain, tc.ts)
	}

	assets, err := r.Assets(ctx, []ids.ID{avax, {'?'}})
	require.NoError(err)
	require.Equal(map[ids.ID]pdata.Asset{avax: *f.asset.Asset}, assets)
}
