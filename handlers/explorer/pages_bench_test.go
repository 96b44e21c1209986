package explorer_test

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers"
	"github.com/avadata/avadata/handlers/explorer"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/handlertest/synthetic"
	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// BenchmarkExplorerPages times every explorer page type over a real Badger
// store of AVADATA_BENCH_EXPLORER_TXS synthetic EVM transactions (default
// 1M, the size at which a page's server time should stay within 50 ms at
// the 99th percentile), served by the whole HTTP layer as the VM wires it
// (handlers.New, the store as the readers), so each page's in-process
// API calls run for real. Per page it reports the server time (ServeHTTP
// into a recorder, to the full body) at the 50th and 99th percentile and
// the maximum, one client and benchPageClients at once, the same through a
// loopback HTTP server, and the page's bytes. Nothing is asserted on speed.
//
// A page this build does not serve (the router's JSON 404, not the
// explorer's HTML one) is skipped as missing. Pages of data the synthetic
// traffic has none of (NFTs; every primary-network and staking object) are
// still requested: their chain and list pages show empty chains, their
// object pages answer the explorer's 404.
//
//	go test -run '^$' -bench ExplorerPages -benchtime 1x -timeout 60m ./handlers/explorer/
//
// AVADATA_BENCH_EXPLORER_DIR keeps the store in that directory, so that
// later runs of the same size skip the fill; AVADATA_BENCH_PAGE_REQS is the
// requests per page and side (default 200).
var benchPages = []benchPage{
	{"home", func(d *benchData) string { return "/" }},
	{"status", func(d *benchData) string { return "/status" }},
	{"search-address", func(d *benchData) string { return "/search?q=" + d.Accounts[1].Hex() }},
	{"search-tx", func(d *benchData) string { return "/search?q=" + d.midTx().Hex() }},
	{"search-block", func(d *benchData) string { return "/search?q=" + strconv.FormatUint(d.Top/2, 10) }},
	{"search-token", func(d *benchData) string { return "/search?q=" + url.QueryEscape("Token 005") }},
	{"search-token-many", func(d *benchData) string { return "/search?q=Token" }}, // 110 tokens: candidates
	{"evm-chain", func(d *benchData) string { return d.evm() }},
	{"evm-block", func(d *benchData) string { return d.evm("block", strconv.FormatUint(d.Top/2, 10)) }},
	{"evm-block-hash", func(d *benchData) string { return d.evm("block", synthetic.Hash("block", d.Top/2).Hex()) }},
	{"evm-tx", func(d *benchData) string { return d.evm("tx", d.midTx().Hex()) }},
	{"evm-address", func(d *benchData) string { return d.evm("address", d.Accounts[1].Hex()) }},
	{"evm-address-deep", func(d *benchData) string { return d.deepAddress }},
	{"evm-address-erc20", func(d *benchData) string { return d.evm("address", d.Accounts[2].Hex()) + "?tab=erc20" }},
	{"evm-address-tokens", func(d *benchData) string { return d.evm("address", d.Holder.Hex()) + "?tab=tokens" }},
	{"evm-address-contract", func(d *benchData) string { return d.evm("address", d.Tokens[0].Hex()) }},
	{"evm-token", func(d *benchData) string { return d.evm("token", d.Tokens[0].Hex()) }},
	{"evm-token-holders", func(d *benchData) string { return d.evm("token", d.Tokens[0].Hex()) + "?tab=holders" }},
	{"evm-nft", func(d *benchData) string { return d.evm("nft", d.Tokens[0].Hex(), "1") }}, // no NFTs: a 404
	{"p-chain", func(d *benchData) string { return "/p-chain" }},
	{"x-chain", func(d *benchData) string { return "/x-chain" }},
	{"c-chain", func(d *benchData) string { return "/c-chain" }},
	{"p-block", func(d *benchData) string { return "/p-chain/block/1" }},
	{"x-block", func(d *benchData) string { return "/x-chain/block/1" }},
	{"p-tx", func(d *benchData) string { return "/p-chain/tx/" + ids.ID{'t'}.String() }},
	{"p-address", func(d *benchData) string { return "/p-chain/address/" + d.primaryAddress("P") }},
	{"x-address", func(d *benchData) string { return "/x-chain/address/" + d.primaryAddress("X") }},
	{"x-asset", func(d *benchData) string { return "/x-chain/asset/" + fakenet.AVAXAssetID.String() }},
	{"validators", func(d *benchData) string { return "/validators" }},
	{"validator", func(d *benchData) string { return "/validators/" + ids.NodeID{1}.String() }},
	{"subnets", func(d *benchData) string { return "/subnets" }},
	{"subnet", func(d *benchData) string { return "/subnets/" + fakenet.SubnetID.String() }},
	{"blockchain", func(d *benchData) string { return "/blockchains/" + fakenet.SubnetChainID.String() }},
}

