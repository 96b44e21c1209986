package evmchain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// fixtureNode serves the fixture as block 42 of a chain whose other blocks
// (0..head) are empty, through libevm's JSON-RPC server.
type fixtureNode struct {
	head     uint64
	block    json.RawMessage
	receipts json.RawMessage
	traces   json.RawMessage
	// traceErr, when set, is the node's answer to any trace.
	traceErr error
	traced   atomic.Int32 // debug_traceBlockByNumber calls
}

func newFixtureNode(t *testing.T, head uint64) *fixtureNode {
	n := &fixtureNode{head: head}
	readFixture(t, "block.json", &n.block)
	readFixture(t, "receipts.json", &n.receipts)
	readFixture(t, "traces.json", &n.traces)
	return n
}

type fixtureEth struct{ n *fixtureNode }

func (s fixtureEth) BlockNumber() hexutil.Uint64 { return hexutil.Uint64(s.n.head) }

func (s fixtureEth) GetBlockByNumber(h hexutil.Uint64, full bool) (json.RawMessage, error) {
	switch {
	case !full:
		return nil, errors.New("the source must ask for full txs")
	case uint64(h) > s.n.head:
		return nil, errors.New("cannot query unfinalized data")
	case h == fixtureHeight:
		return s.n.block, nil
	}
	return json.Marshal(map[string]any{
		"number": h, "hash": common.BigToHash(bigU(uint64(h))), "parentHash": common.BigToHash(bigU(uint64(h) - 1)),
		"timestamp": hexutil.Uint64(1716560800 + h), "gasUsed": "0x0", "gasLimit": "0xe4e1c0",
		"miner": "0x0100000000000000000000000000000000000000", "size": "0x2a1", "transactions": []any{},
		"baseFeePerGas": "0x5d21dba00",
	})
}

func (s fixtureEth) GetBlockReceipts(h hexutil.Uint64) (json.RawMessage, error) {
	switch {
	case uint64(h) > s.n.head:
		return json.RawMessage("null"), nil
	case h == fixtureHeight:
		return s.n.receipts, nil
	}
	return json.RawMessage("[]"), nil
}

type fixtureDebug struct{ n *fixtureNode }

func (s fixtureDebug) TraceBlockByNumber(h hexutil.Uint64, _ json.RawMessage) (json.RawMessage, error) {
	s.n.traced.Add(1)
	switch {
	case s.n.traceErr != nil:
		return nil, s.n.traceErr
	case h == fixtureHeight:
		return s.n.traces, nil
	}
	return json.RawMessage("[]"), nil
}

// serve starts the node, with the debug API when withDebug, and returns a
// source reading it.
func (n *fixtureNode) serve(t *testing.T, withDebug bool, opts Options) *Source {
	t.Helper()
	rs := rpc.NewServer()
	require.NoError(t, rs.RegisterName("eth", fixtureEth{n}))
	if withDebug {
		require.NoError(t, rs.RegisterName("debug", fixtureDebug{n}))
	}
	hs := httptest.NewServer(rs)
	t.Cleanup(hs.Close)
	t.Cleanup(rs.Stop)
	c, err := nodeapi.DialEVM(context.Background(), hs.URL, "C")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return NewSource(c, opts)
}

// warnLog records warnings.
type warnLog struct {
	logging.NoLog
	mu    sync.Mutex
	warns []string
}

func (l *warnLog) Warn(msg string, _ ...zap.Field) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.warns = append(l.warns, msg)
}

func (l *warnLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.warns)
}

func TestHead(t *testing.T) {
	src := newFixtureNode(t, 43).serve(t, true, DefaultOptions())
	h, err := src.Head(context.Background())
	require.NoError(t, err)
	require.Equal(t, uint64(43), h)
}

