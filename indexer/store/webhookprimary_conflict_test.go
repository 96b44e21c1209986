package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// The threshold's read of a watched address's balance rows adds no
// conflict: while a P block reads them, an X export adds a UTXO to the
// address's P atomic memory (a new row, which the P transaction never
// read), and both commit.
func TestPrimaryWebhookBalanceReadDoesNotConflict(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := openPrimaryHooks(t, f)
	first, _ := f.pBlocks()
	writeP(t, s, first)
	h := watchPrimary(t, s, 1, netinfo.P, allPrimarySubs,
		&webhookdata.BalanceThresholdFilter{BalanceType: "unlockedUnstaked", BalanceThreshold: "600"}, 0, addrA)

	net := s.network()
	wp, wx := s.newBlockTxn(netinfo.P), s.newBlockTxn(netinfo.X)
	defer wp.txn.Discard()
	defer wx.txn.Discard()
	require.NoError(writePrimaryTx(wp, net, txPlace{chain: netinfo.P, pos: pdata.TxPos{Height: 5}, time: 12000}, f.t5))
	require.NoError(wp.placeWebhookEvents(true))
	require.NoError(writePrimaryTx(wx, net, txPlace{chain: netinfo.X, pos: pdata.TxPos{Height: 1}, time: 1500}, f.e1))
	require.NoError(wx.txn.Commit())
	require.NoError(wp.txn.Commit())
	require.Equal([]string{
		"5 BaseTx balance_change A: AVAX 1 (unlockedUnstaked=1)",
		// 99 left from staking and the genesis 500 unlocked since.
		"5 BaseTx balance_threshold A: unlockedUnstaked 600 599->600 up",
	}, primaryEvents(t, s, h))
}

// The race of exports and imports with webhooks watching both sides, with
// thresholds (so every import reads the balance rows): each import gives
// its events once, in order, and the commits conflict no more than without
// webhooks (the count is logged; it depends on timing).
func TestPrimaryWebhooksInTheExportImportRace(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	s := openPrimaryHooks(t, f)
	n := testNetwork(nil)
	n.AVAXAssetID = avax
	s.SetPrimaryNetwork(n)
	hp := watchPrimary(t, s, 1, netinfo.P, allPrimarySubs,
		&webhookdata.BalanceThresholdFilter{BalanceType: "unlockedUnstaked", BalanceThreshold: "1"}, 0, addrA, addrB)
	hx := watchPrimary(t, s, 2, netinfo.X, allPrimarySubs,
		&webhookdata.BalanceThresholdFilter{BalanceType: "unlocked", BalanceThreshold: "1"}, 0, addrA, addrB)
	const blocks = 300
	t.Logf("%d conflicting commits retried (webhooks on)", raceExportsAndImports(t, s, blocks))

	var want []string
	for h := 1; h <= blocks; h++ {
		want = append(want, fmt.Sprintf("%d ImportTx balance_change A: AVAX -%d (atomicMemoryUnlocked=-%d)", h, h, h),
			fmt.Sprintf("%d ImportTx balance_change B: AVAX %d (unlockedUnstaked=%d)", h, h, h))
		if h == 1 {
			want = append(want, "1 ImportTx balance_threshold B: unlockedUnstaked 1 0->1 up")
		}
	}
	require.Equal(want, primaryEvents(t, s, hp))
	require.Empty(primaryEvents(t, s, hx), "the exports move nothing the X-chain holds")
}
