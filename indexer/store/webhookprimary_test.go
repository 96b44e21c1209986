package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

var (
	allPrimarySubs = []string{webhookdata.SubBalanceChange, webhookdata.SubBalanceThreshold}
	changeOnly     = []string{webhookdata.SubBalanceChange}
)

// openPrimaryHooks opens the fixture's store with the AVAX asset known.
func openPrimaryHooks(t *testing.T, f *fixture) *Store {
	s := openFixture(t, f)
	n := testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: f.gP, netinfo.X: f.gX})
	n.AVAXAssetID = avax
	s.SetPrimaryNetwork(n)
	return s
}

func primaryKey(t testing.TB, chain string, a ids.ShortID) string {
	k, err := address.Format(chain, "local", a[:])
	require.NoError(t, err)
	return k
}

// watchPrimary creates a primary-network webhook on chain for addrs.
func watchPrimary(t testing.TB, s *Store, id byte, chain netinfo.Chain, subs []string,
	filter *webhookdata.BalanceThresholdFilter, from uint64, addrs ...ids.ShortID,
) webhookdata.Webhook {
	h := webhookdata.Webhook{ID: webhookdata.ID{id}, EventType: webhookdata.PrimaryNetworkAddressActivity,
		Chain: chain, ChainID: chain.String(), Status: webhookdata.Active, FromHeight: from,
		Metadata: webhookdata.Metadata{KeyType: webhookdata.KeyTypeAddresses, AddressActivitySubEvents: subs,
			BalanceThresholdFilter: filter}}
	for _, a := range addrs {
		h.Metadata.Keys = append(h.Metadata.Keys, primaryKey(t, chain.String(), a))
	}
	created, err := s.CreateWebhook(context.Background(), h)
	require.NoError(t, err)
	return created
}

// primaryEvents reads a webhook's outbox as event summaries (see
// summarize), checking every envelope on the way.
func primaryEvents(t *testing.T, s *Store, h webhookdata.Webhook) []string {
	out, err := s.Outbox(context.Background(), h.ID, 1000)
	require.NoError(t, err)
	var got []string
	for _, e := range out {
		var env struct {
			WebhookID string                   `json:"webhookId"`
			EventType string                   `json:"eventType"`
			MessageID string                   `json:"messageId"`
			Event     webhookdata.PrimaryEvent `json:"event"`
		}
		require.NoError(t, json.Unmarshal(e.Body, &env))
		require.Equal(t, h.ID.String(), env.WebhookID)
		require.Equal(t, string(webhookdata.PrimaryNetworkAddressActivity), env.EventType)
		require.Equal(t, webhookdata.MessageID(h.ID, h.ChainID, e.Height, e.Seq), env.MessageID)
		require.Equal(t, e.Height, env.Event.BlockHeight)
		got = append(got, summarize(t, h, env.Event))
	}
	return got
}

// summarize writes an event as "height txType subEvent address: what",
// the address by its letter in the fixture.
func summarize(t *testing.T, h webhookdata.Webhook, ev webhookdata.PrimaryEvent) string {
	names := map[ids.ShortID]string{addrA: "A", addrB: "B", addrD: "D"}
	a, err := webhookdata.ParsePrimaryAddress(ev.Address)
	require.NoError(t, err)
	require.Contains(t, h.Metadata.Keys, ev.Address, "the address as the webhook's key names it")
	require.NotEmpty(t, ev.BlockHash)
	require.NotEmpty(t, ev.TxHash)
	s := fmt.Sprintf("%d %s %s %s:", ev.BlockHeight, ev.TxType, ev.SubEvent, names[a])
	for _, c := range ev.BalanceChanges {
		asset := c.Symbol
		if asset == "" {
			asset = c.AssetID[:4]
		}
		var types []string
		for _, bt := range c.BalanceTypes {
			types = append(types, bt.BalanceType+"="+bt.Amount)
		}
		s += fmt.Sprintf(" %s %s (%s)", asset, c.Amount, strings.Join(types, " "))
	}
	if ev.SubEvent == webhookdata.SubBalanceThreshold {
		s += fmt.Sprintf(" %s %s %s->%s %s", ev.BalanceType, ev.BalanceThreshold, ev.PreviousBalance, ev.Balance, ev.Direction)
	}
	return s
}

