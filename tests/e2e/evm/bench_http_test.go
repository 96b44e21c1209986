package evm

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	rand "math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/crypto"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
	"github.com/avadata/avadata/vm"
)

// Settings of BenchmarkEVMHTTPRoutesAt1M.
const (
	httpBenchClients   = 32   // concurrent HTTP clients
	httpBenchAddresses = 1000 // synthetic accounts: each in ~2,000 of 1M txs
	httpBenchTokens    = 10   // synthetic ERC-20 contracts
	httpBenchPerBlock  = 20   // synthetic txs per block, as in the store benchmarks
	httpBenchWriteRun  = 256  // blocks per EVMWriter.Apply, like a follower batch
	httpBenchDeepPages = 100  // pages (of 10) walked to a deep page token, at most
	httpBenchDeepAddrs = 32   // addresses given a deep page token
	httpBenchRealTxs   = 200  // real txs; eth_getTransactionByHash asks for them
)

// httpBenchTxs is how many synthetic transactions are indexed
// (AVADATA_BENCH_HTTP_TXS; the figure is 1M), httpBenchRequests how
// many requests each side gets per iteration (AVADATA_BENCH_HTTP_REQS).
func httpBenchTxs() int { return harness.EnvInt("AVADATA_BENCH_HTTP_TXS", 1_000_000) }

func httpBenchRequests() int { return harness.EnvInt("AVADATA_BENCH_HTTP_REQS", 20_000) }

// BenchmarkEVMHTTPRoutesAt1M serves, from an index of ≥ 1M EVM
// transactions, to 32 concurrent clients through the node's HTTP server:
// the address-transactions listing (pageSize 10; first pages and deep
// ones), getTransaction (of real and of synthetic hashes), listErc20Balances
// of an address holding 100 real tokens (pageSize 10; balanceOf read from
// the node at the real head, cached) and the trivial route; and, for
// comparison, the node's own eth_getTransactionByHash on the same chain
// through the same server: both go node → gRPC → plugin process (avadata;
// subnet-evm). Each avadata side's rate is reported as a ratio to it too.
//
// The local chain cannot make 1M transactions in minutes, so once a few real
// blocks are indexed the node is stopped and synthetic blocks are appended
// after them through the real EVM writer, into avadata's own Badger
// directory; the restarted node serves them. The setup runs once; the
// sub-benchmark runs the loads b.N times (ns/op: one round of the seven
// loads, AVADATA_BENCH_HTTP_REQS requests each).
func BenchmarkEVMHTTPRoutesAt1M(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	began := time.Now()
	f := setupHTTPBench(b, ctx)
	f.logf(b, "setup took %s", time.Since(began).Round(time.Second))

	b.Run(fmt.Sprintf("clients=%d", httpBenchClients), func(b *testing.B) {
		n := httpBenchRequests()
		rates := f.load.RunSides(b, ctx, n, f.loads())
		plugin := harness.ProcStatusKB(b, f.load.PluginPID(b, vm.ID.String()))
		subnetEVM := harness.ProcStatusKB(b, f.load.PluginPID(b, localnet.SubnetEVMVMID.String()))
		node := harness.ProcStatusKB(b, f.net.PID())
		reportRatios(b, rates)
		for unit, v := range map[string]float64{"bytes/tx": f.bytesPerTx, "write-tx/s": f.writeRate,
			"plugin-idle-cpu-%": f.idleCPU, "plugin-idle-rss-MB": f.idleRSS / 1024, "plugin-rss-MB": plugin["VmRSS"] / 1024,
			"plugin-hwm-MB": plugin["VmHWM"] / 1024, "node-rss-MB": node["VmRSS"] / 1024} {
			b.ReportMetric(v, unit)
		}
		for _, note := range f.notes { // the parent's own log shows only with -v
			b.Log(note)
		}
		b.Logf("after %d requests a side: avadata plugin VmRSS %.0f MB (%.0f MB before; anon %.0f MB, file-backed %.0f MB; VmHWM %.0f MB); "+
			"subnet-evm plugin VmRSS %.0f MB (VmHWM %.0f MB); node VmRSS %.0f MB (VmHWM %.0f MB)",
			b.N*n, plugin["VmRSS"]/1024, f.idleRSS/1024, plugin["RssAnon"]/1024, plugin["RssFile"]/1024, plugin["VmHWM"]/1024,
			subnetEVM["VmRSS"]/1024, subnetEVM["VmHWM"]/1024, node["VmRSS"]/1024, node["VmHWM"]/1024)
	})

	// The index is still ahead of the node: the follower must not have moved.
	s := harness.PollStatus(b, ctx, f.net.BaseURL(), f.chain.Name, func(harness.FollowerStatus) bool { return true })
	if s.IndexedHeight != f.status.IndexedHeight || s.NodeHeight != f.status.NodeHeight || s.LastError != f.status.LastError || !s.Running {
		b.Errorf("%s follower moved or failed during the benchmark: %+v, was %+v", f.chain.Name, s, f.status)
	}
}

