package store

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"syscall"
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

// noiseSource returns a maker of the same pseudo-random bytes on every
// run: signed tx and UTXO bytes hold keys and signatures, incompressible.
func noiseSource() func(n int) []byte {
	rnd := rand.New(rand.NewPCG(1, 2))
	return func(n int) []byte {
		buf := make([]byte, n)
		for i := range buf {
			buf[i] = byte(rnd.Uint32())
		}
		return buf
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
		noise := noiseSource()
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

// BenchmarkPrimaryWriterBaseTxs is the writer's share of a P-chain catch-up
// shaped like the e2e benchmark's: one BaseTx per block (one input, the
// previous change, and two outputs), two addresses, proposer rows, batches
// of 64 blocks, into a fresh store. It reports the process CPU per block,
// Badger's background work included, which is what the writer takes from
// the fetchers on a machine whose cores are all busy. 2,000 blocks fit one
// memtable, as in the e2e benchmark; 20,000 also flush one.
func BenchmarkPrimaryWriterBaseTxs(b *testing.B) {
	for _, blocks := range []int{2_000, 20_000} {
		b.Run(strconv.Itoa(blocks), func(b *testing.B) { benchPrimaryWriter(b, blocks, nil) })
	}
}

// benchPrimaryWriter writes the blocks into fresh stores, each set up by
// setup first (nil: none).
func benchPrimaryWriter(b *testing.B, blocks int, setup func(*Store)) {
	const batchSize = 64
	noise := noiseSource()
	sender, recipient := ids.ShortID{0xE1}, ids.ShortID{0xE2}
	var all []*pdata.Block
	var change *pdata.UTXO
	for h := 1; h <= blocks; h++ {
		tx := &pdata.Tx{ID: benchID('t', h), Type: "BaseTx", Bytes: noise(350)}
		if change != nil {
			tx.Consumed = []pdata.Input{spend(*change)}
		}
		to, back := out(tx.ID, 0, 1000, recipient), out(tx.ID, 1, 5000, sender)
		to.Bytes, back.Bytes = noise(60), noise(60)
		tx.Produced = []pdata.UTXO{to, back}
		change = &tx.Produced[1]
		all = append(all, &pdata.Block{Number: uint64(h), ID: benchID('b', h), ParentID: benchID('b', h-1),
			Timestamp: int64(1_700_000_000 + h), Type: "BanffStandardBlock", Size: 600, Txs: []*pdata.Tx{tx},
			Proposer: &pdata.Proposer{ID: benchID('p', h), ParentID: benchID('p', h-1), NodeID: ids.NodeID{0x01}}})
	}
	var cpu time.Duration
	var faults int64
	for range b.N {
		b.StopTimer()
		s, err := Open(b.TempDir(), logging.NoLog{})
		require.NoError(b, err)
		s.SetPrimaryNetwork(testNetwork(nil))
		if setup != nil {
			setup(s)
		}
		w := s.PrimaryWriter(netinfo.P)
		before, faultsBefore := processCPU(b)
		b.StartTimer()
		for from := 0; from < len(all); from += batchSize {
			if err := w.Apply(context.Background(), all[from:min(from+batchSize, len(all))], time.Now()); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		after, faultsAfter := processCPU(b)
		cpu, faults = cpu+after-before, faults+faultsAfter-faultsBefore
		require.NoError(b, s.Close())
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*blocks), "cpu-µs/block")
	b.ReportMetric(float64(faults)/float64(b.N*blocks), "faults/block")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*blocks), "µs/block")
}

// processCPU is the user and system CPU time this process has used, and
// its page faults (each a costly trap on a virtual machine).
func processCPU(b *testing.B) (time.Duration, int64) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Minflt + ru.Majflt
}