const (
	// benchPageClients is the "a few clients" side: concurrent requests
	// on a machine of a few cores.
	benchPageClients = 4
	// benchDeepPages is how many Next links the deep address page follows
	// from the first (of the API's page size, about half of a synthetic
	// account's ~2,000 txs at 1M for a page of 25).
	benchDeepPages = 40
)

func benchTxs() int { return envInt("AVADATA_BENCH_EXPLORER_TXS", 1_000_000) }

func benchRequests() int { return envInt("AVADATA_BENCH_PAGE_REQS", 200) }

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// The synthetic accounts with an odd index send and receive only native
// transfers, those with an even one only ERC-20 transfers (synthetic.EVM):
// Accounts[1] is the busy address of the native kind, Accounts[2] of the
// token kind, each in about 2,000 of 1M txs; Tokens[0] is in 50,000.

// benchPage is one row of the table: a page type and its URL below the
// explorer.
type benchPage struct {
	name string
	path func(*benchData) string
}

// benchData is the served store and what is in it.
type benchData struct {
	synthetic.EVM
	handler     http.Handler
	deepAddress string // the busy address's page after benchDeepPages Next links
	notes       []string
}

// logf logs a finding of the setup and keeps it for the table (a parent
// benchmark's log shows only with -v).
func (d *benchData) logf(b *testing.B, format string, args ...any) {
	b.Logf(format, args...)
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
}

func (d *benchData) evm(segments ...string) string {
	return "/evm/" + strconv.Itoa(fakenet.SubnetEVMChainID) + strings.TrimSuffix("/"+strings.Join(segments, "/"), "/")
}

// midTx is a token transfer in the middle of the chain (every even tx
// number is one).
func (d *benchData) midTx() common.Hash {
	mid := uint64(d.Txs / 2)
	return synthetic.Hash("tx", mid+mid%2)
}

// primaryAddress is a bech32 address of the local network on chain "P" or
// "X" (no tx touches it: the synthetic traffic is EVM only).
func (d *benchData) primaryAddress(chain string) string {
	a, err := address.Format(chain, fakenet.Info().HRP(), ids.ShortID{0xAD}.Bytes())
	if err != nil {
		panic(err)
	}
	return a
}

func BenchmarkExplorerPages(b *testing.B) {
	d := openBenchStore(b)
	d.deepAddress = followNext(b, d, d.evm("address", d.Accounts[1].Hex()), benchDeepPages)
	srv := httptest.NewServer(d.handler)
	b.Cleanup(srv.Close)
	n := benchRequests()
	var table strings.Builder
	fmt.Fprintf(&table, "\n%s\n", strings.Join(d.notes, "\n"))
	fmt.Fprintf(&table, "%d txs, %d requests a page and side; server time in ms (in process; %d clients; loopback, one client); CPU and allocations a page, in process\n",
		d.Txs, n, benchPageClients)
	fmt.Fprintf(&table, "| page | status | bytes | p50 | p99 | max | p99 %dc | p99 loopback | CPU ms | alloc KB | allocs |\n"+
		"|---|---|---|---|---|---|---|---|---|---|---|\n", benchPageClients)
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			path := p.path(d)
			if path == "" {
				fmt.Fprintf(&table, "| %s | missing (not reached) | | | | | | | | | |\n", p.name)
				b.Skip("missing: the page it is reached from is not served")
			}
			first := serveOnce(d.handler, path)
			if missing(first) {
				fmt.Fprintf(&table, "| %s | missing | | | | | | | | | |\n", p.name)
				b.Skipf("missing: %s is not served by this build", path)
			}
			var seq, par, loop []time.Duration
			var cost pageCost
			for range b.N {
				cost = measureCost(b, func() { seq = timeInProcess(d.handler, path, n, 1) }, n)
				par = timeInProcess(d.handler, path, n, benchPageClients)
				loop = timeLoopback(b, srv.URL, path, n)
			}
			report(b, "", seq)
			report(b, fmt.Sprintf("-%dc", benchPageClients), par)
			report(b, "-loopback", loop)
			b.ReportMetric(float64(first.Body.Len()), "bytes")
			b.ReportMetric(cost.cpuMS, "cpu-ms/page")
			b.ReportMetric(cost.allocKB, "alloc-KB/page")
			b.ReportMetric(cost.allocs, "allocs/page")
			fmt.Fprintf(&table, "| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %.0f |\n", p.name, first.Code, first.Body.Len(),
				ms(seq, 0.5), ms(seq, 0.99), ms(seq, 1), ms(par, 0.99), ms(loop, 0.99), cost.cpuMS, cost.allocKB, cost.allocs)
		})
	}
	// The table, whole, for the notes (the sub-benchmarks' lines hold the
	// same numbers).
	fmt.Print(table.String())
}