// Each P tx that moves a watched address's balances gives one
// balance_change per address, by asset and balance type; the unlocked
// balance's threshold fires once per crossing, either way.
func TestPrimaryWebhookEventsOnP(t *testing.T) {
	f := newFixture()
	s := openPrimaryHooks(t, f)
	h := watchPrimary(t, s, 1, netinfo.P, allPrimarySubs,
		&webhookdata.BalanceThresholdFilter{BalanceType: "unlockedUnstaked", BalanceThreshold: "500"}, 0, addrA, addrB)
	later := watchPrimary(t, s, 2, netinfo.P, changeOnly, nil, 3, addrB)
	first, second := f.pBlocks()
	writeX(t, s, f)
	writeP(t, s, first)
	writeP(t, s, second)

	require.Equal(t, []string{
		// A spends 1000 and gets 599 back; B gets 400.
		"1 BaseTx balance_change A: AVAX -401 (unlockedUnstaked=-401)",
		"1 BaseTx balance_change B: AVAX 400 (unlockedUnstaked=400)",
		// A stakes 500 (starting later: pending); its unlocked balance
		// falls below 500.
		"2 AddValidatorTx balance_change A: AVAX 0 (unlockedUnstaked=-500 pendingStaked=500)",
		"2 AddValidatorTx balance_threshold A: unlockedUnstaked 500 599->99 down",
		// The import takes 499 (met on X) and 7 (never met: the input's
		// amount) out of atomic memory and gives 505: back above 500.
		"3 ImportTx balance_change A: AVAX -1 (unlockedUnstaked=505 atomicMemoryUnlocked=-506)",
		"3 ImportTx balance_threshold A: unlockedUnstaked 500 99->604 up",
		// The reward returns the stake (the unlocked part to unlocked, the
		// part still locked to locked stakeable) and pays 10: no crossing
		// (time alone unlocked the genesis 500 since, above already).
		"4 RewardValidatorTx balance_change A: AVAX 10 (unlockedUnstaked=410 unlockedStaked=-400 lockedStakeable=100 lockedStaked=-100)",
		// B is on both sides; A co-owns the 1 with B.
		// (B's genesis 300 unlocked at 4000: B had 700.)
		"5 BaseTx balance_change B: AVAX -399 (unlockedUnstaked=-399)",
		"5 BaseTx balance_threshold B: unlockedUnstaked 500 700->301 down",
		"5 BaseTx balance_change A: AVAX 1 (unlockedUnstaked=1)",
	}, primaryEvents(t, s, h))
	require.Equal(t, []string{"5 BaseTx balance_change B: AVAX -399 (unlockedUnstaked=-399)"}, primaryEvents(t, s, later),
		"nothing before the webhook's first height")
}

// On X the export's exported outputs leave the chain; a block's second tx
// sees its first (an asset it creates); on C only the import's atomic
// memory moves (the export's UTXOs are another chain's, its EVM debit is
// no UTXO balance).
func TestPrimaryWebhookEventsOnXAndC(t *testing.T) {
	f := newFixture()
	s := openPrimaryHooks(t, f)
	hx := watchPrimary(t, s, 1, netinfo.X, allPrimarySubs,
		&webhookdata.BalanceThresholdFilter{BalanceType: "unlocked", BalanceThreshold: "1500"}, 1, addrA, addrB)
	hc := watchPrimary(t, s, 2, netinfo.C, allPrimarySubs, nil, 0, addrA)
	writeX(t, s, f)

	token := ids.ID{'t', 'o', 'k'}
	create := f.tx("k1", "CreateAssetTx", nil)
	create.Asset = &pdata.Asset{ID: token, Name: "Token", Symbol: "TOK", Denomination: 2, Type: "secp256k1"}
	mixed := f.tx("m1", "BaseTx", []pdata.Input{spend(f.xo1)})
	tokA, tokB := out(mixed.ID, 1, 5, addrA), out(mixed.ID, 2, 7, addrB)
	tokA.Asset, tokB.Asset = token, token
	mixed.Produced = []pdata.UTXO{out(mixed.ID, 0, 1399, addrA), tokA, tokB}
	require.NoError(t, s.PrimaryWriter(netinfo.X).Apply(context.Background(), []*pdata.Block{
		{Number: 2, ID: ids.ID{'X', 2}, ParentID: ids.ID{'X', 1}, Timestamp: 1600, Type: "StandardBlock",
			Txs: []*pdata.Tx{create, mixed}}}, time.Now()))
	writeC(t, s, f)

	require.Equal(t, []string{
		"1 ExportTx balance_change A: AVAX -550 (unlocked=-600 locked=50)",
		"1 ExportTx balance_threshold A: unlocked 1500 2000->1400 down",
		"2 BaseTx balance_change A: AVAX -1 (unlocked=-1) TOK 5 (unlocked=5)",
		"2 BaseTx balance_change B: TOK 7 (unlocked=7)",
	}, primaryEvents(t, s, hx))
	require.Equal(t, []string{"2 ImportTx balance_change A: AVAX -40 (atomicMemoryUnlocked=-40)"}, primaryEvents(t, s, hc))
}