// httpBench is the benchmark's network and what the setup found.
type httpBench struct {
	net        *localnet.Network
	chain      localnet.EVMChain
	load       *harness.HTTPLoad
	addrs      []common.Address
	deepURLs   []string // listing URLs with a page token ~half into the address's txs
	realHashes []common.Hash
	realHead   uint64                 // the node's head: the last real block
	holder     common.Address         // holds one of each held token
	heldTokens []common.Address       // the held TestERC20 contracts
	synthTxs   int                    // synthetic txs indexed (hashes benchHash("tx", 1…synthTxs))
	status     harness.FollowerStatus // the subnet-evm follower after the restart
	bytesPerTx float64
	writeRate  float64 // synthetic txs written per second
	idleCPU    float64 // plugin CPU use before the load, % of a core
	idleRSS    float64 // plugin VmRSS before the load, kB
	notes      []string
}

// logf logs a setup finding and keeps it for the result.
func (f *httpBench) logf(b *testing.B, format string, args ...any) {
	b.Helper()
	b.Logf(format, args...)
	f.notes = append(f.notes, fmt.Sprintf(format, args...))
}

func setupHTTPBench(b *testing.B, ctx context.Context) *httpBench {
	net := harness.StartBenchNetwork(b, ctx)
	chains := net.EVMChains()
	if len(chains) < 2 {
		b.Fatal("the local network has no subnet-evm chain")
	}
	f := &httpBench{net: net, chain: chains[1], addrs: benchAccounts("account", httpBenchAddresses),
		holder: benchAccounts("holder", 1)[0],
		load: harness.NewHTTPLoad(net, httpBenchClients, harness.AvadataPlugin(),
			harness.LoadPlugin{Name: "subnetevm", VMID: localnet.SubnetEVMVMID.String()}),
	}

	head, headHash, headTime := f.sendRealTxs(b, ctx)
	f.realHead = head
	harness.PollStatus(b, ctx, net.BaseURL(), f.chain.Name, func(s harness.FollowerStatus) bool { return s.IndexedHeight >= head })
	f.waitHeldTokens(b, ctx) // indexed, with their metadata, before the stop
	if err := net.Stop(ctx); err != nil {
		b.Fatal(err)
	}
	dir := findIndexDir(b, net.DataDir())
	realBytes := dirBytes(dir)
	txs := f.appendSynthetic(b, ctx, dir, head, headHash, headTime)
	f.synthTxs = txs
	total := dirBytes(dir)
	f.bytesPerTx = float64(total-realBytes) / float64(txs)
	f.logf(b, "index on disk: %.2f MB with the real blocks (%d subnet-evm txs; P, X, C too), %.1f MB after %d synthetic txs: "+
		"%.1f bytes/tx added, %.1f bytes/tx counting the whole dir", float64(realBytes)/1e6, len(f.realHashes),
		float64(total)/1e6, txs, f.bytesPerTx, float64(total)/float64(txs+len(f.realHashes)))

	if err := net.Restart(ctx); err != nil {
		b.Fatal(err)
	}
	// The follower finds its cursor above the node's head: it reports that
	// the index is ahead of the node (as it would for a replaced node
	// database) and writes nothing, while the API serves what is indexed.
	top := head + uint64(txs/httpBenchPerBlock)
	f.status = harness.PollStatus(b, ctx, net.BaseURL(), f.chain.Name, func(s harness.FollowerStatus) bool {
		return s.Running && s.NodeHeight >= head && s.LastError != ""
	})
	f.logf(b, "after the restart /v1/status shows %s: %+v", f.chain.Name, f.status)
	if f.status.IndexedHeight != top || !strings.Contains(f.status.LastError, "ahead of the node") {
		b.Fatalf("%s follower: %+v, want indexedHeight %d and the index-ahead error", f.chain.Name, f.status, top)
	}
	restarted := harness.ProcStatusKB(b, f.load.PluginPID(b, vm.ID.String()))
	settled, idleCPU := f.load.WaitPluginSettled(b, ctx)
	f.idleCPU = idleCPU
	f.logf(b, "plugin settled %s after the restart, then used %.0f%% of a core idle", settled.Round(time.Second), idleCPU)
	idle := harness.ProcStatusKB(b, f.load.PluginPID(b, vm.ID.String()))
	f.idleRSS = idle["VmRSS"]
	f.logf(b, "plugin VmRSS %.0f MB (anon %.0f, file-backed %.0f) at the restart, %.0f MB (anon %.0f, file-backed %.0f) settled",
		restarted["VmRSS"]/1024, restarted["RssAnon"]/1024, restarted["RssFile"]/1024, idle["VmRSS"]/1024, idle["RssAnon"]/1024, idle["RssFile"]/1024)
	f.checkResponses(b, ctx)
	f.checkRouteResponses(b, ctx)
	return f
}

