package evm

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/handlertest/synthetic"
	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer/store"
)

// The in-process side of tests/e2e/evm's BenchmarkEVMHTTPRoutesAt1M: the
// same routes through the whole request path (serve.New: limits, metrics,
// time budgets) over a real Badger store, without the node's HTTP server
// and gRPC hop, so that a CPU or allocation profile shows avadata's own
// cost (go test -bench Serve -cpuprofile / -memprofile).

// serveBenchTxs is how many synthetic txs the index holds
// (AVADATA_BENCH_TXS, default 100k).
func serveBenchTxs() int {
	if n, err := strconv.Atoi(os.Getenv("AVADATA_BENCH_TXS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// serveBench is a handler over a filled store.
type serveBench struct {
	handler http.Handler
	synthetic.EVM
}

func newServeBench(b *testing.B) *serveBench {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(b.TempDir(), logging.NoLog{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	chain, err := st.RegisterChain(ctx, fakenet.SubnetChainID)
	if err != nil || chain != fakenet.SubnetChain {
		b.Fatalf("registering the chain: %v %v", chain, err)
	}
	f := &serveBench{}
	if f.EVM, err = synthetic.FillEVM(ctx, st, chain, serveBenchTxs()); err != nil {
		b.Fatal(err)
	}

	fakes := handlertest.NewFakes()
	fakes.SetIndexedHeight(chain, f.Top)
	cfg := handlertest.Config()
	cfg.Rates = limits.Rates{AnonymousRPS: 1e9, AnonymousBurst: 1e9, KeyRPS: 1e9, KeyBurst: 1e9}
	f.handler, err = serve.New(cfg, Routes(serve.NewCore(cfg, fakes, nil), Config{}, st, synthetic.NewState()), nil, prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// run serves the path b.N times from parallel goroutines (the e2e's 32
// clients), failing on anything but a 200. cpu-µs/op is the process's CPU
// time per request (GC and Badger's own goroutines included): on a shared
// machine it moves less than ns/op, which counts waiting for a core.
func (f *serveBench) run(b *testing.B, path func(i int) string) {
	b.ReportAllocs()
	b.SetParallelism(16)
	began := processCPU(b)
	b.ResetTimer()
	defer func() {
		b.ReportMetric(float64((processCPU(b)-began).Microseconds())/float64(b.N), "cpu-µs/op")
	}()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			req := httptest.NewRequest(http.MethodGet, "http://node"+path(i), nil)
			req.RemoteAddr, req.Host = "", ""
			rec := httptest.NewRecorder()
			f.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("%s: %d %.300s", req.URL, rec.Code, rec.Body)
				return
			}
		}
	})
}

// processCPU is the CPU time the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkServe serves each route of the e2e benchmark in process.
func BenchmarkServe(b *testing.B) {
	f := newServeBench(b)
	chainID := fakenet.SubnetEVMChainID
	b.Run("getTransaction", func(b *testing.B) {
		f.run(b, func(i int) string {
			return fmt.Sprintf("/v1/chains/%d/transactions/%s", chainID, synthetic.Hash("tx", 1+uint64(i*7919%f.Txs)).Hex())
		})
	})
	b.Run("listTransactions", func(b *testing.B) {
		f.run(b, func(i int) string {
			return fmt.Sprintf("/v1/chains/%d/addresses/%s/transactions?pageSize=10", chainID, f.Accounts[i%len(f.Accounts)].Hex())
		})
	})
	b.Run("listErc20Balances", func(b *testing.B) {
		f.run(b, func(int) string {
			return fmt.Sprintf("/v1/chains/%d/addresses/%s/balances:listErc20?pageSize=10&blockNumber=%d", chainID, f.Holder.Hex(), f.Top)
		})
	})
	b.Run("getChainInfo", func(b *testing.B) { // the cheapest EVM route: the request path's own cost
		f.run(b, func(int) string { return fmt.Sprintf("/v1/chains/%d", chainID) })
	})
}
