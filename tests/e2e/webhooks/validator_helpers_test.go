package webhooks

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	pwallet "github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// What the validator and staking-reward webhook tests share: fresh P-chain
// keys funded by EWOQ, the create requests, the deliveries as generic
// events, and the checks every delivery passes (the exact events expected
// from the node's own data, each once, in chain order, signed as the SDK
// verifies).

// pKey is a fresh key with its P wallet.
type pKey struct {
	key  *secp256k1.PrivateKey
	addr ids.ShortID
	// bech32 is the address without chain prefix ("local1...").
	bech32 string
}

func newPKey(t *testing.T) *pKey {
	t.Helper()
	return newPKeyOn(t, constants.GetHRP(constants.LocalID))
}

// newPKeyOn is a fresh key of the network whose addresses have hrp.
func newPKeyOn(t *testing.T, hrp string) *pKey {
	t.Helper()
	k, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	a, err := address.FormatBech32(hrp, k.Address().Bytes())
	require.NoError(t, err)
	return &pKey{key: k, addr: k.Address(), bech32: a}
}

func (k *pKey) owner() *secp256k1fx.OutputOwners {
	return &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{k.addr}}
}

// wallet is k's P wallet, knowing subnets' owners.
func (k *pKey) wallet(t *testing.T, ctx context.Context, uri string, subnets ...ids.ID) pwallet.Wallet {
	t.Helper()
	w, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(k.key), primary.WalletConfig{SubnetIDs: subnets})
	require.NoError(t, err)
	return w
}

func pOpts(ctx context.Context) []common.Option {
	return []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
}

// fundOnP sends each key its amount of AVAX on P from EWOQ, in one BaseTx;
// it returns the AVAX asset ID.
func fundOnP(t *testing.T, ctx context.Context, uri string, amounts map[*pKey]uint64) ids.ID {
	t.Helper()
	w, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{})
	require.NoError(t, err, "EWOQ P wallet")
	avaxID := w.Builder().Context().AVAXAssetID
	var outs []*avax.TransferableOutput
	for k, amount := range amounts {
		outs = append(outs, &avax.TransferableOutput{Asset: avax.Asset{ID: avaxID},
			Out: &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: *k.owner()}})
	}
	_, err = w.IssueBaseTx(outs, pOpts(ctx)...)
	require.NoError(t, err, "funding on P")
	return avaxID
}

// validatorHookRequest is the SDK's ValidatorActivityRequest: one key of
// keyType, the sub-events, and narrowing or threshold members in extra.
func validatorHookRequest(url, keyType, key string, subEvents []string, extra map[string]any) map[string]any {
	meta := map[string]any{"keyType": keyType, "keys": []string{key},
		"subEvents": map[string]any{"validatorActivitySubEvents": subEvents}}
	for k, v := range extra {
		meta[k] = v
	}
	return map[string]any{"eventType": "validator_activity", "url": url, "network": "fuji", "metadata": meta}
}

// hookEvent is one delivery: the envelope and its event, generic.
type hookEvent struct {
	WebhookID string         `json:"webhookId"`
	EventType string         `json:"eventType"`
	MessageID string         `json:"messageId"`
	Event     map[string]any `json:"event"`
}

// expectDeliveries waits until r got want's count of deliveries, a little
// longer for any extra, and checks them: exactly want's events in order
// (the chain's), each once, every one of eventType for webhook id, and
// every signature accepted by the SDK's WebhookSecurity.verify with the
// shared secret of the node at base.
func expectDeliveries(t *testing.T, ctx context.Context, base string, r *harness.WebhookReceiver, id, eventType string,
	want []map[string]any,
) {
	t.Helper()
	r.WaitFor(t, ctx, "the "+eventType+" events", func(got []harness.WebhookDelivery) bool { return len(got) >= len(want) })
	time.Sleep(3 * time.Second) // time for an event that should not come
	got := r.Deliveries()
	events := make([]map[string]any, len(got))
	seen := map[string]bool{}
	for i, d := range got {
		var e hookEvent
		require.NoError(t, json.Unmarshal(d.Body, &e), "delivery %d: %s", i, d.Body)
		require.Equal(t, id, e.WebhookID, "delivery %d", i)
		require.Equal(t, eventType, e.EventType, "delivery %d", i)
		require.False(t, seen[e.MessageID], "delivery %d repeats message %s", i, e.MessageID)
		seen[e.MessageID] = true
		events[i] = e.Event
	}
	require.Equal(t, want, events, "webhook %s: the events, in chain order", id)
	secret := harness.WebhookSecret(t, ctx, base)
	for i, v := range harness.InstallSDK(t).ValidateWebhooks(t, ctx, secret, got) {
		require.Equal(t, "ok", v.Verify, "delivery %d: the SDK's signature check", i)
	}
}

// pBlockEvent is the members every event of P block h has, from the node:
// the P-chain's ID, the height, the accepted block ID and its time.
func pBlockEvent(t *testing.T, ctx context.Context, uri, pChainID, subEvent string, h uint64) map[string]any {
	t.Helper()
	return map[string]any{"subEvent": subEvent, "chainId": pChainID, "blockHeight": float64(h),
		"blockHash": truth.PBlockOuterID(t, ctx, uri, h).String(), "blockTimestamp": float64(truth.PBlockTime(t, truth.PBlock(t, ctx, uri, h)))}
}

// withMembers adds members to e and returns it.
func withMembers(e map[string]any, members map[string]any) map[string]any {
	for k, v := range members {
		e[k] = v
	}
	return e
}

// l1Refund is the UTXO of P-chain state an L1 tx (a disable, a removal)
// refunds the validator's balance to: output len(outs) of the tx, among
// owner's UTXOs (platform.getUTXOs).
func l1Refund(t *testing.T, ctx context.Context, uri string, owner *pKey, txID ids.ID, outs int) truth.UTXO {
	t.Helper()
	id := txID.Prefix(uint64(outs))
	for _, u := range truth.UTXOs(t, ctx, uri, "P", "", "P-"+owner.bech32) {
		if u.ID == id {
			return u
		}
	}
	t.Fatalf("the refund UTXO %s of %s is not among %s's UTXOs", id, txID, owner.bech32)
	return truth.UTXO{}
}

// convertedValidations are the validation IDs a ConvertSubnetToL1Tx gave,
// by node: the subnet's ID with the validator's index in the tx as the
// node accepted it (the validators sorted by node ID).
func convertedValidations(t *testing.T, ctx context.Context, uri string, convertTx ids.ID) map[ids.NodeID]ids.ID {
	t.Helper()
	tx, ok := truth.ParsedPTx(t, ctx, uri, convertTx).Unsigned.(*txs.ConvertSubnetToL1Tx)
	require.True(t, ok, "%s is a ConvertSubnetToL1Tx", convertTx)
	out := map[ids.NodeID]ids.ID{}
	for i, v := range tx.Validators {
		node, err := ids.ToNodeID(v.NodeID)
		require.NoError(t, err)
		out[node] = tx.Subnet.Append(uint32(i))
	}
	return out
}
