package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/webhookdata"
	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/tests/evmtest"
)

// The delivery tests watch a fresh address on an EVM chain, send it native
// value from EWOQ and compare what their receivers got with what the
// node's blocks hold: every transaction touching the address, once or more,
// in the chain's order.

// freshAddress is an address nothing has touched yet.
func freshAddress(t testing.TB) common.Address {
	t.Helper()
	var a common.Address
	_, err := rand.Read(a[:])
	require.NoError(t, err)
	return a
}

// createActivityHook creates an address_activity webhook of chain that
// watches addr and posts to url; it returns the webhook's ID.
func createActivityHook(t *testing.T, ctx context.Context, base string, chain localnet.EVMChain, addr common.Address, url string) string {
	t.Helper()
	reply := harness.CreateWebhook(t, ctx, base, activityHookRequest(t.Name(), chain, addr, url))
	id, ok := reply["id"].(string)
	require.True(t, ok, "the webhook's id: %v", reply)
	return id
}

// activityHookRequest is the SDK's EVMAddressActivityRequest for a
// webhook of chain that watches addr and posts to url.
func activityHookRequest(name string, chain localnet.EVMChain, addr common.Address, url string) map[string]any {
	return map[string]any{
		"eventType": "address_activity", "url": url, "name": name,
		"chainId":  strconv.FormatUint(chain.EVMChainID, 10),
		"metadata": map[string]any{"addresses": []string{addr.Hex()}},
	}
}

// deliveredTx is an address_activity delivery, as far as these tests read
// it.
type deliveredTx struct {
	WebhookID string `json:"webhookId"`
	MessageID string `json:"messageId"`
	Event     struct {
		Transaction struct {
			TxHash           string `json:"txHash"`
			BlockNumber      string `json:"blockNumber"`
			TransactionIndex uint64 `json:"transactionIndex"`
			BlockHash        string `json:"blockHash"`
		} `json:"transaction"`
	} `json:"event"`
	// Delivery is the request as the receiver got it.
	Delivery harness.WebhookDelivery `json:"-"`
}

func parseDeliveries(t testing.TB, got []harness.WebhookDelivery) []deliveredTx {
	t.Helper()
	out := make([]deliveredTx, len(got))
	for i, d := range got {
		require.NoError(t, json.Unmarshal(d.Body, &out[i]), "delivery %d: %s", i, d.Body)
		out[i].Delivery = d
	}
	return out
}

// taken are the deliveries the receiver answered 2xx, in arrival order.
func taken(t testing.TB, got []harness.WebhookDelivery) []deliveredTx {
	t.Helper()
	var ok []harness.WebhookDelivery
	for _, d := range got {
		if d.Status >= 200 && d.Status < 300 {
			ok = append(ok, d)
		}
	}
	return parseDeliveries(t, ok)
}

// firstOccurrences drops repeats (the same messageId: at least once means
// an event may come again), keeping the order of first arrival.
func firstOccurrences(ds []deliveredTx) []deliveredTx {
	seen := map[string]bool{}
	var out []deliveredTx
	for _, d := range ds {
		if !seen[d.MessageID] {
			seen[d.MessageID] = true
			out = append(out, d)
		}
	}
	return out
}

// hashes are the deliveries' tx hashes, lower case.
func hashes(ds []deliveredTx) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Event.Transaction.TxHash
	}
	return out
}

// hasTxs says whether the deliveries taken hold every tx of want.
func hasTxs(t testing.TB, want []common.Hash) func([]harness.WebhookDelivery) bool {
	return func(got []harness.WebhookDelivery) bool {
		have := map[string]bool{}
		for _, d := range taken(t, got) {
			have[d.Event.Transaction.TxHash] = true
		}
		for _, h := range want {
			if !have[lowerHex(h)] {
				return false
			}
		}
		return true
	}
}

func lowerHex(h common.Hash) string { return h.Hex() } // Hex is lower case

// chainTruth lists, from the node's own blocks, receipts and traces, the
// transactions of chain that involve addr, oldest first.
func chainTruth(t testing.TB, ctx context.Context, chain localnet.EVMChain, addr common.Address) []*truth.EVMTx {
	t.Helper()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer c.Close()
	head, err := c.BlockNumber(ctx)
	require.NoError(t, err)
	tc := truth.NewEVMChain(c.RPC())
	require.NoError(t, tc.ScanTo(ctx, head))
	txs := tc.Involving(addr, 0, 0)
	slices.Reverse(txs)
	return txs
}

// requireDeliveredInOrder checks the deliveries a receiver took against
// the chain: every tx touching addr at least once, nothing else, and in
// the chain's order (block, then index) by first arrival; every delivery
// signed with secret.
func requireDeliveredInOrder(t *testing.T, ctx context.Context, chain localnet.EVMChain, addr common.Address,
	hookID string, got []harness.WebhookDelivery, secret string,
) []*truth.EVMTx {
	t.Helper()
	want := chainTruth(t, ctx, chain, addr)
	require.NotEmpty(t, want)
	wantHashes := make([]string, len(want))
	for i, x := range want {
		wantHashes[i] = lowerHex(x.Hash)
	}
	ds := taken(t, got)
	for _, d := range ds {
		require.Equal(t, hookID, d.WebhookID)
		if secret != "" {
			require.Equal(t, webhookdata.Sign(secret, d.Delivery.Body), d.Delivery.Header.Get(webhookdata.SignatureHeader))
		}
	}
	first := firstOccurrences(ds)
	require.Equal(t, wantHashes, hashes(first), "every tx touching the address, once, in the chain's order")
	for i, d := range first {
		require.Equal(t, strconv.FormatUint(want[i].Block.Number, 10), d.Event.Transaction.BlockNumber)
		require.Equal(t, want[i].Index, d.Event.Transaction.TransactionIndex)
	}
	return want
}

// sendTo sends n value transfers from EWOQ to addr and waits for their
// receipts.
func sendTo(t testing.TB, ctx context.Context, c *evmtest.Client, addr common.Address, n int) []common.Hash {
	t.Helper()
	out := make([]common.Hash, 0, n)
	for i := range n {
		h, err := c.SendValue(ctx, addr, big.NewInt(int64(i+1)))
		require.NoError(t, err)
		out = append(out, h)
	}
	_, err := c.WaitReceipts(ctx, out...)
	require.NoError(t, err)
	return out
}

// rotateSecret rotates the shared secret through the API and returns the
// new one.
func rotateSecret(t *testing.T, ctx context.Context, base string) string {
	t.Helper()
	reply := harness.WebhookCall(t, ctx, base, http.MethodPost, "/v1/webhooks:generateOrRotateSharedSecret", harness.WebhookKey, nil)
	require.Equal(t, http.StatusCreated, reply.Status, "rotating the secret: %s", reply.Body)
	var out struct {
		Secret string `json:"secret"`
	}
	reply.Decode(t, &out)
	require.NotEmpty(t, out.Secret)
	return out.Secret
}

// percentile is the p-th percentile (0..100) of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)-1)*p/100]
}
