//go:build e2e

package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// Thresholds of the test's webhooks (nAVAX): the X-chain's unlocked AVAX
// rises past 1.5 AVAX with the funding and falls below with the export to
// P; the P-chain's rises past 0.5 AVAX with the import.
const (
	xThreshold = 1500 * units.MilliAvax
	pThreshold = 500 * units.MilliAvax
)

// pnEvent is a primary_network_address_activity event as the README
// documents it (decoded by its documented names, not the node's types).
type pnEvent struct {
	SubEvent       string `json:"subEvent"`
	ChainID        string `json:"chainId"`
	BlockHeight    uint64 `json:"blockHeight"`
	BlockHash      string `json:"blockHash"`
	BlockTimestamp int64  `json:"blockTimestamp"`
	TxHash         string `json:"txHash"`
	TxType         string `json:"txType"`
	Address        string `json:"address"`
	BalanceChanges []struct {
		AssetID      string `json:"assetId"`
		Symbol       string `json:"symbol"`
		Denomination *int   `json:"denomination"`
		Amount       string `json:"amount"`
		BalanceTypes []struct {
			BalanceType string `json:"balanceType"`
			Amount      string `json:"amount"`
		} `json:"balanceTypes"`
	} `json:"balanceChanges"`
	BalanceType      string `json:"balanceType"`
	BalanceThreshold string `json:"balanceThreshold"`
	Balance          string `json:"balance"`
	PreviousBalance  string `json:"previousBalance"`
	Direction        string `json:"direction"`
}

// pnTx is one tx the test issued and where the node says it is.
type pnTx struct {
	chain, txType string
	id            ids.ID
	height        uint64
	time          int64
	blockHash     string
	// after are A's balances on P, X and C once the tx is accepted.
	after map[string]primaryBalances
}

// pnRun is the state of the test's activity.
type pnRun struct {
	t       *testing.T
	ctx     context.Context
	uri     string
	addrOn  func(chain string) string
	cursor  map[string]uint64
	initial map[string]primaryBalances
	txs     []*pnTx
	// assets are the symbol and denomination events must give each asset.
	assets map[string]pnAsset
}

// pnAsset is an asset's symbol and denomination.
type pnAsset struct {
	symbol       string
	denomination int
}

// newPNRun makes a fresh key whose activity a test follows, and reads its
// (empty) balances and the chains' heights before any of it.
func newPNRun(t *testing.T, ctx context.Context) (*pnRun, *secp256k1.PrivateKey) {
	t.Helper()
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	hrp := constants.GetHRP(constants.LocalID)
	r := &pnRun{t: t, ctx: ctx, uri: env.URI(t), cursor: map[string]uint64{}, assets: map[string]pnAsset{}}
	r.addrOn = func(chain string) string {
		s, err := address.Format(chain, hrp, key.Address().Bytes())
		require.NoError(t, err)
		return s
	}
	for _, chain := range []string{"P", "X"} {
		r.cursor[chain] = truth.Height(t, ctx, r.uri, chain)
	}
	r.initial = r.balances(time.Now().Unix())
	return r, key
}

