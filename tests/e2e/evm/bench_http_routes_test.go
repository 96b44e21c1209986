package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	rand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// The routes BenchmarkEVMHTTPRoutesAt1M loads besides the address pages:
// avadata's getTransaction next to the node's eth_getTransactionByHash,
// listErc20Balances of an address holding httpBenchHeldTokens real tokens,
// and the trivial route.

// httpBenchHeldTokens is how many real TestERC20 contracts are deployed and
// minted to the holder (listErc20Balances' load).
const httpBenchHeldTokens = 100

// loads are the benchmark's sides, in the order they run each round.
func (f *httpBench) loads() []harness.LoadSide {
	get := func(ctx context.Context, u string) *http.Request {
		return harness.MustRequest(ctx, http.MethodGet, u, nil)
	}
	return []harness.LoadSide{
		{Name: "page", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return get(ctx, f.listURL(f.addrs[rng.IntN(len(f.addrs))]))
		}},
		{Name: "deep", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return get(ctx, f.deepURLs[rng.IntN(len(f.deepURLs))])
		}},
		{Name: "eth", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return f.txByHash(ctx, f.realHashes[rng.IntN(len(f.realHashes))])
		}},
		{Name: "tx", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return get(ctx, f.txURL(f.realHashes[rng.IntN(len(f.realHashes))]))
		}},
		{Name: "txsynth", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return get(ctx, f.txURL(benchHash("tx", 1+rng.Uint64N(uint64(f.synthTxs)))))
		}},
		{Name: "erc20", Next: func(ctx context.Context, _ *rand.Rand) *http.Request {
			return get(ctx, f.erc20URL())
		}},
		{Name: "trivial", Next: func(ctx context.Context, _ *rand.Rand) *http.Request {
			return get(ctx, f.net.BaseURL()+harness.BenchTrivialPath)
		}},
	}
}

// reportRatios reports each avadata side's rate against the node's own
// eth_getTransactionByHash (the targets: tx ≥ 1.0, page and erc20
// ≥ 0.7).
func reportRatios(b *testing.B, rates map[string]float64) {
	for _, side := range []string{"page", "deep", "tx", "txsynth", "erc20", "trivial"} {
		if rates["eth"] > 0 {
			b.ReportMetric(rates[side]/rates["eth"], side+"/eth-x")
		}
	}
}

// sendHeldTokens deploys httpBenchHeldTokens TestERC20 contracts and mints
// each to the holder (token i: i+1 whole tokens), in bursts, adding the
// txs to the real hashes.
func (f *httpBench) sendHeldTokens(b *testing.B, ctx context.Context, c *evmtest.Client) {
	const burstSize = 50
	send := func(what string, one func(i int) (common.Hash, error)) {
		for start := 0; start < httpBenchHeldTokens; start += burstSize {
			var burst []common.Hash
			for i := start; i < min(start+burstSize, httpBenchHeldTokens); i++ {
				h, err := one(i)
				if err != nil {
					b.Fatalf("%s %d: %v", what, i, err)
				}
				burst = append(burst, h)
			}
			receipts, err := c.WaitReceipts(ctx, burst...)
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range receipts {
				if r.Status != 1 {
					b.Fatalf("%s: %s failed in block %d", what, r.TxHash, r.BlockNumber)
				}
			}
			f.realHashes = append(f.realHashes, burst...)
		}
	}
	send("deploying held token", func(i int) (common.Hash, error) {
		sent, err := c.SendDeploy(ctx, contracts.TestERC20(), fmt.Sprintf("Held %03d", i), fmt.Sprintf("H%03d", i))
		f.heldTokens = append(f.heldTokens, sent.Contract)
		return sent.Hash, err
	})
	send("minting held token", func(i int) (common.Hash, error) {
		return c.SendTransact(ctx, f.heldTokens[i], contracts.TestERC20(), "mint", nil, f.holder, heldAmount(i))
	})
}

// heldAmount is what the holder holds of held token i.
func heldAmount(i int) *big.Int {
	return new(big.Int).Mul(big.NewInt(int64(i+1)), big.NewInt(1e18))
}