// pageCost is what one page costs the process, on average over a
// sequential run: CPU time (Badger's and the GC's goroutines included:
// on a shared machine it moves less than the wall time) and allocations.
type pageCost struct{ cpuMS, allocKB, allocs float64 }

func measureCost(b *testing.B, run func(), n int) pageCost {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := processCPU(b)
	run()
	cpu = processCPU(b) - cpu
	runtime.ReadMemStats(&after)
	return pageCost{cpuMS: float64(cpu.Microseconds()) / 1000 / float64(n),
		allocKB: float64(after.TotalAlloc-before.TotalAlloc) / 1024 / float64(n),
		allocs:  float64(after.Mallocs-before.Mallocs) / float64(n)}
}

// processCPU is the CPU time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ms is the p-th percentile of took, sorted, in milliseconds.
func ms(took []time.Duration, p float64) float64 {
	return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000
}

// report reports the percentiles of one side in milliseconds.
func report(b *testing.B, side string, took []time.Duration) {
	slices.Sort(took)
	b.ReportMetric(ms(took, 0.5), "p50-ms"+side)
	b.ReportMetric(ms(took, 0.99), "p99-ms"+side)
	b.ReportMetric(ms(took, 1), "max-ms"+side)
}

// missing says whether the reply says the build has no such page: the API
// router's JSON 404, or the explorer's own 404 for a path no page has
// ("no explorer page at …"), rather than a page's 404 for an object the
// index lacks.
func missing(rec *httptest.ResponseRecorder) bool {
	if rec.Code != http.StatusNotFound {
		return false
	}
	return !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") ||
		strings.Contains(rec.Body.String(), "no explorer page at")
}

func serveOnce(h http.Handler, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "http://node"+explorer.Prefix+path, nil)
	req.RemoteAddr, req.Host = "", ""
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// timeInProcess serves path n times from clients goroutines and returns
// each request's time to its full body.
func timeInProcess(h http.Handler, path string, n, clients int) []time.Duration {
	took := make([]time.Duration, n)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < n; i += clients {
				began := time.Now()
				serveOnce(h, path)
				took[i] = time.Since(began)
			}
		}()
	}
	wg.Wait()
	return took
}

