package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// BenchmarkWebhooksLatency measures, per transaction on each EVM chain, the
// time from the node answering its receipt (the block is accepted) to its
// address_activity delivery reaching a receiver on loopback: the follower's
// poll, the block's commit with its outbox rows, and the delivery. It also
// reports the time from eth_sendRawTransaction returning to the delivery.
func BenchmarkWebhooksLatency(b *testing.B) {
	for _, chain := range env.Net(b).EVMChains() {
		b.Run(chain.Name, func(b *testing.B) { benchWebhooksLatency(b, chain) })
	}
}

func benchWebhooksLatency(b *testing.B, chain localnet.EVMChain) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	receiver := newBenchReceiver(b)
	addr := freshAddress(b)
	createBenchHook(b, ctx, env.Base(b), chain, addr, receiver.URL)
	var accepted, sent []time.Duration
	for i := range b.N {
		h, err := c.SendValue(ctx, addr, big.NewInt(int64(i+1)))
		if err != nil {
			b.Fatal(err)
		}
		returned := time.Now()
		acceptedAt := pollUntil(b, ctx, func() bool {
			r, err := c.Receipt(ctx, h)
			return err == nil && r != nil
		})
		var at time.Time
		pollUntil(b, ctx, func() bool {
			var ok bool
			at, ok = receiver.at(h)
			return ok
		})
		accepted = append(accepted, at.Sub(acceptedAt))
		sent = append(sent, at.Sub(returned))
	}
	slices.Sort(accepted)
	slices.Sort(sent)
	b.ReportMetric(ms(percentile(accepted, 50)), "p50-ms")
	b.ReportMetric(ms(percentile(accepted, 99)), "p99-ms")
	b.ReportMetric(ms(percentile(sent, 50)), "sent-p50-ms")
	b.ReportMetric(ms(percentile(sent, 99)), "sent-p99-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchReceiver records when each tx's first delivery arrived, answering
// 200 at once. (harness.WebhookReceiver and harness.CreateWebhook take a
// *testing.T; a benchmark has a *testing.B.)
type benchReceiver struct {
	*httptest.Server
	mu      sync.Mutex
	arrived map[string]time.Time
}

func newBenchReceiver(b *testing.B) *benchReceiver {
	r := &benchReceiver{arrived: map[string]time.Time{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		at := time.Now()
		body, err := io.ReadAll(req.Body)
		var d deliveredTx
		if err == nil && json.Unmarshal(body, &d) == nil {
			r.mu.Lock()
			if _, ok := r.arrived[d.Event.Transaction.TxHash]; !ok {
				r.arrived[d.Event.Transaction.TxHash] = at
			}
			r.mu.Unlock()
		}
	}))
	b.Cleanup(r.Close)
	return r
}

func (r *benchReceiver) at(h common.Hash) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	at, ok := r.arrived[h.Hex()]
	return at, ok
}

// createBenchHook creates the benchmark's webhook with the management key.
func createBenchHook(b *testing.B, ctx context.Context, base string, chain localnet.EVMChain, addr common.Address, url string) {
	body, err := json.Marshal(activityHookRequest(b.Name(), chain, addr, url))
	if err != nil {
		b.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/webhooks", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-glacier-api-key", harness.WebhookKey)
	resp, err := harness.HTTPClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		reply, _ := io.ReadAll(resp.Body)
		b.Fatalf("creating the webhook: %d %s", resp.StatusCode, reply)
	}
}