// X-chain vertices are history: their txs give no events; the linear
// blocks after them do (the symbol from the genesis CreateAssetTx).
func TestPrimaryWebhookNoEventsFromVertices(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	sc := newDAGScenario(t)
	s, err := Open(t.TempDir(), logging.NoLog{})
	require.NoError(err)
	defer s.Close()
	s.SetPrimaryNetwork(testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.X: sc.genesis}))
	h := watchPrimary(t, s, 1, netinfo.X, changeOnly, nil, 0, addrA, addrB, addrD)
	require.NoError(s.VertexWriter().Apply(ctx, sc.vertices, time.Now()))
	require.Empty(primaryEvents(t, s, h))
	require.NoError(s.PrimaryWriter(netinfo.X).Apply(ctx, sc.linear, time.Now()))
	require.Equal([]string{
		"1 BaseTx balance_change A: AVAX -700 (unlocked=-700)",
		"1 BaseTx balance_change B: AVAX -700 (unlocked=-700)",
		"1 BaseTx balance_change D: AVAX 699 (unlocked=699)",
		"2 BaseTx balance_change D: AVAX -1 (unlocked=-1)",
	}, primaryEvents(t, s, h))
}

// A commit that fails (another chain's commit races it) and is written
// again gives the same events, whichever chain's side of an export is
// indexed first: the input's amount stands in for a UTXO not met yet.
func TestPrimaryWebhookEventsAreTheSameAfterARetriedCommit(t *testing.T) {
	require := require.New(t)
	events := func(retry bool) []string {
		f := newFixture()
		s := openPrimaryHooks(t, f)
		h := watchPrimary(t, s, 1, netinfo.P, allPrimarySubs,
			&webhookdata.BalanceThresholdFilter{BalanceType: "unlockedUnstaked", BalanceThreshold: "500"}, 0, addrA)
		first, second := f.pBlocks()
		writeP(t, s, first)
		if retry {
			net := s.network()
			wp, wx := s.newBlockTxn(netinfo.P), s.newBlockTxn(netinfo.X)
			require.NoError(writePrimaryTx(wp, net, txPlace{chain: netinfo.P, pos: pdata.TxPos{Height: 3}, time: 2000}, f.t3))
			require.Equal(2, wp.hooks.written, "the import's events, before the export is met")
			require.NoError(writePrimaryTx(wx, net, txPlace{chain: netinfo.X, pos: pdata.TxPos{Height: 1}, time: 1500}, f.e1))
			require.NoError(wx.txn.Commit())
			require.ErrorIs(wp.txn.Commit(), badger.ErrConflict)
			wx.txn.Discard()
		} else {
			writeX(t, s, f)
		}
		writeP(t, s, second)
		return primaryEvents(t, s, h)
	}
	require.Equal(events(false), events(true))
}

// The event names an address as the webhook's key spells it: with or
// without a chain prefix, in either case.
func TestPrimaryWebhookKeyNaming(t *testing.T) {
	h := &webhookdata.Webhook{Metadata: webhookdata.Metadata{Keys: []string{
		primaryKey(t, "P", addrB), strings.ToUpper(primaryKey(t, "P", addrA)[2:]), primaryKey(t, "X", addrD)}}}
	require.Equal(t, h.Metadata.Keys[1], keyNaming(h, addrA))
	require.Equal(t, h.Metadata.Keys[0], keyNaming(h, addrB))
	require.Equal(t, h.Metadata.Keys[2], keyNaming(h, addrD))
}
