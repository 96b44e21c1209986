package operations

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/store"
)

var (
	alice = common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	bob   = common.HexToAddress("0x0000000000000000000000000000000000000b0b")
)

// keyHeader sends the API key handlertest.Config configures.
var keyHeader = []string{"x-data-api-key", "known-key"}

// testAPI serves the operations over a real store holding blocks 1-4 of
// the fake network's subnet chain (alice pays bob once a block) and a
// running export runner; start is false to leave the runner stopped.
func newTestAPI(t *testing.T, start bool) (*handlertest.API, *store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	var blocks []*evmdata.Block
	for h := uint64(1); h <= 4; h++ {
		tx := evmdata.Tx{Hash: common.BigToHash(big.NewInt(int64(h))), From: alice, To: &bob, Value: big.NewInt(int64(h)),
			Status: 1, Gas: 21000, GasUsed: 21000, GasPrice: big.NewInt(25)}
		blocks = append(blocks, &evmdata.Block{Number: h, Hash: common.BigToHash(big.NewInt(int64(1000 + h))),
			Timestamp: 1_714_521_600 + h, Txs: []evmdata.Tx{tx}})
	}
	require.NoError(t, st.EVMWriter(fakenet.SubnetChain).Apply(context.Background(), blocks, time.Now()))

	fakes := handlertest.NewFakes()
	runner := exportjob.New(st, fakes, evm.NewExportRows(), evm.ExportColumns(), exportjob.Config{}, nil, nil)
	if start {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			runner.Run(ctx)
		}()
		t.Cleanup(func() { cancel(); <-done })
	}
	return handlertest.NewAPI(t, handlertest.Config(), fakes, func(core *api.Core) []api.Route { return Routes(core, runner) }), st
}