// P, X and C webhooks watch a fresh address A through real X and P
// transfers and exports and imports X→P, X→C and C→X: every delivery is
// exactly the event the node's own balances before and after each tx call
// for (getUTXOs, with sourceChain for atomic memory), once each, in chain
// order, its block as the node has it, its signature accepted by the SDK.
func TestWebhooksPrimaryAddressActivity(t *testing.T) {
	require := require.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	r, key := newPNRun(t, ctx)
	uri, base, addrOn := r.uri, env.Base(t), r.addrOn
	ewoqKC := secp256k1fx.NewKeychain(genesis.EWOQKey)
	ewoq, err := primary.MakeWallet(ctx, uri, ewoqKC, ewoqKC, primary.WalletConfig{})
	require.NoError(err, "EWOQ wallet")
	xCtx := ewoq.X().Builder().Context()
	avaxID, xChain, cChain, pChain := xCtx.AVAXAssetID, xCtx.BlockchainID, ewoq.C().Builder().Context().BlockchainID, constants.PlatformChainID
	chainIDs := map[string]ids.ID{"P": pChain, "X": xChain, "C": cChain}
	r.assets[avaxID.String()] = pnAsset{symbol: "AVAX", denomination: 9}

	hooks := map[string]*pnHook{}
	filters := map[string]map[string]string{
		"X": {"balanceType": "unlocked", "balanceThreshold": fmt.Sprint(xThreshold)},
		"P": {"balanceType": "unlockedUnstaked", "balanceThreshold": fmt.Sprint(pThreshold)},
	}
	for _, chain := range []string{"P", "X", "C"} {
		hooks[chain] = createPrimaryHook(t, ctx, base, chain, chainIDs[chain], addrOn(chain), filters[chain])
	}
	secret := harness.WebhookSecret(t, ctx, base)

	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	ownerA := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
	toA := func(amount uint64) *avax.TransferableOutput {
		return &avax.TransferableOutput{Asset: avax.Asset{ID: avaxID}, Out: &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: ownerA}}
	}

	r.record("X", "BaseTx", harness.FundOnX(t, ctx, uri, key, 3*units.Avax))
	// A second asset: EWOQ creates it (nothing of A's moves), then sends
	// A some. (FundOnX spent EWOQ's UTXOs through a wallet of its own.)
	ewoq, err = primary.MakeWallet(ctx, uri, ewoqKC, ewoqKC, primary.WalletConfig{})
	require.NoError(err, "EWOQ wallet again")
	ewoqOwner := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}}
	tx, err := ewoq.X().IssueCreateAssetTx("Webhook Coin", "WHC", 2, map[uint32][]verify.State{
		0: {&secp256k1fx.TransferOutput{Amt: 1_000_000, OutputOwners: ewoqOwner}},
	}, opts...)
	require.NoError(err, "CreateAssetTx")
	coin := tx.ID()
	r.assets[coin.String()] = pnAsset{symbol: "WHC", denomination: 2}
	r.record("X", "CreateAssetTx", coin)
	tx, err = ewoq.X().IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: coin},
		Out: &secp256k1fx.TransferOutput{Amt: 12_345, OutputOwners: ownerA}}}, opts...)
	require.NoError(err, "the coin to A")
	r.record("X", "BaseTx", tx.ID())
	aKC := secp256k1fx.NewKeychain(key)
	a, err := primary.MakeWallet(ctx, uri, aKC, aKC, primary.WalletConfig{})
	require.NoError(err, "A's wallet")
	tx, err = a.X().IssueBaseTx([]*avax.TransferableOutput{{Asset: avax.Asset{ID: avaxID}, Out: &secp256k1fx.TransferOutput{
		Amt: 200 * units.MilliAvax, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}},
	}}}, opts...)
	require.NoError(err, "X transfer from A")
	r.record("X", "BaseTx", tx.ID())
	tx, err = a.X().IssueExportTx(pChain, []*avax.TransferableOutput{toA(1500 * units.MilliAvax)}, opts...)
	require.NoError(err, "X export to P")
	r.record("X", "ExportTx", tx.ID())
	ptx, err := a.P().IssueImportTx(xChain, &ownerA, opts...)
	require.NoError(err, "P import from X")
	r.record("P", "ImportTx", ptx.ID())
	tx, err = a.X().IssueExportTx(cChain, []*avax.TransferableOutput{toA(400 * units.MilliAvax)}, opts...)
	require.NoError(err, "X export to C")
	r.record("X", "ExportTx", tx.ID())
	ctx1, err := a.C().IssueImportTx(xChain, key.EthAddress(), opts...)
	require.NoError(err, "C import from X")
	r.record("C", "ImportTx", ctx1.ID())
	ctx2, err := a.C().IssueExportTx(xChain, []*secp256k1fx.TransferOutput{{Amt: 100 * units.MilliAvax, OutputOwners: ownerA}}, opts...)
	require.NoError(err, "C export to X")
	r.record("C", "ExportTx", ctx2.ID())
	tx, err = a.X().IssueImportTx(cChain, &ownerA, opts...)
	require.NoError(err, "X import from C")
	r.record("X", "ImportTx", tx.ID())
	ptx, err = ewoq.P().IssueBaseTx([]*avax.TransferableOutput{toA(250 * units.MilliAvax)}, opts...)
	require.NoError(err, "P transfer to A")
	r.record("P", "BaseTx", ptx.ID())

	// What the activity calls for, so that an empty truth cannot pass: X
	// the funding (and its threshold up), the coin, the transfer, the export to P
	// (threshold down), the export to C, the import from C; P the import
	// (threshold up) and the transfer; C the import (its export moves no
	// UTXO of A's on C).
	sdk := harness.InstallSDK(t)
	for chain, n := range map[string]int{"P": 3, "X": 8, "C": 1} {
		r.verify(hooks[chain], avaxID, n, sdk, secret)
	}
}

// pnHook is a primary_network_address_activity webhook of a test and its
// receiver.
type pnHook struct {
	chain, id, chainID string
	filter             map[string]string
	receiver           *harness.WebhookReceiver
}

