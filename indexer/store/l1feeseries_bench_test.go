package store

import (
	"fmt"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// BenchmarkL1FeeSeriesWrite is the P writer's cost per block with many
// active L1 validations, with the fee series' rows written (on) and
// without them (off: a store that predates them), one block per commit as
// at the tip: blocks a minute apart, so a day's first block sweeps the
// active validations once every 1440 blocks.
func BenchmarkL1FeeSeriesWrite(b *testing.B) {
	for _, active := range []int{10, 1000} {
		for _, on := range []bool{true, false} {
			b.Run(fmt.Sprintf("active=%d/series=%v", active, on), func(b *testing.B) {
				s, _ := openL1Store(b)
				vals := make([]pdata.L1Validator, active)
				for i := range vals {
					vals[i] = pdata.L1Validator{ValidationID: ids.ID{'v', byte(i >> 8), byte(i)}, NodeID: ids.NodeID{byte(i >> 8), byte(i)},
						Subnet: ids.ID{'s'}, Weight: 1, Balance: 1 << 50}
				}
				writeP(b, s, []*pdata.Block{{Number: 1, ID: ids.ID{'B', 1}, Timestamp: l1Day0 + 200, Type: "BanffStandardBlock",
					AdvancesTime: true, Txs: []*pdata.Tx{l1Tx(1, "ConvertSubnetToL1Tx", vals...)}}})
				if !on {
					if err := s.db.Update(func(txn *badger.Txn) error {
						return txn.Delete(l1FeeDayKey(l1FeeDay(l1Day0 + 200)))
					}); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for i := range b.N {
					h := uint64(i + 2)
					writeP(b, s, []*pdata.Block{{Number: h, ID: ids.ID{'B', byte(h >> 16), byte(h >> 8), byte(h)},
						Timestamp: l1Day0 + 200 + int64(i+1)*60, Type: "BanffStandardBlock", AdvancesTime: true}})
				}
			})
		}
	}
}