func TestFetchTraced(t *testing.T) {
	n := newFixtureNode(t, 43)
	src := n.serve(t, true, DefaultOptions())
	blocks, err := src.Fetch(context.Background(), 40, 10)
	require.NoError(t, err)
	require.Len(t, blocks, 4, "blocks 40..43: the node has no more")
	for i, b := range blocks {
		require.Equal(t, uint64(40+i), b.Number)
		require.True(t, b.Traced, "block %d", b.Number)
	}
	require.Len(t, blocks[2].Txs, 7)
	require.Len(t, blocks[2].Txs[6].Internal, 6)
	require.Len(t, blocks[2].Txs[2].Creations, 2)
	require.Equal(t, int32(1), n.traced.Load(), "blocks without txs are not traced")
}

func TestFetchMatchesParseBlock(t *testing.T) {
	src := newFixtureNode(t, 43).serve(t, true, DefaultOptions())
	blocks, err := src.Fetch(context.Background(), fixtureHeight, 1)
	require.NoError(t, err)
	data, traces := fixture(t)
	want, err := ParseBlock(data, traces, true)
	require.NoError(t, err)
	require.Equal(t, []*evmdata.Block{want}, blocks)
}

func TestFetchWithTracingOff(t *testing.T) {
	n := newFixtureNode(t, 43)
	blocks, err := n.serve(t, true, Options{Trace: false}).Fetch(context.Background(), 41, 3)
	require.NoError(t, err)
	require.Len(t, blocks, 3)
	for _, b := range blocks {
		require.False(t, b.Traced)
	}
	require.Empty(t, blocks[1].Txs[6].Internal)
	require.Zero(t, n.traced.Load())
}

func TestFetchWhenTheNodeCannotTrace(t *testing.T) {
	tests := map[string]struct {
		withDebug bool
		traceErr  error
	}{
		"debug API off": {withDebug: false},
		"state pruned":  {withDebug: true, traceErr: errors.New("required historical state unavailable (reexec=128)")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n := newFixtureNode(t, 43)
			n.traceErr = tc.traceErr
			log := &warnLog{}
			src := n.serve(t, tc.withDebug, Options{Trace: true, Log: log})
			for range 3 {
				blocks, err := src.Fetch(context.Background(), 42, 2)
				require.NoError(t, err)
				require.False(t, blocks[0].Traced)
				require.Empty(t, blocks[0].Txs[6].Internal)
				require.Len(t, blocks[0].Txs[4].Transfers, 4, "receipts are read all the same")
			}
			require.Equal(t, 1, log.count(), "logged once per source")
		})
	}
}

func TestFetchFailsOnOtherTraceErrors(t *testing.T) {
	n := newFixtureNode(t, 43)
	n.traceErr = errors.New("tracing failed: insufficient funds for gas * price + value")
	_, err := n.serve(t, true, DefaultOptions()).Fetch(context.Background(), 40, 4)
	require.ErrorContains(t, err, "debug_traceBlockByNumber(42): tracing failed: insufficient funds")
}

func TestFetchFailsOnBadReceipts(t *testing.T) {
	n := newFixtureNode(t, 43)
	var receipts []json.RawMessage
	require.NoError(t, json.Unmarshal(n.receipts, &receipts))
	n.receipts = mustJSON(t, receipts[:6])
	_, err := n.serve(t, true, DefaultOptions()).Fetch(context.Background(), 40, 4)
	require.ErrorContains(t, err, "C: block 42: 6 receipts for 7 txs")
}

func TestFetchAboveHead(t *testing.T) {
	blocks, err := newFixtureNode(t, 43).serve(t, true, DefaultOptions()).Fetch(context.Background(), 44, 10)
	require.NoError(t, err)
	require.Empty(t, blocks)
}

func TestFetchConcurrently(t *testing.T) {
	n := newFixtureNode(t, 100)
	src := n.serve(t, true, DefaultOptions())
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			from := uint64(i * 10)
			blocks, err := src.Fetch(context.Background(), from, 10)
			if err == nil && (len(blocks) != 10 || blocks[0].Number != from) {
				err = fmt.Errorf("range %d: got %d blocks", from, len(blocks))
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
}

func bigU(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

func mustJSON(t *testing.T, v any) json.RawMessage {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
