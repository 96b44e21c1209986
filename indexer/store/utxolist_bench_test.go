package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// BenchmarkUTXOs10k lists the P-chain UTXOs of one address that holds
// 10,000 unspent ones (written through the real writer, 100 per tx; every
// tenth tx spends the previous tx's 100): the first page and a page 9,000
// UTXOs deep, by time and by amount, 100 per page. A page reads its own
// rows only, so both cost the same.
func BenchmarkUTXOs10k(b *testing.B) {
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	defer s.Close()
	s.SetPrimaryNetwork(testNetwork(nil))
	var blocks []*pdata.Block
	var prev *pdata.Tx
	for h := 1; h <= 111; h++ {
		tx := &pdata.Tx{ID: benchID('t', h), Type: "BaseTx", Bytes: make([]byte, 300)}
		if prev != nil && h%10 == 0 { // spend the previous tx's outputs
			for _, u := range prev.Produced {
				tx.Consumed = append(tx.Consumed, spend(u))
			}
		}
		for i := range 100 {
			u := out(tx.ID, uint32(i), uint64((i*7919+h)%1000+1), addrA)
			u.Bytes = make([]byte, 90)
			tx.Produced = append(tx.Produced, u)
		}
		blocks = append(blocks, &pdata.Block{Number: uint64(h), ID: benchID('b', h), Timestamp: int64(1000 + h), Txs: []*pdata.Tx{tx}})
		prev = tx
	}
	writeP(b, s, blocks)
	r := s.PrimaryReader(nil)
	ctx := context.Background()
	addrs := []ids.ShortID{addrA}
	for _, sort := range []struct {
		name     string
		byAmount bool
	}{{"time", false}, {"amount", true}} {
		q := pdata.UTXOQuery{Addresses: addrs, ByAmount: sort.byAmount, Desc: true}
		whole, err := r.UTXOs(ctx, netinfo.P, q)
		require.NoError(b, err)
		require.Equal(b, 10_000, len(whole.UTXOs))
		deep := listPos(whole.UTXOs[8_999], sort.byAmount)
		for _, page := range []struct {
			name  string
			after *pdata.UTXOPos
		}{{"first", nil}, {"deep", &deep}} {
			b.Run(sort.name+"/"+page.name, func(b *testing.B) {
				q := q
				q.Limit, q.After = 100, page.after
				for range b.N {
					got, err := r.UTXOs(ctx, netinfo.P, q)
					if err != nil || len(got.UTXOs) != 100 {
						b.Fatalf("page: %d utxos, %v", len(got.UTXOs), err)
					}
				}
			})
		}
	}
}