// timeLoopback requests path n times, one after the other, through a real
// HTTP server on loopback, to the last byte of the body (of a redirect
// itself, as in process: the search's answer).
func timeLoopback(b *testing.B, base, path string, n int) []time.Duration {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	took := make([]time.Duration, n)
	for i := range took {
		began := time.Now()
		resp, err := client.Get(base + explorer.Prefix + path)
		if err != nil {
			b.Fatal(err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		took[i] = time.Since(began)
	}
	return took
}

// nextLink is the pager's link to the next page (templates/_partials.html).
var nextLink = regexp.MustCompile(`rel="next" href="([^"]+)"`)

// followNext follows path's Next links up to pages times (fewer where the
// list ends first) and returns the last page's path below the explorer,
// or "" where the page is not served.
func followNext(b *testing.B, d *benchData, path string, pages int) string {
	for i := range pages {
		rec := serveOnce(d.handler, path)
		if missing(rec) {
			return ""
		}
		if rec.Code != http.StatusOK {
			b.Fatalf("page %d of %s: %d", i+1, path, rec.Code)
		}
		m := nextLink.FindStringSubmatch(rec.Body.String())
		if m == nil {
			d.logf(b, "the deep address page is page %d, the list's last", i+1)
			return path
		}
		path = strings.TrimPrefix(html.UnescapeString(m[1]), explorer.Prefix)
	}
	d.logf(b, "the deep address page is page %d", pages+1)
	return path
}

// openBenchStore fills a store (or reopens the one
// AVADATA_BENCH_EXPLORER_DIR holds, filled with as many txs) and serves
// it.
func openBenchStore(b *testing.B) *benchData {
	ctx := context.Background()
	txs := benchTxs()
	dir, marker := os.Getenv("AVADATA_BENCH_EXPLORER_DIR"), ""
	if dir == "" {
		dir = b.TempDir()
	} else {
		marker = filepath.Join(dir, "avadata-bench-txs")
	}
	filled := false
	if marker != "" {
		got, err := os.ReadFile(marker)
		switch {
		case err == nil && string(got) == strconv.Itoa(txs):
			filled = true
		case err == nil:
			b.Fatalf("%s holds a store of %s txs, not %d: use another directory", dir, got, txs)
		case !errors.Is(err, os.ErrNotExist):
			b.Fatal(err)
		}
	}
	began := time.Now()
	st, err := store.Open(dir, logging.NoLog{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	st.SetPrimaryNetwork(store.PrimaryNetwork{IDOf: fakenet.Info().ChainID})
	chain, err := st.RegisterChain(ctx, fakenet.SubnetChainID)
	if err != nil || chain != fakenet.SubnetChain {
		b.Fatalf("registering the chain: %v %v", chain, err)
	}
	d := &benchData{EVM: synthetic.Layout(txs)}
	if !filled {
		if d.EVM, err = synthetic.FillEVM(ctx, st, chain, txs); err != nil {
			b.Fatal(err)
		}
		if marker != "" {
			if err := os.WriteFile(marker, []byte(strconv.Itoa(txs)), 0o600); err != nil {
				b.Fatal(err)
			}
		}
		d.logf(b, "filled the store with %d txs in %d blocks in %s", d.Txs, d.Top, time.Since(began).Round(time.Millisecond))
	} else {
		d.logf(b, "reopened the store of %d txs in %s in %s", d.Txs, dir, time.Since(began).Round(time.Millisecond))
	}
	d.handler = newHandler(b, st, d.Top)
	return d
}

// newHandler is the whole HTTP layer over the store, as the VM wires it,
// with fakes for what lives outside the store: the node (its network and
// follower progress) and the P-chain's live state.
func newHandler(b *testing.B, st *store.Store, top uint64) http.Handler {
	fakes := handlertest.NewFakes()
	fakes.SetIndexedHeight(fakenet.SubnetChain, top)
	for _, c := range []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C} {
		fakes.SetIndexedHeight(c, 0)
	}
	decode, err := indexer.TxDecoder()
	if err != nil {
		b.Fatal(err)
	}
	primary := st.PrimaryReader(decode)
	state := synthetic.NewState()
	backend := handlers.Backend{Node: fakes, Metrics: st, EVM: st, EVMState: state,
		Primary: primary, Staking: primary, Platform: fakes.Platform, Vertices: st, Logs: state}
	backend.Tokens = st
	backend.Holders = benchHolders{Store: st, State: state}
	cfg := handlers.Config{Config: handlertest.Config()}
	cfg.Rates = limits.Rates{AnonymousRPS: 1e9, AnonymousBurst: 1e9, KeyRPS: 1e9, KeyBurst: 1e9}
	h, err := handlers.New(cfg, backend, nil, nil, prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// benchHolders answers an ERC-20's holders as the VM does: the parties from
// the store, their balances from the (synthetic) node state.
type benchHolders struct {
	*store.Store
	synthetic.State
}
