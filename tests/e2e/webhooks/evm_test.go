package webhooks

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// evmActivityTimeout bounds one chain's activity, its indexing and the
// deliveries.
const evmActivityTimeout = 5 * time.Minute

// transferTopic is the topic0 of ERC-20 and ERC-721 Transfer logs (an
// ERC-1155 transfer logs TransferSingle or TransferBatch).
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// evmWatch is one address_activity webhook of the test with its receiver
// and the txs the node's own data says it must get.
type evmWatch struct {
	name     string
	request  map[string]any
	id       string
	receiver *harness.WebhookReceiver
	// wants selects, among the txs that involve the watched address, those
	// the webhook gets.
	wants func(x *truth.EVMTx) bool
	addr  common.Address
	logs  bool // includeLogs and includeInternalTxs
}

// TestWebhooksEVMAddressActivity makes real activity on both local EVM
// chains (the C-chain and the subnet-evm chain) and checks that every
// address_activity webhook gets exactly the txs that touch its addresses,
// each once, in chain order, with every member of the SDK's
// TransactionEvent as the node's eth_getTransactionByHash,
// eth_getTransactionReceipt, callTracer trace and block say, signed so that
// the official SDK's validateWebhook accepts each delivery.
func TestWebhooksEVMAddressActivity(t *testing.T) {
	base := env.Base(t)
	secret := harness.WebhookSecret(t, t.Context(), base)
	sdk := harness.InstallSDK(t)
	for _, chain := range env.Net(t).EVMChains() {
		t.Run(chain.Name, func(t *testing.T) {
			t.Parallel() // both chains' activity at once
			ctx, cancel := context.WithTimeout(t.Context(), evmActivityTimeout)
			defer cancel()
			s := newEVMScene(t, ctx, chain)
			watches := []*evmWatch{
				{name: "user with logs and internal txs", addr: s.user.Address(), logs: true},
				{name: "recipient", addr: s.recipient},
				{name: "user, Transfer logs only", addr: s.user.Address(), wants: func(x *truth.EVMTx) bool {
					for _, l := range x.Receipt.Logs {
						if len(l.Topics) > 0 && l.Topics[0] == transferTopic {
							return true
						}
					}
					return false
				}},
				{name: "ERC-20 contract, watched before its creation", addr: s.erc20},
			}
			for _, w := range watches {
				w.receiver = harness.NewWebhookReceiver(t)
				w.request = map[string]any{"eventType": "address_activity", "url": w.receiver.URL, "chainId": s.chainID(),
					"name": w.name, "metadata": map[string]any{"addresses": []string{w.addr.Hex()}}}
				if w.wants != nil {
					w.request["metadata"].(map[string]any)["eventSignatures"] = []string{transferTopic.Hex()}
				}
				if w.logs {
					w.request["includeLogs"], w.request["includeInternalTxs"] = true, true
				}
				reply := harness.CreateWebhook(t, ctx, base, w.request)
				w.id, _ = reply["id"].(string)
				require.NotEmpty(t, w.id, "created webhook: %v", reply)
			}

			s.makeActivity(t, ctx)
			s.transfersOfDescribedTokens(t, ctx, base)
			harness.WaitEVMIndexed(t, ctx, base, s.chain.BlockchainID.String(), s.last)
			chainTruth := truth.NewEVMChain(s.ewoq.RPC())
			require.NoError(t, chainTruth.ScanTo(ctx, s.last), "reading %s from the node", chain.Name)
			for _, h := range s.sent {
				_, ok := chainTruth.Tx(h)
				require.True(t, ok, "%s: sent tx %s not in the blocks up to %d", chain.Name, h, s.last)
			}

			check := newEVMEventCheck(t, ctx, s)
			messageIDs := map[string]string{}
			for _, w := range watches {
				// The watched addresses are fresh: every tx that involves
				// one is the test's own, after the webhook was created.
				var want []*truth.EVMTx
				involving := chainTruth.Involving(w.addr, 0, 0)
				for i := len(involving) - 1; i >= 0; i-- { // oldest first
					if w.wants == nil || w.wants(involving[i]) {
						want = append(want, involving[i])
					}
				}
				require.NotEmpty(t, want, w.name)
				got := w.receiver.WaitFor(t, ctx, w.name, func(d []harness.WebhookDelivery) bool { return len(d) >= len(want) })
				time.Sleep(time.Second) // nothing more comes
				got = w.receiver.Deliveries()
				require.Len(t, got, len(want), "%s: one delivery per tx that touches %s", w.name, w.addr)
				for i, d := range got {
					event := check.delivery(w, d, want[i])
					id := event["messageId"].(string)
					require.NotContains(t, messageIDs, id, "%s: messageId of %s seen on %s", w.name, want[i].Hash, messageIDs[id])
					messageIDs[id] = w.name + " " + want[i].Hash.Hex()
				}
				t.Logf("%s on %s: %d deliveries checked", w.name, chain.Name, len(got))
				for i, v := range sdk.ValidateWebhooks(t, ctx, secret, got) {
					require.Equal(t, "ok", v.ValidateWebhook, "%s: the SDK's validateWebhook on delivery %d", w.name, i)
					require.Equal(t, "address_activity", v.EventType, "%s: delivery %d", w.name, i)
				}
			}
		})
	}
}
