package store

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// TestAssetTxListings: every chain lists under an asset the txs that
// consume, produce or create it (C: also those that move it to or from
// accounts), in tx order, with the listing's bounds.
func TestAssetTxListings(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := writeExportFirst(t, f)

	// X block 2 creates a second asset (paying the fee in AVAX) and block 3
	// moves it.
	coin := f.tx("coin", "CreateAssetTx", []pdata.Input{spend(f.xo1)})
	coin.Asset = &pdata.Asset{ID: coin.ID, Name: "Coin", Symbol: "CN", Type: "secp256k1"}
	minted := out(coin.ID, 0, 77, addrB)
	minted.Asset = coin.ID
	coin.Produced = []pdata.UTXO{out(coin.ID, 1, 1300, addrA), minted}
	move := f.tx("move", "BaseTx", []pdata.Input{spend(minted)})
	moved := out(move.ID, 0, 77, addrD)
	moved.Asset = coin.ID
	move.Produced = []pdata.UTXO{moved}
	require.NoError(s.PrimaryWriter(netinfo.X).Apply(context.Background(), []*pdata.Block{
		{Number: 2, ID: ids.ID{'X', 2}, Timestamp: 1600, Type: "StandardBlock", Txs: []*pdata.Tx{coin}},
		{Number: 3, ID: ids.ID{'X', 3}, Timestamp: 1700, Type: "StandardBlock", Txs: []*pdata.Tx{move}},
	}, time.Now()))

	r := s.PrimaryReader(f.decode)
	list := func(chain netinfo.Chain, asset ids.ID, q pdata.TxQuery) []ids.ID {
		q.Asset = &asset
		txs, err := r.Txs(context.Background(), chain, q)
		require.NoError(err)
		return txIDs(txs)
	}
	require.Equal([]ids.ID{f.asset.ID, f.e1.ID, coin.ID}, list(netinfo.X, avax, pdata.TxQuery{}),
		"AVAX: its genesis CreateAssetTx, the export, the fee of the new asset")
	require.Equal([]ids.ID{coin.ID, move.ID}, list(netinfo.X, coin.ID, pdata.TxQuery{}))
	require.Equal([]ids.ID{move.ID, coin.ID}, list(netinfo.X, coin.ID, pdata.TxQuery{Desc: true}))
	require.Equal([]ids.ID{coin.ID}, list(netinfo.X, coin.ID, pdata.TxQuery{Desc: true, After: &pdata.TxPos{Height: 3}}))
	require.Equal([]ids.ID{move.ID}, list(netinfo.X, coin.ID, pdata.TxQuery{Types: []string{"BaseTx"}}))
	require.Equal([]ids.ID{coin.ID}, list(netinfo.X, coin.ID, pdata.TxQuery{FromHeight: 1, ToHeight: 3}))
	require.Equal([]ids.ID{f.t1.ID, f.t2.ID, f.t3.ID, f.t4.ID, f.t5.ID}, list(netinfo.P, avax, pdata.TxQuery{}))
	require.Equal([]ids.ID{f.c1.ID, f.c2.ID}, list(netinfo.C, avax, pdata.TxQuery{}), "the export spends from an account")
	require.Empty(list(netinfo.P, coin.ID, pdata.TxQuery{}), "the asset's rows are the X-chain's")
	require.Empty(list(netinfo.X, ids.ID{'n', 'o'}, pdata.TxQuery{}))
}

// TestTxByID: a tx is read by its ID as a listing shows it; an ID the index
// does not hold (the genesis pseudo tx's included) is not found.
func TestTxByID(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := writeExportFirst(t, f)
	r := s.PrimaryReader(f.decode)
	ctx := context.Background()
	listed, err := r.Txs(ctx, netinfo.P, pdata.TxQuery{})
	require.NoError(err)
	for _, want := range listed {
		got, found, err := r.Tx(ctx, want.Tx.ID)
		require.NoError(err)
		require.True(found, "%s", want.Tx.ID)
		require.Equal(want, got)
	}
	e1, found, err := r.Tx(ctx, f.e1.ID)
	require.NoError(err)
	require.True(found)
	require.Equal(netinfo.X, e1.Chain)
	require.Len(e1.Produced, 4)
	for _, id := range []ids.ID{ids.Empty, {'n', 'o'}} {
		_, found, err = r.Tx(ctx, id)
		require.NoError(err)
		require.False(found, "%s", id)
	}
}

// BenchmarkTxByID reads single txs by ID (getTxByHash's read) among 4,000
// BaseTxs, and pages of 50 of an asset's txs (listAssetTransactions'),
// newest first.
func BenchmarkTxByID(b *testing.B) {
	var blocks []*pdata.Block
	for h := 1; h <= listingEntries; h++ {
		tx := &pdata.Tx{ID: benchID('t', h), Type: "BaseTx", Bytes: make([]byte, 300)}
		tx.Produced = []pdata.UTXO{out(tx.ID, 0, 1, addrA), out(tx.ID, 1, 1, addrB)}
		blocks = append(blocks, listingBlock(h, tx))
	}
	r := openListingBench(b, blocks)
	ctx := context.Background()
	b.Run("tx", func(b *testing.B) {
		for i := range b.N {
			if _, found, err := r.Tx(ctx, benchID('t', 1+i%listingEntries)); err != nil || !found {
				b.Fatalf("tx %d: found %v, %v", i, found, err)
			}
		}
	})
	b.Run("assetPage", func(b *testing.B) {
		asset := avax
		for range b.N {
			page, err := r.Txs(ctx, netinfo.P, pdata.TxQuery{Asset: &asset, Desc: true, Limit: listingPage})
			if err != nil || len(page) != listingPage {
				b.Fatalf("page: %d txs, %v", len(page), err)
			}
		}
	})
}
