package exportjob

import (
	"bytes"
	"context"
	"encoding/csv"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

var (
	alice = common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	bob   = common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	carol = common.HexToAddress("0x00000000000000000000000000000000000ca201")
	token = common.HexToAddress("0x00000000000000000000000000000000000070c0")
	made  = common.HexToAddress("0x000000000000000000000000000000000000c0de")
)

// day0 is the start of the UTC day of block 1; blocks are 8 hours apart,
// three a day.
var day0 = time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)

const blockGap = 8 * 60 * 60

// testChain builds n blocks of the fake network's subnet chain: each
// holds native txs of alice, bob and carol, a creation, and a token call
// that moves tokens to alice (alice is in it but not a native party).
func testChain(n int) []*evmdata.Block {
	var out []*evmdata.Block
	for h := uint64(1); h <= uint64(n); h++ {
		txs := []evmdata.Tx{
			{From: alice, To: &bob, Value: big.NewInt(int64(h))},
			{From: carol, To: &token, Input: []byte{0xa9, 0x05, 0x9c, 0xbb, 1},
				Transfers: []evmdata.TokenTransfer{{LogIndex: 0, Token: token, Kind: evmdata.Erc20, From: carol, To: alice, Value: big.NewInt(1)}}},
			{From: bob, To: &carol, Value: big.NewInt(2)},
		}
		if h%4 == 0 {
			txs = append(txs, evmdata.Tx{From: carol, ContractAddress: &made, Input: []byte{1}})
		}
		if h%3 == 0 {
			txs = append(txs, evmdata.Tx{From: carol, To: &alice, Value: big.NewInt(3)})
		}
		for i := range txs {
			txs[i].Index, txs[i].Status, txs[i].Gas, txs[i].GasUsed = uint32(i), 1, 21000, 21000
			txs[i].Hash = common.BigToHash(big.NewInt(int64(h*100) + int64(i)))
			txs[i].GasPrice = big.NewInt(25)
			if txs[i].Value == nil {
				txs[i].Value = new(big.Int)
			}
		}
		out = append(out, &evmdata.Block{Number: h, Hash: common.BigToHash(big.NewInt(int64(h))),
			Timestamp: uint64(day0.Unix()) + (h-1)*blockGap, BaseFee: big.NewInt(25), Txs: txs, Traced: true})
	}
	return out
}

// expectedCSV is the export of addrs over blocks [from, to] of blocks,
// worked out from the blocks themselves.
func expectedCSV(t *testing.T, blocks []*evmdata.Block, addrs []common.Address, from, to uint64) string {
	t.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	require.NoError(t, w.Write(evm.ExportColumns()))
	rows := evm.NewExportRows()
	for _, b := range blocks {
		if b.Number < from || b.Number > to {
			continue
		}
		for _, tx := range b.Txs {
			if involves(&tx, addrs) {
				itx := evmdata.IndexedTx{Block: evmdata.BlockRef{Number: b.Number, Hash: b.Hash, Timestamp: b.Timestamp, BaseFee: b.BaseFee}, Tx: tx}
				require.NoError(t, w.Write(rows.Row(fakenet.SubnetEVMChainID, &itx)))
			}
		}
	}
	w.Flush()
	return buf.String()
}