// createPrimaryHook creates a webhook watching key on chain with its own
// receiver: balance_change, and balance_threshold when filter is set.
func createPrimaryHook(t *testing.T, ctx context.Context, base, chain string, chainID ids.ID, key string,
	filter map[string]string,
) *pnHook {
	h := &pnHook{chain: chain, chainID: chainID.String(), filter: filter, receiver: harness.NewWebhookReceiver(t)}
	subs := []string{"balance_change"}
	metadata := map[string]any{"keyType": "addresses", "keys": []string{key}}
	if filter != nil {
		subs = append(subs, "balance_threshold")
		metadata["balanceThresholdFilter"] = filter
	}
	metadata["subEvents"] = map[string]any{"addressActivitySubEvents": subs}
	created := harness.CreateWebhook(t, ctx, base, map[string]any{
		"eventType": "primary_network_address_activity", "url": h.receiver.URL, "name": "watching " + key,
		"network": "fuji", "chainId": h.chainID, "metadata": metadata,
	})
	h.id = created["id"].(string)
	// Deactivated once the test is done, so that it counts against no
	// later test's quota.
	t.Cleanup(func() {
		reply := harness.WebhookCall(t, context.Background(), base, "DELETE", "/v1/webhooks/"+h.id, harness.WebhookKey, nil)
		require.Equal(t, 200, reply.Status, "deactivating webhook %s: %s", h.id, reply.Body)
	})
	return h
}

// verify waits for the n events h's chain calls for and checks that its
// receiver got exactly those, in order, each signed as the SDK checks.
func (r *pnRun) verify(h *pnHook, avaxID ids.ID, n int, sdk *harness.SDK, secret string) {
	t := r.t
	t.Helper()
	want := r.expected(h.chain, avaxID, h.filter)
	require.Len(t, want, n, "%s: the events the node's balances call for: %v", h.chain, want)
	for _, w := range want {
		t.Logf("%s: %s", h.chain, w)
	}
	h.receiver.WaitFor(t, r.ctx, fmt.Sprintf("%d %s events", n, h.chain),
		func(d []harness.WebhookDelivery) bool { return len(d) >= n })
	time.Sleep(2 * time.Second) // nothing more comes
	got := h.receiver.Deliveries()
	require.Equal(t, want, r.checkDeliveries(h.chain, h.id, h.chainID, avaxID, got),
		"%s webhook: the events the node's balances call for, in chain order", h.chain)
	for i, v := range sdk.ValidateWebhooks(t, r.ctx, secret, got) {
		require.Equal(t, "ok", v.Verify, "%s delivery %d: the SDK's signature check", h.chain, i)
		// validateWebhook checks the signature, then parses only
		// address_activity payloads.
		require.Contains(t, v.ValidateWebhook, "SDKValidationError", "%s delivery %d", h.chain, i)
	}
	t.Logf("%s webhook: %d deliveries checked", h.chain, len(got))
}

// record locates an accepted tx's block on the node and reads A's
// balances after it.
func (r *pnRun) record(chain, txType string, id ids.ID) {
	t := r.t
	t.Helper()
	x := &pnTx{chain: chain, txType: txType, id: id}
	if chain == "C" {
		x.height, x.time, x.blockHash = truth.LocateAtomicTx(t, r.ctx, r.uri, id)
	} else {
		head := truth.Height(t, r.ctx, r.uri, chain)
		for h := r.cursor[chain] + 1; h <= head && x.height == 0; h++ {
			b := truth.SnowmanBlockTxs(t, r.ctx, r.uri, chain, h)
			for _, txID := range b.TxIDs {
				if txID == id {
					x.height, x.time, x.blockHash, r.cursor[chain] = h, b.Time, b.ID, h
				}
			}
		}
		require.NotZero(t, x.height, "%s tx %s is accepted but in no block after %d", chain, id, r.cursor[chain])
	}
	x.after = r.balances(x.time)
	r.txs = append(r.txs, x)
}

func (r *pnRun) balances(at int64) map[string]primaryBalances {
	out := map[string]primaryBalances{}
	for _, chain := range []string{"P", "X", "C"} {
		out[chain] = primaryBalancesOf(r.t, r.ctx, r.uri, chain, r.addrOn(chain), at)
	}
	return out
}