// sendRealTxs deploys an ERC-20 and sends mints and value transfers, so the
// chain has real blocks and the node real txs to look up, then deploys the
// holder's tokens and mints them; it returns the head block's number, hash
// and time.
func (f *httpBench) sendRealTxs(b *testing.B, ctx context.Context) (uint64, common.Hash, uint64) {
	c, err := evmtest.Dial(ctx, f.chain.RPCURL, genesis.EWOQKey)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	token, r, err := c.Deploy(ctx, contracts.TestERC20(), "Bench", "BNC")
	if err != nil {
		b.Fatal(err)
	}
	f.realHashes = append(f.realHashes, r.TxHash)
	for len(f.realHashes) < httpBenchRealTxs {
		var burst []common.Hash
		for i := range 50 {
			to, h := f.addrs[len(f.realHashes)+i], common.Hash{}
			if i%2 == 0 {
				h, err = c.SendTransact(ctx, token, contracts.TestERC20(), "mint", nil, to, big.NewInt(int64(i+1)))
			} else {
				h, err = c.SendValue(ctx, to, big.NewInt(int64(i+1)))
			}
			if err != nil {
				b.Fatal(err)
			}
			burst = append(burst, h)
		}
		if _, err := c.WaitReceipts(ctx, burst...); err != nil {
			b.Fatal(err)
		}
		f.realHashes = append(f.realHashes, burst...)
	}
	f.sendHeldTokens(b, ctx, c)
	var head struct {
		Number    hexutil.Uint64 `json:"number"`
		Hash      common.Hash    `json:"hash"`
		Timestamp hexutil.Uint64 `json:"timestamp"`
	}
	if err := c.RPC().CallContext(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		b.Fatal(err)
	}
	f.logf(b, "%s: %d real txs up to block %d", f.chain.Name, len(f.realHashes), head.Number)
	return uint64(head.Number), head.Hash, uint64(head.Timestamp)
}