// openStore opens a store that closes when the test ends, after the
// runners started on it have stopped (cleanups run last first).
func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(dir, logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func indexBlocks(t *testing.T, s *store.Store, blocks []*evmdata.Block) {
	t.Helper()
	require.NoError(t, s.EVMWriter(fakenet.SubnetChain).Apply(context.Background(), blocks, time.Now()))
}

// testRunner is a runner over st with the fake network, running until the
// test ends or stop is called.
type testRunner struct {
	*Runner
	stop func()
	done chan struct{}
}

func startRunner(t *testing.T, st Store, cfg Config, now func() time.Time) *testRunner {
	t.Helper()
	cfg.IndexPoll = 10 * time.Millisecond
	r := New(st, handlertest.NewFakes(), evm.NewExportRows(), evm.ExportColumns(), cfg, nil, now)
	ctx, cancel := context.WithCancel(context.Background())
	tr := &testRunner{Runner: r, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(tr.done)
		r.Run(ctx)
	}()
	t.Cleanup(func() { tr.halt() })
	return tr
}

// halt stops the runner and waits until it has.
func (tr *testRunner) halt() {
	tr.stop()
	<-tr.done
}

func subnet(t *testing.T) netinfo.ChainInfo {
	ci, ok := fakenet.Info().Chain(fakenet.SubnetChain)
	require.True(t, ok)
	return ci
}

// awaitDone polls an operation until it is done.
func awaitDone(t *testing.T, r *Runner, opID string) Job {
	t.Helper()
	var job Job
	require.Eventually(t, func() bool {
		var err error
		job, err = r.Status(context.Background(), opID)
		require.NoError(t, err)
		return job.Record.State.Done()
	}, 10*time.Second, 5*time.Millisecond)
	return job
}

func result(t *testing.T, r *Runner, j Job) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, r.Result(context.Background(), j, func(p []byte) error { buf.Write(p); return nil }))
	return buf.String()
}

func create(t *testing.T, r *Runner, p Plan) Job {
	t.Helper()
	ctx := context.Background()
	spec, err := r.Spec(ctx, p)
	require.NoError(t, err)
	job, err := r.Create(ctx, spec)
	require.NoError(t, err)
	return job
}

func TestExportMergesAddressesInOrderAcrossSteps(t *testing.T) {
	blocks := testChain(12)
	st := openStore(t, t.TempDir())
	indexBlocks(t, st, blocks)
	// Two transactions per address per step: merging must cut where every
	// address's reads are complete.
	r := startRunner(t, st, Config{StepTxs: 2}, nil)
	addrs := []common.Address{alice, bob}
	job := create(t, r.Runner, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: addrs})
	require.Equal(t, []ChainRange{{Stream: subnet(t).BlockchainID.String(), From: 1, To: 12}}, job.Spec.Chains)

	job = awaitDone(t, r.Runner, job.OperationID)
	require.Equal(t, store.ExportCompleted, job.Record.State)
	want := expectedCSV(t, blocks, addrs, 1, 12)
	require.Equal(t, want, result(t, r.Runner, job))
	require.Greater(t, job.Record.Parts, uint32(3), "written in several steps")
	require.Equal(t, uint64(len(want)), job.Record.Bytes)
	require.Contains(t, job.Record.Message, "exported 28 transactions of 2 addresses")
}

func TestExportDatesMapToBlocks(t *testing.T) {
	blocks := testChain(12) // days 0-3, three blocks each
	st := openStore(t, t.TempDir())
	indexBlocks(t, st, blocks)
	r := startRunner(t, st, Config{}, nil)
	ctx := context.Background()
	for _, tt := range []struct {
		first, last *time.Time
		from, to    uint64
	}{
		{dayN(1), dayN(2), 4, 9},
		{dayN(1), nil, 4, 12},
		{nil, dayN(0), 1, 3},
		{dayN(3), dayN(3), 10, 12},
		{dayN(5), nil, 13, 12}, // after the indexed blocks: empty
		{dayN(-3), dayN(-1), 1, 0},
	} {
		spec, err := r.Spec(ctx, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice}, FirstDay: tt.first, LastDay: tt.last})
		require.NoError(t, err)
		require.Equal(t, tt.from, spec.Chains[0].From)
		require.Equal(t, tt.to, spec.Chains[0].To)
	}
	// An empty range exports the header alone.
	job := create(t, r.Runner, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice}, FirstDay: dayN(5)})
	job = awaitDone(t, r.Runner, job.OperationID)
	require.Equal(t, expectedCSV(t, blocks, nil, 1, 0), result(t, r.Runner, job))
}

func dayN(n int) *time.Time {
	d := day0.AddDate(0, 0, n)
	return &d
}

// stoppingStore stops the runner after a number of parts, as a node's
// shutdown would in the middle of an export.
type stoppingStore struct {
	*store.Store
	mu    sync.Mutex
	parts int
	stop  func()
}

