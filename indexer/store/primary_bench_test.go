package store

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

func benchID(tag byte, n int) ids.ID {
	var id ids.ID
	id[0] = tag
	binary.BigEndian.PutUint64(id[1:], uint64(n))
	copy(id[9:], []byte("random-looking tx id bytes"))
	return id
}

// BenchmarkBalances10kUTXOs sums the P-chain balance of one address that
// holds 10,000 UTXOs (written through the real writer, 100 per tx).
func BenchmarkBalances10kUTXOs(b *testing.B) {
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	defer s.Close()
	s.SetPrimaryNetwork(testNetwork(nil))
	var blocks []*pdata.Block
	for h := 1; h <= 100; h++ {
		tx := &pdata.Tx{ID: benchID('t', h), Type: "BaseTx", Bytes: make([]byte, 300)}
		for i := range 100 {
			u := out(tx.ID, uint32(i), uint64(i+1), addrA)
			u.Bytes = make([]byte, 90)
			tx.Produced = append(tx.Produced, u)
		}
		blocks = append(blocks, &pdata.Block{Number: uint64(h), ID: benchID('b', h), Timestamp: int64(1000 + h), Txs: []*pdata.Tx{tx}})
	}
	writeP(b, s, blocks)
	r := s.PrimaryReader(nil)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		got, err := r.Balances(ctx, netinfo.P, []ids.ShortID{addrA}, 5000)
		if err != nil || len(got) != 1 || got[0].UTXOs != 10_000 {
			b.Fatalf("balances: %v %v", got, err)
		}
	}
}

// BenchmarkPrimaryIndexBytes reports the index size per tx of P-chain
// traffic shaped like BaseTxs: 300 signed bytes, one input, two outputs (to
// the recipient and back as change), among 1,000 addresses.
func BenchmarkPrimaryIndexBytes(b *testing.B) {
	const txs, perBlock = 20_000, 4
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		s, err := Open(dir, logging.NoLog{})
		require.NoError(b, err)
		s.SetPrimaryNetwork(testNetwork(nil))
		w := s.PrimaryWriter(netinfo.P)
		addr := func(n int) ids.ShortID { return ids.ShortID{byte(n), byte(n >> 8), 0xAD} }
		rnd := rand.New(rand.NewPCG(1, 2))
		// Signed tx and UTXO bytes hold keys and signatures: incompressible.
		noise := func(n int) []byte {
			buf := make([]byte, n)
			for i := range buf {
				buf[i] = byte(rnd.Uint32())
			}
			return buf
		}
		b.StartTimer()
		var prev []pdata.UTXO // the previous block's change outputs, spent by this block
		var batch []*pdata.Block
		for h := 1; h <= txs/perBlock; h++ {
			block := &pdata.Block{Number: uint64(h), ID: benchID('b', h), ParentID: benchID('b', h-1),
				Timestamp: int64(1_700_000_000 + h), Type: "BanffStandardBlock", Size: 1200,
				Proposer: &pdata.Proposer{ID: benchID('b', h), ParentID: benchID('b', h-1), NodeID: ids.NodeID{byte(h % 5)}}}
			var next []pdata.UTXO
			for i := range perBlock {
				n := h*perBlock + i
				tx := &pdata.Tx{ID: benchID('t', n), Type: "BaseTx", Bytes: noise(300)}
				if prev != nil {
					tx.Consumed = []pdata.Input{spend(prev[i])}
				}
				to, change := out(tx.ID, 0, 1000, addr(n*7%1000)), out(tx.ID, 1, 5000, addr(n%1000))
				to.Bytes, change.Bytes = noise(90), noise(90)
				tx.Produced = []pdata.UTXO{to, change}
				next = append(next, change)
				block.Txs = append(block.Txs, tx)
			}
			prev = next
			if batch = append(batch, block); len(batch) == 256 {
				if err := w.Apply(context.Background(), batch, time.Now()); err != nil {
					b.Fatal(err)
				}
				batch = nil
			}
		}
		if err := w.Apply(context.Background(), batch, time.Now()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		require.NoError(b, s.Close()) // flushes the memtables, so the size is what stays
		b.ReportMetric(float64(dirBytes(dir))/txs, "bytes/tx")
		b.StartTimer()
	}
}
