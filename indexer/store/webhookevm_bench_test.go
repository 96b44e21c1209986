package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/webhookdata"
)

// BenchmarkEVMWriteFullBlocksWatched is BenchmarkEVMWriteFullBlocks with
// address_activity webhooks: one watching an address no tx touches (the
// cost of matching every tx), one watching one of the four senders (every
// tx of a quarter of the blocks gives an event), the same with logs and
// internal transactions.
func BenchmarkEVMWriteFullBlocksWatched(b *testing.B) {
	idle := common.HexToAddress("0xdead")
	sender := common.BigToAddress(big.NewInt(0x5000))
	for _, bc := range []struct {
		name  string
		watch common.Address
		full  bool
	}{{"matching-only", idle, false}, {"busy-sender", sender, false}, {"busy-sender-logs-internals", sender, true}} {
		b.Run(bc.name, func(b *testing.B) {
			const blocks, batch = 640, 64
			chain := fullBlocks(1, blocks)
			ctx := context.Background()
			events := 0
			for range b.N {
				b.StopTimer()
				s, err := Open(b.TempDir(), logging.NoLog{})
				require.NoError(b, err)
				h := evmHook(b, s, 1, []common.Address{bc.watch}, func(h *webhookdata.Webhook) {
					h.IncludeLogs, h.IncludeInternalTxs = bc.full, bc.full
				})
				w := s.EVMWriter(evmChain)
				b.StartTimer()
				for from := 0; from < blocks; from += batch {
					require.NoError(b, w.Apply(ctx, chain[from:min(from+batch, blocks)], time.Now()))
				}
				b.StopTimer()
				out, err := s.Outbox(ctx, h.ID, 1<<20)
				require.NoError(b, err)
				events = len(out)
				require.NoError(b, s.Close())
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N*blocks*150)/b.Elapsed().Seconds(), "tx/s")
			b.ReportMetric(float64(events), "events")
		})
	}
}