func (s *stoppingStore) AppendExportPart(ctx context.Context, next store.ExportJob, part []byte) error {
	err := s.Store.AppendExportPart(ctx, next, part)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parts--; s.parts == 0 {
		s.stop()
	}
	return err
}

func TestExportResumesAfterRestartWithoutRepeating(t *testing.T) {
	blocks := testChain(12)
	dir := t.TempDir()
	st := openStore(t, dir)
	indexBlocks(t, st, blocks)

	stopping := &stoppingStore{Store: st, parts: 3}
	r := startRunner(t, stopping, Config{StepTxs: 2}, nil)
	stopping.stop = r.stop
	addrs := []common.Address{alice}
	job := create(t, r.Runner, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: addrs})
	<-r.done // stopped after the third part
	rec, found, err := st.ExportJob(context.Background(), jobID(job.OperationID))
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, store.ExportRunning, rec.State)
	require.Equal(t, uint32(3), rec.Parts)
	require.NoError(t, st.Close())

	// The restart: the store reopened, a new runner resumes the job.
	st = openStore(t, dir)
	r2 := startRunner(t, st, Config{StepTxs: 2}, nil)
	require.Eventually(t, func() bool {
		rec, _, err := st.ExportJob(context.Background(), jobID(job.OperationID))
		require.NoError(t, err)
		return rec.State.Done()
	}, 10*time.Second, 5*time.Millisecond, "resumed without being asked")
	job = awaitDone(t, r2.Runner, job.OperationID)
	require.Equal(t, expectedCSV(t, blocks, addrs, 1, 12), result(t, r2.Runner, job), "every row once")
}

func TestExportTruncatesAtMaxRows(t *testing.T) {
	blocks := testChain(12)
	st := openStore(t, t.TempDir())
	indexBlocks(t, st, blocks)
	r := startRunner(t, st, Config{MaxRows: 5, StepTxs: 2}, nil)
	job := create(t, r.Runner, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice}})
	job = awaitDone(t, r.Runner, job.OperationID)
	require.Equal(t, store.ExportTruncated, job.Record.State)
	require.Equal(t, codeTruncated, job.Record.Code)
	require.Equal(t, uint64(5), job.Record.Rows)
	// alice's rows: blocks 1, 2, 3 (twice), 4, 5...: the sixth is block 5,
	// on day 1.
	require.Equal(t, "2024-05-02", job.Record.NextDate)
	full := expectedCSV(t, blocks, []common.Address{alice}, 1, 12)
	lines := bytes.SplitAfter([]byte(full), []byte("\n"))
	require.Equal(t, string(bytes.Join(lines[:6], nil)), result(t, r.Runner, job), "the header and the first five rows")
}

func TestAnyReplicaRunsTheSameExport(t *testing.T) {
	blocks := testChain(12)
	a := openStore(t, t.TempDir())
	indexBlocks(t, a, blocks)
	b := openStore(t, t.TempDir())
	indexBlocks(t, b, blocks[:6]) // behind: it catches up while the export waits

	ra := startRunner(t, a, Config{}, nil)
	rb := startRunner(t, b, Config{}, nil)
	job := create(t, ra.Runner, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice, carol}})
	onA := awaitDone(t, ra.Runner, job.OperationID)

	seen, err := rb.Status(context.Background(), job.OperationID)
	require.NoError(t, err)
	require.Equal(t, store.ExportRunning, seen.Record.State, "B waits for its index to reach block 12")
	time.Sleep(50 * time.Millisecond)
	seen, err = rb.Status(context.Background(), job.OperationID)
	require.NoError(t, err)
	require.Equal(t, store.ExportRunning, seen.Record.State)
	indexBlocks(t, b, blocks[6:])
	onB := awaitDone(t, rb.Runner, job.OperationID)
	require.Equal(t, result(t, ra.Runner, onA), result(t, rb.Runner, onB))
	require.Equal(t, onA.Spec, onB.Spec)
}

