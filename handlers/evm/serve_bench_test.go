package evm

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/evmstate"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/store"
)

// The in-process side of tests/e2e/evm's BenchmarkEVMHTTPRoutesAt1M: the
// same routes through the whole request path (serve.New: limits, metrics,
// time budgets) over a real Badger store, without the node's HTTP server
// and gRPC hop, so that a CPU or allocation profile shows avadata's own
// cost (go test -bench Serve -cpuprofile / -memprofile).

const (
	serveBenchPerBlock = 20
	serveBenchAccounts = 1000
	serveBenchTokens   = 10  // tokens the synthetic transfers move
	serveBenchHeld     = 100 // tokens the holder holds
)

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
	handler  http.Handler
	accounts []common.Address
	holder   common.Address
	txs      int
	top      uint64
}

func serveBenchHash(kind string, n uint64) common.Hash {
	return crypto.Keccak256Hash([]byte("avadata-bench-"+kind), binary.BigEndian.AppendUint64(nil, n))
}

func serveBenchAddrs(kind string, n int) []common.Address {
	out := make([]common.Address, n)
	for i := range out {
		out[i] = common.BytesToAddress(serveBenchHash(kind, uint64(i)).Bytes()[12:])
	}
	return out
}

// constantBalances answers every balanceOf with 1e18 and every native
// balance with 5e18: the node's answers, which the cache then keeps.
type constantBalances struct{}

func (constantBalances) CallContractsAt(_ context.Context, calls []nodeapi.ContractCall, _ uint64) error {
	for i := range calls {
		calls[i].Result = common.LeftPadBytes(big.NewInt(1e18).Bytes(), 32)
	}
	return nil
}

func (constantBalances) BalanceAt(context.Context, common.Address, uint64) (*big.Int, error) {
	return big.NewInt(5e18), nil
}

// benchState is the evm StateReader over one chain's evmstate.Balances,
// as the VM's is.
type benchState struct{ balances *evmstate.Balances }

func (s benchState) NativeBalance(ctx context.Context, _ netinfo.Chain, addr common.Address) (*big.Int, error) {
	return s.balances.NativeAt(ctx, 0, addr)
}

func (s benchState) TokenBalancesAt(ctx context.Context, _ netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error) {
	return s.balances.At(ctx, height, calls)
}

func (s benchState) NativeBalanceAt(ctx context.Context, _ netinfo.Chain, addr common.Address, height uint64) (*big.Int, error) {
	return s.balances.NativeAt(ctx, height, addr)
}

// DescribeContract answers as a node whose contracts revert every call.
func (benchState) DescribeContract(_ context.Context, _ netinfo.Chain, c evmdata.Contract) (evmdata.Contract, error) {
	return c, nil
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
	f := &serveBench{accounts: serveBenchAddrs("account", serveBenchAccounts), holder: serveBenchAddrs("holder", 1)[0]}
	tokens, held := serveBenchAddrs("token", serveBenchTokens), serveBenchAddrs("held", serveBenchHeld)
	w := st.EVMWriter(chain)
	blocks := serveBenchTxs() / serveBenchPerBlock
	var seq uint64
	for from := 1; from <= blocks; from += 256 {
		batch := make([]*evmdata.Block, 0, 256)
		for n := uint64(from); n < uint64(min(from+256, blocks+1)); n++ {
			blk := &evmdata.Block{Number: n, Hash: serveBenchHash("block", n), Timestamp: 1_700_000_000 + n,
				BaseFee: big.NewInt(25e9), GasLimit: 15e6, Traced: true, Txs: make([]evmdata.Tx, serveBenchPerBlock)}
			for j := range blk.Txs {
				seq++
				from, to := f.accounts[seq*7%serveBenchAccounts], f.accounts[seq*13%serveBenchAccounts]
				tx := evmdata.Tx{Index: uint32(j), Hash: serveBenchHash("tx", seq), Type: 2, From: from, To: &to,
					Value: big.NewInt(int64(seq) * 1e12), Gas: 21000, MaxFeePerGas: big.NewInt(50e9),
					MaxPriorityFeePerGas: big.NewInt(1e9), Status: 1, GasUsed: 21000, EffectiveGasPrice: big.NewInt(26e9)}
				if j%2 == 1 { // a token transfer; its log index is unique in the block, as on a chain
					token := tokens[seq%serveBenchTokens]
					tx.To, tx.Value, tx.Gas, tx.GasUsed = &token, new(big.Int), 60000, 51000
					tx.Input = append([]byte{0xa9, 0x05, 0x9c, 0xbb}, make([]byte, 64)...)
					tx.Transfers = []evmdata.TokenTransfer{{LogIndex: uint32(j), Token: token, Kind: evmdata.Erc20, From: from, To: to,
						Value: big.NewInt(int64(seq))}}
				}
				if n <= serveBenchHeld && j == 0 { // a mint of held token n-1 to the holder
					token := held[n-1]
					tx.To, tx.Value, tx.Gas, tx.GasUsed = &token, new(big.Int), 60000, 51000
					tx.Transfers = []evmdata.TokenTransfer{{LogIndex: uint32(j), Token: token, Kind: evmdata.Erc20, To: f.holder,
						Value: big.NewInt(1e18)}}
				}
				blk.Txs[j] = tx
			}
			batch = append(batch, blk)
		}
		if err := w.Apply(ctx, batch, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	for i, token := range append(tokens, held...) {
		c := evmdata.Contract{Address: token, Kind: evmdata.Erc20, Name: fmt.Sprintf("Token %03d", i),
			Symbol: fmt.Sprintf("T%03d", i), Decimals: 18, HasDecimal: true}
		if err := st.SetContractMetadata(ctx, chain, c); err != nil {
			b.Fatal(err)
		}
	}
	f.txs, f.top = int(seq), uint64(blocks)

	fakes := handlertest.NewFakes()
	fakes.SetIndexedHeight(chain, f.top)
	cfg := handlertest.Config()
	cfg.Rates = limits.Rates{AnonymousRPS: 1e9, AnonymousBurst: 1e9, KeyRPS: 1e9, KeyBurst: 1e9}
	state := benchState{balances: evmstate.NewBalances(constantBalances{}, evmstate.DefaultCacheEntries)}
	f.handler, err = serve.New(cfg, Routes(serve.NewCore(cfg, fakes, nil), Config{}, st, state), nil, prometheus.NewRegistry())
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
			return fmt.Sprintf("/v1/chains/%d/transactions/%s", chainID, serveBenchHash("tx", 1+uint64(i*7919%f.txs)).Hex())
		})
	})
	b.Run("listTransactions", func(b *testing.B) {
		f.run(b, func(i int) string {
			return fmt.Sprintf("/v1/chains/%d/addresses/%s/transactions?pageSize=10", chainID, f.accounts[i%serveBenchAccounts].Hex())
		})
	})
	b.Run("listErc20Balances", func(b *testing.B) {
		f.run(b, func(int) string {
			return fmt.Sprintf("/v1/chains/%d/addresses/%s/balances:listErc20?pageSize=10&blockNumber=%d", chainID, f.holder.Hex(), f.top)
		})
	})
	b.Run("getChainInfo", func(b *testing.B) { // the cheapest EVM route: the request path's own cost
		f.run(b, func(int) string { return fmt.Sprintf("/v1/chains/%d", chainID) })
	})
}
