package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	avarpc "github.com/ava-labs/avalanchego/utils/rpc"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// replicaDocument is what avadata.exportWebhooks returns and
// avadata.importWebhooks takes.
type replicaDocument struct {
	Secret   string            `json:"secret"`
	Webhooks []json.RawMessage `json:"webhooks"`
}

// TestWebhooksReplicasDeliverTheSameEvents runs one webhook on both
// replicas of the 2-node network, as the README's "Webhooks across
// replicas" says: created on node A, copied to node B with the admin
// JSON-RPC's avadata.exportWebhooks and avadata.importWebhooks. Every C-chain
// tx of the watched address then reaches the receiver twice, once from each
// node, with the same messageId, the same body bytes and the same
// signature, which the official SDK's validateWebhook accepts with the one
// secret; each event is the tx the node's eth_getTransactionReceipt has.
// Bad documents are refused whole, and a later change on one replica (A
// deactivates the webhook) is not carried to the other: B alone delivers.
func TestWebhooksReplicasDeliverTheSameEvents(t *testing.T) {
	tn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	uris := tn.Net.URIs()
	chainPath := "/ext/bc/" + tn.Net.ChainID().String()
	baseA, baseB := uris[0]+chainPath, uris[1]+chainPath
	eth := truth.EthClient(t, ctx, uris[0])
	var evmChainID hexutil.Big
	require.NoError(t, eth.CallContext(ctx, &evmChainID, "eth_chainId"))

	receiver := harness.NewWebhookReceiver(t)
	watched := genesis.EWOQKey.EthAddress() // the sender of harness.TxIssuer's C-chain txs
	request := map[string]any{"eventType": "address_activity",
		"url": receiver.URL, "chainId": evmChainID.ToInt().String(), "name": "redundant",
		"metadata": map[string]any{"addresses": []string{watched.Hex()}}, "includeLogs": true}
	// A freshly started network's avadata knows the C-chain's EVM chain ID
	// and the node's height once its follower has read them (400 and 503
	// until then).
	var created map[string]any
	require.Eventually(t, func() bool {
		reply := harness.WebhookCall(t, ctx, baseA, "POST", "/v1/webhooks", harness.WebhookKey, request)
		if reply.Status == 503 || reply.Status == 400 && strings.Contains(string(reply.Body), "not read yet") {
			return false
		}
		require.Equal(t, 201, reply.Status, "creating a webhook: %s", reply.Body)
		reply.Decode(t, &created)
		return true
	}, time.Minute, 500*time.Millisecond)
	id, _ := created["id"].(string)
	require.NotEmpty(t, id, "created webhook: %v", created)

	var doc replicaDocument
	require.NoError(t, truth.Call(ctx, baseA+"/rpc", "avadata.exportWebhooks", struct{}{}, &doc, managementKey()))
	secret := harness.WebhookSecret(t, ctx, baseA)
	require.Equal(t, secret, doc.Secret, "the export holds A's shared secret")
	record := exportedRecord(t, doc, id)
	secretB := harness.WebhookSecret(t, ctx, baseB)

	t.Run("bad documents change nothing", func(t *testing.T) {
		unknownChain := editRecord(t, record, func(m map[string]any) {
			m["id"] = "5d6f2a44-8c1e-4b0a-9f3d-7e2b1c0a9d88"
			m["chainId"] = "999999"
		})
		noID := editRecord(t, record, func(m map[string]any) { delete(m, "id") })
		for _, tc := range []struct {
			name     string
			doc      replicaDocument
			fragment string
		}{
			{"unknown chain", replicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{record, unknownChain}}, "webhooks[1]: unsupported chainId '999999'"},
			{"malformed record", replicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{record, noID}}, "webhooks[1]: id is required"},
			{"not an object", replicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{json.RawMessage(`"x"`)}}, "webhooks[0]: "},
			{"no secret", replicaDocument{Webhooks: []json.RawMessage{record}}, "secret is required"},
		} {
			var reply any
			err := truth.Call(ctx, baseB+"/rpc", "avadata.importWebhooks", tc.doc, &reply, managementKey())
			require.ErrorContains(t, err, tc.fragment, "%s: a JSON-RPC error naming the record", tc.name)
			require.NotContains(t, err.Error(), doc.Secret, "%s: the secret is never in a message", tc.name)
		}
		for _, missing := range []string{id, "5d6f2a44-8c1e-4b0a-9f3d-7e2b1c0a9d88"} {
			reply := harness.WebhookCall(t, ctx, baseB, "GET", "/v1/webhooks/"+missing, harness.WebhookKey, nil)
			require.Equal(t, 404, reply.Status, "webhook %s on B after the refused imports: %s", missing, reply.Body)
		}
		require.Equal(t, secretB, harness.WebhookSecret(t, ctx, baseB), "B's secret after the refused imports")
	})

	var imported struct {
		Webhooks []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"webhooks"`
	}
	require.NoError(t, truth.Call(ctx, baseB+"/rpc", "avadata.importWebhooks", doc, &imported, managementKey()))
	require.True(t, slices.ContainsFunc(imported.Webhooks, func(w struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}) bool {
		return w.ID == id && w.Status == "active"
	}), "import reply %+v", imported)
	require.Equal(t, secret, harness.WebhookSecret(t, ctx, baseB), "B signs with A's secret")
	onA := harness.WebhookCall(t, ctx, baseA, "GET", "/v1/webhooks/"+id, harness.WebhookKey, nil)
	onB := harness.WebhookCall(t, ctx, baseB, "GET", "/v1/webhooks/"+id, harness.WebhookKey, nil)
	require.Equal(t, 200, onB.Status, "%s", onB.Body)
	require.JSONEq(t, string(onA.Body), string(onB.Body), "B serves the webhook as A does")

	// Activity after the import: both replicas deliver it.
	x := harness.NewTxIssuer(t, ctx, uris[0])
	sent := x.IssueC(t, ctx, 3)
	byMessage := waitForCopies(t, ctx, receiver, sent, 2)
	checked := 0
	for messageID, copies := range byMessage {
		checkAgainstReceipt(t, ctx, eth, copies[0], id)
		if !slices.Contains(sent, decodeDelivery(t, copies[0]).Event.Transaction.TxHash) {
			continue // another test's tx of the address, before the import
		}
		require.Len(t, copies, 2, "messageId %s: one delivery from each replica", messageID)
		require.Equal(t, copies[0].Body, copies[1].Body, "messageId %s: the same body bytes from both", messageID)
		require.Equal(t, copies[0].Header.Get("x-signature"), copies[1].Header.Get("x-signature"), "messageId %s: the same signature", messageID)
		checked++
	}
	require.Equal(t, len(sent), checked, "every sent tx, from both replicas")
	sdk := harness.InstallSDK(t)
	all := receiver.Deliveries()
	for i, v := range sdk.ValidateWebhooks(t, ctx, secret, all) {
		require.Equal(t, "ok", v.ValidateWebhook, "the SDK's validateWebhook on delivery %d with the one secret", i)
	}
	t.Logf("%d events, each delivered by both replicas with one messageId and signature (%d deliveries)", checked, len(all))

	// A change on one replica stays there: deactivated on A, the webhook
	// still runs on B, which alone delivers the next tx.
	reply := harness.WebhookCall(t, ctx, baseA, "PATCH", "/v1/webhooks/"+id, harness.WebhookKey, map[string]any{"status": "inactive"})
	require.Equal(t, 200, reply.Status, "%s", reply.Body)
	before := len(receiver.Deliveries())
	late := x.IssueC(t, ctx, 1)
	waitForCopies(t, ctx, receiver, late, 1)
	time.Sleep(3 * time.Second) // A would have sent by now
	byMessage = groupByMessage(t, receiver.Deliveries()[before:])
	for messageID, copies := range byMessage {
		require.Len(t, copies, 1, "messageId %s: only B delivers after A's deactivation", messageID)
		checkAgainstReceipt(t, ctx, eth, copies[0], id)
	}
	t.Logf("after A's deactivation: %d events, each delivered once (by B)", len(byMessage))
	reply = harness.WebhookCall(t, ctx, baseB, "PATCH", "/v1/webhooks/"+id, harness.WebhookKey, map[string]any{"status": "inactive"})
	require.Equal(t, 200, reply.Status, "deactivating on B: %s", reply.Body)
}

// exportedRecord finds webhook id's record in an export.
func exportedRecord(t *testing.T, doc replicaDocument, id string) json.RawMessage {
	t.Helper()
	for _, raw := range doc.Webhooks {
		var rec struct {
			ID string `json:"id"`
		}
		require.NoError(t, json.Unmarshal(raw, &rec))
		if rec.ID == id {
			return raw
		}
	}
	t.Fatalf("webhook %s is not in the export (%d records)", id, len(doc.Webhooks))
	return nil
}

// editRecord returns a copy of record changed by change.
func editRecord(t *testing.T, record json.RawMessage, change func(m map[string]any)) json.RawMessage {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(record, &m))
	change(m)
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

// decodeDelivery reads one delivery.
func decodeDelivery(t *testing.T, d harness.WebhookDelivery) deliveredTx {
	t.Helper()
	return parseDeliveries(t, []harness.WebhookDelivery{d})[0]
}

// groupByMessage groups deliveries by messageId.
func groupByMessage(t *testing.T, deliveries []harness.WebhookDelivery) map[string][]harness.WebhookDelivery {
	t.Helper()
	out := map[string][]harness.WebhookDelivery{}
	for _, d := range deliveries {
		id := decodeDelivery(t, d).MessageID
		require.NotEmpty(t, id, "delivery without messageId: %s", d.Body)
		out[id] = append(out[id], d)
	}
	return out
}

// waitForCopies waits until every tx of sent has arrived copies times and
// returns the deliveries by messageId.
func waitForCopies(t *testing.T, ctx context.Context, r *harness.WebhookReceiver, sent []string, copies int) map[string][]harness.WebhookDelivery {
	t.Helper()
	r.WaitFor(t, ctx, fmt.Sprintf("%d copies of %d txs", copies, len(sent)), func(got []harness.WebhookDelivery) bool {
		seen := map[string]int{}
		for _, d := range got {
			var env deliveredTx
			if json.Unmarshal(d.Body, &env) == nil {
				seen[env.Event.Transaction.TxHash]++
			}
		}
		for _, h := range sent {
			if seen[h] < copies {
				return false
			}
		}
		return true
	})
	time.Sleep(time.Second) // late copies arrive too
	return groupByMessage(t, r.Deliveries())
}

// checkAgainstReceipt checks a delivery's tx against the node's
// eth_getTransactionReceipt.
func checkAgainstReceipt(t *testing.T, ctx context.Context, eth interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
}, d harness.WebhookDelivery, webhookID string,
) {
	t.Helper()
	env := decodeDelivery(t, d)
	require.Equal(t, webhookID, env.WebhookID)
	tx := env.Event.Transaction
	var receipt struct {
		BlockNumber hexutil.Big `json:"blockNumber"`
		BlockHash   string      `json:"blockHash"`
		Status      string      `json:"status"`
	}
	require.NoError(t, eth.CallContext(ctx, &receipt, "eth_getTransactionReceipt", tx.TxHash))
	require.Equal(t, receipt.BlockNumber.ToInt().String(), tx.BlockNumber, "tx %s: block number", tx.TxHash)
	require.Equal(t, receipt.BlockHash, tx.BlockHash, "tx %s: block hash", tx.TxHash)
}

// managementKey sends the management key with an admin JSON-RPC call: the
// webhook copies need one, like the management operations.
func managementKey() avarpc.Option { return avarpc.WithHeader("x-glacier-api-key", harness.WebhookKey) }
