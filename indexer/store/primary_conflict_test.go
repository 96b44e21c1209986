package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Two writers that meet on one UTXO (an export and its import) read each
// other's row; Badger fails the second commit instead of losing the
// consumption.
func TestPrimaryWritersConflictOnASharedUTXO(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := openFixture(t, f)
	net := s.network()
	wx, wp := s.newBlockTxn(netinfo.X), s.newBlockTxn(netinfo.P)
	defer wx.txn.Discard()
	defer wp.txn.Discard()
	require.NoError(writePrimaryTx(wp, net, txPlace{chain: netinfo.P, pos: pdata.TxPos{Height: 3}, time: 2000}, f.t3))
	require.NoError(writePrimaryTx(wx, net, txPlace{chain: netinfo.X, pos: pdata.TxPos{Height: 1}, time: 1500}, f.e1))
	require.NoError(wx.txn.Commit())
	require.ErrorIs(wp.txn.Commit(), badger.ErrConflict)
}

// The X and P writers run at once over exports and their imports, each
// retrying a batch that conflicts (as the follower does): every export ends
// imported, none is left in atomic memory.
func TestPrimaryWritersRaceOnExportsAndImports(t *testing.T) {
	require := require.New(t)
	s := openFixture(t, newFixture())
	s.SetPrimaryNetwork(testNetwork(nil))
	const n = 300
	t.Logf("%d conflicting commits retried", raceExportsAndImports(t, s, n))

	got, err := s.PrimaryReader(nil).Balances(context.Background(), netinfo.P, []ids.ShortID{addrA, addrB}, n+1)
	require.NoError(err)
	require.Equal([]pdata.BalanceEntry{{Category: pdata.UnlockedUnstaked, Asset: avax, Amount: n * (n + 1) / 2, UTXOs: n}}, got)
	// Every export was imported: nothing is left in atomic memory.
	got, err = s.PrimaryReader(nil).Balances(context.Background(), netinfo.P, []ids.ShortID{addrA}, n+1)
	require.NoError(err)
	require.Empty(got)
}

// raceExportsAndImports writes n X blocks and n P blocks at once: X block h
// exports h to A's P atomic memory, P block h imports it and pays h to B.
// It returns how many commits conflicted (and were retried).
func raceExportsAndImports(t *testing.T, s *Store, n uint64) int64 {
	var xBlocks, pBlocks []*pdata.Block
	for h := uint64(1); h <= n; h++ {
		export := &pdata.Tx{ID: ids.ID{'e', byte(h), byte(h >> 8)}, Type: "ExportTx"}
		u := exported(out(export.ID, 0, h, addrA), ids.Empty)
		export.Produced = []pdata.UTXO{u}
		imp := &pdata.Tx{ID: ids.ID{'i', byte(h), byte(h >> 8)}, Type: "ImportTx", SourceChain: xChainID,
			Consumed: []pdata.Input{spend(u)}, Produced: []pdata.UTXO{out(ids.ID{'i', byte(h), byte(h >> 8)}, 0, h, addrB)}}
		xBlocks = append(xBlocks, &pdata.Block{Number: h, Timestamp: int64(h), Txs: []*pdata.Tx{export}})
		pBlocks = append(pBlocks, &pdata.Block{Number: h, Timestamp: int64(h), Txs: []*pdata.Tx{imp}})
	}
	var conflicts atomic.Int64
	run := func(chain netinfo.Chain, blocks []*pdata.Block) error {
		w := s.PrimaryWriter(chain)
		for len(blocks) > 0 {
			batch := blocks[:min(3, len(blocks))]
			err := w.Apply(context.Background(), batch, time.Now())
			if errors.Is(err, badger.ErrConflict) {
				conflicts.Add(1)
				continue
			}
			if err != nil {
				return err
			}
			blocks = blocks[len(batch):]
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Add(2)
	go func() { defer wg.Done(); errs[0] = run(netinfo.X, xBlocks) }()
	go func() { defer wg.Done(); errs[1] = run(netinfo.P, pBlocks) }()
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	return conflicts.Load()
}