// appendSynthetic writes synthetic blocks after the real head, from the
// stream's cursor on, through the EVMWriter the follower uses, and returns
// how many txs it wrote.
func (f *httpBench) appendSynthetic(b *testing.B, ctx context.Context, dir string, head uint64, parent common.Hash, ts uint64) int {
	st, err := store.Open(dir, logging.NoLog{})
	if err != nil {
		b.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			_ = st.Close()
		}
	}()
	chain, err := st.RegisterChain(ctx, f.chain.BlockchainID) // registered already: returns its number
	if err != nil {
		b.Fatal(err)
	}
	cursor, err := st.Cursor(ctx, chain, store.StreamBlocks)
	if err != nil {
		b.Fatal(err)
	}
	if cursor.NextHeight != head+1 {
		b.Fatalf("%s (chain %d) cursor at %d, want the node's head + 1 = %d", f.chain.Name, chain, cursor.NextHeight, head+1)
	}
	gen := &synthChain{accounts: f.addrs, tokens: benchAccounts("token", httpBenchTokens),
		nonces: make([]uint64, len(f.addrs)), parent: parent, ts: ts, rng: rand.New(rand.NewPCG(1, 2))}
	w := st.EVMWriter(chain)
	blocks := (httpBenchTxs() + httpBenchPerBlock - 1) / httpBenchPerBlock
	began := time.Now()
	var making time.Duration
	for done := 0; done < blocks; done += httpBenchWriteRun {
		t0 := time.Now()
		batch := gen.blocks(cursor.NextHeight+uint64(done), min(httpBenchWriteRun, blocks-done))
		making += time.Since(t0)
		if err := w.Apply(ctx, batch, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	written := time.Since(began)
	closed = true
	if err := st.Close(); err != nil { // flushes the memtables, so the size is what stays
		b.Fatal(err)
	}
	txs := blocks * httpBenchPerBlock
	f.writeRate = float64(txs) / (written - making).Seconds()
	f.logf(b, "wrote %d blocks / %d txs in %s (%s of it making them; close took %s): %.0f tx/s through EVMWriter.Apply",
		blocks, txs, written.Round(time.Millisecond), making.Round(time.Millisecond),
		(time.Since(began) - written).Round(time.Millisecond), f.writeRate)
	return txs
}

// synthChain makes blocks shaped like busy C-chain traffic (as the store
// benchmarks' syntheticBlocks): 20 txs a block between random accounts,
// every other one an ERC-20 transfer with its log. Hashes and addresses are
// Keccak outputs, not small integers, so that keys and values compress like
// real ones and bytes/tx is honest.
type synthChain struct {
	accounts, tokens []common.Address
	nonces           []uint64
	parent           common.Hash
	ts, seq          uint64
	rng              *rand.Rand
}

func (g *synthChain) blocks(from uint64, count int) []*evmdata.Block {
	out := make([]*evmdata.Block, count)
	for i := range out {
		g.ts++ // a block a second after the real head
		blk := &evmdata.Block{Number: from + uint64(i), Hash: benchHash("block", from+uint64(i)), ParentHash: g.parent,
			Timestamp: g.ts, BaseFee: big.NewInt(25e9), GasLimit: 15e6, Size: 3000, Traced: true,
			Txs: make([]evmdata.Tx, httpBenchPerBlock)}
		var logs uint32
		for j := range blk.Txs {
			fromIdx := g.rng.IntN(len(g.accounts))
			from, to := g.accounts[fromIdx], g.accounts[g.rng.IntN(len(g.accounts))]
			g.seq++
			tx := evmdata.Tx{Index: uint32(j), Hash: benchHash("tx", g.seq), Type: 2, From: from, To: &to,
				Nonce: g.nonces[fromIdx], Value: new(big.Int).Mul(big.NewInt(g.rng.Int64N(1e6)), big.NewInt(1e12)),
				Gas: 21000, MaxFeePerGas: big.NewInt(50e9), MaxPriorityFeePerGas: big.NewInt(1e9), Status: 1,
				GasUsed: 21000, EffectiveGasPrice: big.NewInt(26e9)}
			g.nonces[fromIdx]++
			if j%2 == 1 { // transfer(to, amount) on a token
				token, amount := g.tokens[g.rng.IntN(len(g.tokens))], big.NewInt(g.rng.Int64N(1e12))
				tx.To, tx.Value, tx.Gas, tx.GasUsed = &token, new(big.Int), 60000, 51000
				tx.Input = slices.Concat([]byte{0xa9, 0x05, 0x9c, 0xbb}, common.LeftPadBytes(to[:], 32), common.LeftPadBytes(amount.Bytes(), 32))
				tx.Transfers = []evmdata.TokenTransfer{{LogIndex: logs, Token: token, Kind: evmdata.Erc20, From: from, To: to, Value: amount}}
				logs++
			}
			blk.GasUsed += tx.GasUsed
			blk.Txs[j] = tx
		}
		g.parent, out[i] = blk.Hash, blk
	}
	return out
}

func benchHash(kind string, n uint64) common.Hash {
	return crypto.Keccak256Hash([]byte("avadata-bench-"+kind), binary.BigEndian.AppendUint64(nil, n))
}

func benchAccounts(kind string, n int) []common.Address {
	out := make([]common.Address, n)
	for i := range out {
		out[i] = common.BytesToAddress(benchHash(kind, uint64(i)).Bytes()[12:])
	}
	return out
}

func (f *httpBench) listURL(addr common.Address) string {
	return fmt.Sprintf("%s/v1/chains/%d/addresses/%s/transactions?pageSize=10", f.net.BaseURL(), f.chain.EVMChainID, addr.Hex())
}

// nextPage reads one full page (10 txs of addr, and a next-page token) and
// returns the URL of the next.
func (f *httpBench) nextPage(ctx context.Context, addr common.Address, pageURL string) (string, error) {
	status, raw, err := harness.HTTPGet(ctx, pageURL)
	var page struct {
		Transactions  []json.RawMessage `json:"transactions"`
		NextPageToken string            `json:"nextPageToken"`
	}
	if err == nil && status == http.StatusOK {
		err = json.Unmarshal(raw, &page)
	}
	if err != nil || status != http.StatusOK || len(page.Transactions) != 10 || page.NextPageToken == "" {
		return "", fmt.Errorf("%s: %d %v: %.300s", pageURL, status, err, raw)
	}
	for _, tx := range page.Transactions {
		if !strings.Contains(strings.ToLower(string(tx)), strings.ToLower(addr.Hex())) {
			return "", fmt.Errorf("%s lists a tx without the address: %s", pageURL, tx)
		}
	}
	return f.listURL(addr) + "&pageToken=" + url.QueryEscape(page.NextPageToken), nil
}

// checkResponses checks that both sides answer the load's requests with real
// content (the load checks only status codes), and walks a few addresses'
// listings halfway (~1,000 of their ~2,000 txs at 1M) for the deep pages.
func (f *httpBench) checkResponses(b *testing.B, ctx context.Context) {
	resp, err := f.load.Client.Do(f.txByHash(ctx, f.realHashes[0]))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || !bytes.Contains(body, []byte(`"blockNumber"`)) || !bytes.Contains(body, []byte(f.realHashes[0].Hex())) {
		b.Fatalf("eth_getTransactionByHash: %d %v %s", resp.StatusCode, err, body)
	}
	pages := min(httpBenchDeepPages, httpBenchTxs()/httpBenchAddresses/10)
	for _, addr := range f.addrs[len(f.addrs)-httpBenchDeepAddrs:] {
		next := f.listURL(addr)
		for range pages {
			if next, err = f.nextPage(ctx, addr, next); err != nil {
				b.Fatal(err)
			}
		}
		f.deepURLs = append(f.deepURLs, next)
	}
	f.logf(b, "deep pages: %d addresses, page %d", len(f.deepURLs), pages+1)
}

func (f *httpBench) txByHash(ctx context.Context, hash common.Hash) *http.Request {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"eth_getTransactionByHash","params":["%s"]}`, hash.Hex())
	req := harness.MustRequest(ctx, http.MethodPost, f.chain.RPCURL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}
