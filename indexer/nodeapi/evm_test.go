package nodeapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
)

// fakeEVM is a chain of blocks 0..head served by libevm's JSON-RPC server,
// the one coreth and subnet-evm use, so batch limits behave as on a node.
// Every block has one tx.
type fakeEVM struct {
	head uint64
	// padding grows every block's JSON, to reach response size limits.
	padding int
	// unfinalizedErr makes heights above head fail as coreth does by
	// default, instead of answering null.
	unfinalizedErr bool
	// receiptsErr and traceErr fail those calls at one height.
	receiptsErr map[uint64]error
	traceErr    map[uint64]error
}

func blockHash(n uint64) common.Hash { return common.BigToHash(new(big.Int).SetUint64(n + 1000)) }
func txHash(n uint64) common.Hash    { return common.BigToHash(new(big.Int).SetUint64(n + 5000)) }

type fakeEth struct{ f *fakeEVM }

func (s fakeEth) ChainId() *hexutil.Big       { return (*hexutil.Big)(big.NewInt(43112)) }
func (s fakeEth) BlockNumber() hexutil.Uint64 { return hexutil.Uint64(s.f.head) }

func (s fakeEth) GetBlockByNumber(n hexutil.Uint64, full bool) (map[string]any, error) {
	if uint64(n) > s.f.head {
		if s.f.unfinalizedErr {
			return nil, errors.New("cannot query unfinalized data")
		}
		return nil, nil
	}
	tx := map[string]any{
		"hash": txHash(uint64(n)), "type": "0x0", "from": common.Address{1}, "to": common.Address{2},
		"nonce": n, "value": "0x1", "gas": "0x5208", "gasPrice": "0x5d21dba00", "input": "0x",
	}
	return map[string]any{
		"number": n, "hash": blockHash(uint64(n)), "parentHash": blockHash(uint64(n) - 1),
		"timestamp": n, "gasUsed": "0x5208", "gasLimit": "0xe4e1c0", "miner": common.Address{},
		"size": "0x300", "transactions": []any{tx}, "extraData": "0x" + strings.Repeat("00", s.f.padding),
	}, nil
}

func (s fakeEth) GetBlockReceipts(n hexutil.Uint64) ([]map[string]any, error) {
	if err := s.f.receiptsErr[uint64(n)]; err != nil {
		return nil, err
	}
	if uint64(n) > s.f.head {
		return nil, nil // coreth answers null, even where the block call fails
	}
	return []map[string]any{{
		"transactionHash": txHash(uint64(n)), "blockHash": blockHash(uint64(n)), "status": "0x1",
		"gasUsed": "0x5208", "effectiveGasPrice": "0x5d21dba00", "contractAddress": nil, "logs": []any{},
	}}, nil
}

type fakeDebug struct{ f *fakeEVM }

func (s fakeDebug) TraceBlockByNumber(n hexutil.Uint64, cfg json.RawMessage) ([]map[string]any, error) {
	if err := s.f.traceErr[uint64(n)]; err != nil {
		return nil, err
	}
	if uint64(n) > s.f.head {
		return nil, fmt.Errorf("block #%d not found", n)
	}
	var want traceConfig
	if err := json.Unmarshal(cfg, &want); err != nil || want != callTracerConfig() {
		return nil, fmt.Errorf("unexpected trace config %s", cfg)
	}
	root := map[string]any{"type": "CALL", "from": common.Address{1}, "to": common.Address{2}, "value": "0x1", "gas": "0x0", "gasUsed": "0x5208"}
	return []map[string]any{{"txHash": txHash(uint64(n)), "result": root}}, nil
}

// server records the batch sizes it was sent.
type server struct {
	url string
	mu  sync.Mutex
	// batches holds the number of calls of each request, in order; a single
	// (non-batch) call counts 0.
	batches []int
}

func (s *server) sizes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.batches...)
}

// serve starts f behind libevm's server with the given batch limits (0:
// none). withDebug registers the debug API; refuseOver, when positive,
// makes the HTTP layer answer 413 to batches with more calls.
func serve(t *testing.T, f *fakeEVM, itemLimit, responseLimit int, withDebug bool, refuseOver int) *server {
	t.Helper()
	rs := rpc.NewServer()
	rs.SetBatchLimits(itemLimit, responseLimit)
	require.NoError(t, rs.RegisterName("eth", fakeEth{f}))
	if withDebug {
		require.NoError(t, rs.RegisterName("debug", fakeDebug{f}))
	}
	s := &server{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		n := batchLen(body)
		s.mu.Lock()
		s.batches = append(s.batches, n)
		s.mu.Unlock()
		if refuseOver > 0 && n > refuseOver {
			http.Error(w, "request entity too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rs.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(rs.Stop)
	s.url = hs.URL
	return s
}

func batchLen(body []byte) int {
	var calls []json.RawMessage
	if json.Unmarshal(body, &calls) != nil {
		return 0
	}
	return len(calls)
}

// dial returns a client of the fake; the fake serves any path.
func dial(t *testing.T, s *server) *EVMClient {
	t.Helper()
	c, err := DialEVM(context.Background(), s.url+"/", "C")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

func requireBlocks(t *testing.T, got []EVMBlockData, from uint64, count int) {
	t.Helper()
	require.Len(t, got, count)
	for i, d := range got {
		n := from + uint64(i)
		require.Equal(t, n, uint64(d.Block.Number))
		require.Equal(t, blockHash(n), d.Block.Hash)
		require.Len(t, d.Block.Transactions, 1)
		require.Len(t, d.Receipts, 1)
		require.Equal(t, txHash(n), d.Receipts[0].TxHash)
	}
}