// expected are the summaries of the events chain's webhook should get: for
// each of the chain's txs that moved A's balances there, a balance_change,
// then a balance_threshold when the AVAX balance of the filter's type
// crossed its threshold.
func (r *pnRun) expected(chain string, avaxID ids.ID, filter map[string]string) []string {
	var out []string
	before := r.initial[chain]
	for _, x := range r.txs {
		after := x.after[chain]
		if x.chain == chain {
			if changes := expectedChanges(before, after); len(changes) > 0 {
				out = append(out, fmt.Sprintf("%d %s %s balance_change: %s", x.height, x.id, x.txType, strings.Join(changes, "; ")))
			}
			if filter != nil {
				limit, _ := new(big.Int).SetString(filter["balanceThreshold"], 10)
				was, is := before.of(avaxID, filter["balanceType"]), after.of(avaxID, filter["balanceType"])
				dir := ""
				switch {
				case was.Cmp(limit) < 0 && is.Cmp(limit) >= 0:
					dir = "up"
				case was.Cmp(limit) >= 0 && is.Cmp(limit) < 0:
					dir = "down"
				}
				if dir != "" {
					out = append(out, fmt.Sprintf("%d %s %s balance_threshold: %s %s %s->%s %s", x.height, x.id, x.txType,
						filter["balanceType"], limit, was, is, dir))
				}
			}
		}
		before = after
	}
	return out
}

// checkDeliveries checks each delivery's envelope and its event's block
// against the node, and returns the events' summaries (as expected writes
// them).
func (r *pnRun) checkDeliveries(chain, hookID, chainID string, avaxID ids.ID, got []harness.WebhookDelivery) []string {
	t := r.t
	t.Helper()
	byID := map[string]*pnTx{}
	for _, x := range r.txs {
		byID[x.id.String()] = x
	}
	seen := map[string]bool{}
	var out []string
	for i, d := range got {
		var env struct {
			WebhookID string  `json:"webhookId"`
			EventType string  `json:"eventType"`
			MessageID string  `json:"messageId"`
			Event     pnEvent `json:"event"`
		}
		require.NoError(t, json.Unmarshal(d.Body, &env), "%s delivery %d", chain, i)
		require.Equal(t, hookID, env.WebhookID)
		require.Equal(t, "primary_network_address_activity", env.EventType)
		require.False(t, seen[env.MessageID], "%s delivery %d: messageId %s once", chain, i, env.MessageID)
		seen[env.MessageID] = true
		ev := env.Event
		x := byID[ev.TxHash]
		require.NotNil(t, x, "%s delivery %d: tx %s is one of the test's", chain, i, ev.TxHash)
		require.Equal(t, chain, x.chain)
		require.Equal(t, chainID, ev.ChainID)
		require.Equal(t, r.addrOn(chain), ev.Address, "the address as the webhook's key names it")
		require.Equal(t, x.txType, ev.TxType)
		require.Equal(t, x.height, ev.BlockHeight)
		require.Equal(t, x.time, ev.BlockTimestamp)
		if chain == "C" {
			require.Equal(t, strings.ToLower(x.blockHash), ev.BlockHash)
		} else {
			// The event names the accepted (proposervm) block; the node's
			// index API has it wrapping the block getBlockByHeight shows.
			outer, err := ids.FromString(ev.BlockHash)
			require.NoError(t, err)
			require.Equal(t, x.blockHash, truth.IndexedBlockByID(t, r.ctx, r.uri, chain, outer).InnerID)
		}
		s := fmt.Sprintf("%d %s %s %s: ", ev.BlockHeight, ev.TxHash, ev.TxType, ev.SubEvent)
		switch ev.SubEvent {
		case "balance_change":
			var changes []string
			for _, c := range ev.BalanceChanges {
				want, known := r.assets[c.AssetID]
				require.True(t, known, "asset %s is one of the test's", c.AssetID)
				require.Equal(t, want.symbol, c.Symbol, "asset %s", c.AssetID)
				require.NotNil(t, c.Denomination, "asset %s", c.AssetID)
				require.Equal(t, want.denomination, *c.Denomination, "asset %s", c.AssetID)
				net, ok := new(big.Int).SetString(c.Amount, 10)
				require.True(t, ok, "amount %q", c.Amount)
				types := map[string]*big.Int{}
				for _, bt := range c.BalanceTypes {
					types[bt.BalanceType], ok = new(big.Int).SetString(bt.Amount, 10)
					require.True(t, ok, "amount %q", bt.Amount)
				}
				changes = append(changes, primaryChange(c.AssetID, net, types))
			}
			s += strings.Join(changes, "; ")
		case "balance_threshold":
			s += fmt.Sprintf("%s %s %s->%s %s", ev.BalanceType, ev.BalanceThreshold, ev.PreviousBalance, ev.Balance, ev.Direction)
		default:
			require.Failf(t, "unexpected sub-event", "%s delivery %d: %q", chain, i, ev.SubEvent)
		}
		out = append(out, s)
	}
	return out
}