func TestOperationIDsAreCheckedAndExpire(t *testing.T) {
	st := openStore(t, t.TempDir())
	indexBlocks(t, st, testChain(3))
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	r := startRunner(t, st, Config{}, clock)
	ctx := context.Background()
	job := create(t, r.Runner, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice}})
	awaitDone(t, r.Runner, job.OperationID)

	_, err := r.Status(ctx, "aa22054a-cb7c-4a4e-9b83-59f2ede74138")
	require.ErrorIs(t, err, ErrUnknown)
	forged, err := encodeOperationID([]byte("another key"), job.Spec)
	require.NoError(t, err)
	_, err = r.Status(ctx, forged)
	require.ErrorIs(t, err, ErrUnknown, "signed with another key")

	mu.Lock()
	now = now.Add(25 * time.Hour)
	mu.Unlock()
	_, err = r.Status(ctx, job.OperationID)
	require.ErrorIs(t, err, ErrExpired)
	require.NoError(t, r.sweep(ctx))
	_, found, err := st.ExportJob(ctx, jobID(job.OperationID))
	require.NoError(t, err)
	require.False(t, found, "the sweep deleted it")
}

func TestOperationIDRoundTrip(t *testing.T) {
	key := []byte("k")
	spec := Spec{
		Chains:    []ChainRange{{Stream: "C", From: 1, To: 99}, {Stream: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", From: 50, To: 49}},
		Addresses: []common.Address{alice, bob},
		CreatedAt: time.Unix(1_700_000_000, 0),
	}
	id, err := encodeOperationID(key, spec)
	require.NoError(t, err)
	got, err := decodeOperationID(key, id, spec.CreatedAt)
	require.NoError(t, err)
	require.Equal(t, spec, got)
	require.Equal(t, jobID(id), jobID(id))

	spec.Addresses = make([]common.Address, MaxAddresses+1)
	_, err = encodeOperationID(key, spec)
	require.Error(t, err)
}

// panickingRows fails like a bug in the row shaping would.
type panickingRows struct{}

func (panickingRows) Row(uint64, *evmdata.IndexedTx) []string { panic("shaping bug") }

func TestExportFailuresAreRecorded(t *testing.T) {
	st := openStore(t, t.TempDir())
	indexBlocks(t, st, testChain(3))
	ctx := context.Background()

	// A panic fails the job, not the node.
	r := New(st, handlertest.NewFakes(), panickingRows{}, evm.ExportColumns(),
		Config{IndexPoll: time.Millisecond, ChainWait: 20 * time.Millisecond}, nil, nil)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); r.Run(runCtx) }()
	job := create(t, r, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice}})
	job = awaitDone(t, r, job.OperationID)
	require.Equal(t, store.ExportFailed, job.Record.State)
	require.Equal(t, codeInternal, job.Record.Code)
	require.Contains(t, job.Record.Message, "shaping bug")

	// A chain this node does not follow is the request's fault.
	spec := job.Spec
	spec.Chains = []ChainRange{{Stream: "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM", From: 1, To: 3}}
	other, err := r.Create(ctx, spec)
	require.NoError(t, err)
	other = awaitDone(t, r, other.OperationID)
	require.Equal(t, store.ExportFailed, other.Record.State)
	require.Equal(t, codeInvalidRequest, other.Record.Code)
	require.Contains(t, other.Record.Message, "does not follow the chain")
	cancel()
	<-done
}

func TestTooManyExportsAreRefused(t *testing.T) {
	st := openStore(t, t.TempDir())
	indexBlocks(t, st, testChain(3))
	// Not running: the jobs stay queued.
	r := New(st, handlertest.NewFakes(), evm.NewExportRows(), evm.ExportColumns(), Config{MaxJobs: 2}, nil, nil)
	ctx := context.Background()
	for _, a := range []common.Address{alice, bob} {
		create(t, r, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{a}})
	}
	spec, err := r.Spec(ctx, Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{carol}})
	require.NoError(t, err)
	_, err = r.Create(ctx, spec)
	require.ErrorIs(t, err, ErrBusy)
}