// erc20Page is the part of a listErc20Balances reply the checks read.
type erc20Page struct {
	NextPageToken      string `json:"nextPageToken"`
	Erc20TokenBalances []struct {
		Address string `json:"address"`
		Symbol  string `json:"symbol"`
		Balance string `json:"balance"`
	} `json:"erc20TokenBalances"`
}

// heldBalances pages through the holder's ERC-20 balances at the real head
// and returns them by token address (lower case), with the symbols shown.
func (f *httpBench) heldBalances(ctx context.Context) (balances, symbols map[string]string, err error) {
	balances, symbols = map[string]string{}, map[string]string{}
	for next := f.erc20URL(); next != ""; {
		status, raw, err := harness.HTTPGet(ctx, next)
		var page erc20Page
		if err == nil && status == http.StatusOK {
			err = json.Unmarshal(raw, &page)
		}
		if err != nil || status != http.StatusOK {
			return nil, nil, fmt.Errorf("%s: %d %v: %.300s", next, status, err, raw)
		}
		for _, t := range page.Erc20TokenBalances {
			balances[strings.ToLower(t.Address)], symbols[strings.ToLower(t.Address)] = t.Balance, t.Symbol
		}
		next = ""
		if page.NextPageToken != "" {
			next = f.erc20URL() + "&pageToken=" + url.QueryEscape(page.NextPageToken)
		}
	}
	return balances, symbols, nil
}

// waitHeldTokens waits (two minutes at most) until the holder's listing
// shows every held token with its amount and its symbol (the metadata
// reader has read them), so that the load measures serving, not a first
// read.
func (f *httpBench) waitHeldTokens(b *testing.B, ctx context.Context) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		balances, symbols, err := f.heldBalances(ctx)
		missing := 0
		for i, token := range f.heldTokens {
			key := strings.ToLower(token.Hex())
			if balances[key] != heldAmount(i).String() || symbols[key] != fmt.Sprintf("H%03d", i) {
				missing++
			}
		}
		if err == nil && missing == 0 && len(balances) == httpBenchHeldTokens {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("the holder's listErc20Balances: %d tokens, %d of %d held ones missing or without metadata (%v)",
				len(balances), missing, httpBenchHeldTokens, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkRouteResponses checks the added sides' replies: getTransaction of a
// real and a synthetic hash, the holder's first balance page, the trivial
// route.
func (f *httpBench) checkRouteResponses(b *testing.B, ctx context.Context) {
	for _, h := range []string{f.realHashes[0].Hex(), benchHash("tx", uint64(f.synthTxs)).Hex()} {
		status, raw, err := harness.HTTPGet(ctx, f.txURL(common.HexToHash(h)))
		if err != nil || status != http.StatusOK || !bytes.Contains(bytes.ToLower(raw), []byte(strings.ToLower(h))) {
			b.Fatalf("getTransaction %s: %d %v %.300s", h, status, err, raw)
		}
	}
	status, raw, err := harness.HTTPGet(ctx, f.erc20URL())
	var page erc20Page
	if err == nil && status == http.StatusOK {
		err = json.Unmarshal(raw, &page)
	}
	if err != nil || status != http.StatusOK || len(page.Erc20TokenBalances) != 10 || page.NextPageToken == "" {
		b.Fatalf("listErc20Balances of the holder: %d %v %.300s", status, err, raw)
	}
	// The whole listing after the restart: balances read from the node at
	// the real head, every held token there.
	f.waitHeldTokens(b, ctx)
	if status, raw, err := harness.HTTPGet(ctx, f.net.BaseURL()+harness.BenchTrivialPath); err != nil || status != http.StatusOK {
		b.Fatalf("%s: %d %v %.300s", harness.BenchTrivialPath, status, err, raw)
	}
}

func (f *httpBench) txURL(hash common.Hash) string {
	return fmt.Sprintf("%s/v1/chains/%d/transactions/%s", f.net.BaseURL(), f.chain.EVMChainID, hash.Hex())
}

// erc20URL is the holder's first ERC-20 balance page at the real head: the
// node has the state of no synthetic block, so the default block (the
// indexed height, synthetic) would be a 503.
func (f *httpBench) erc20URL() string {
	return fmt.Sprintf("%s/v1/chains/%d/addresses/%s/balances:listErc20?pageSize=10&blockNumber=%d",
		f.net.BaseURL(), f.chain.EVMChainID, f.holder.Hex(), f.realHead)
}
