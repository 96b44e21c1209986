package store

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// randomChain makes n blocks of mixed activity over a few addresses and
// contracts: native transfers, ERC-20, ERC-721 (mints, moves, burns, and
// logs whose sender is not the owner), ERC-1155 (mints, moves, burns),
// contracts whose transfers reveal different standards, internal txs, and
// creations (an address created twice included).
func randomChain(seed uint64, n int) []*evmdata.Block {
	r := rand.New(rand.NewPCG(seed, 1))
	addrs := []common.Address{alice, bob, carol, common.HexToAddress("0xd00d"), common.HexToAddress("0xe11e")}
	contracts := []common.Address{token, nft, multi, common.HexToAddress("0xc0de1"), common.HexToAddress("0xc0de2")}
	kinds := []evmdata.ErcType{evmdata.Erc20, evmdata.Erc721, evmdata.Erc1155}
	pick := func(a []common.Address) common.Address { return a[r.IntN(len(a))] }
	var c chainBuilder
	var out []*evmdata.Block
	for range n {
		var txs []evmdata.Tx
		log := uint32(0) // a block's log indexes run across its txs
		for range r.IntN(4) {
			tx := transferTx(pick(addrs), pick(append(addrs, contracts...)))
			tx.GasUsed, tx.GasPrice = uint64(21000+r.IntN(5000)), big.NewInt(int64(25+r.IntN(5)))
			if r.IntN(8) == 0 {
				tx.Status = 0
			}
			for range r.IntN(4) {
				kind := kinds[r.IntN(len(kinds))]
				contract := pick(contracts)
				from, to := pick(addrs), pick(addrs)
				switch r.IntN(5) {
				case 0:
					from = common.Address{}
				case 1:
					to = common.Address{}
				}
				tr := nftMove(kind, contract, from, to, int64(r.IntN(4)), int64(1+r.IntN(3)), log)
				if kind == evmdata.Erc20 {
					tr.TokenID = nil
				}
				tx.Transfers = append(tx.Transfers, tr)
				if kind == evmdata.Erc1155 && r.IntN(3) == 0 { // a TransferBatch of two ids
					tr = nftMove(kind, contract, from, to, int64(r.IntN(4)), int64(1+r.IntN(3)), log)
					tr.BatchIndex = 1
					tx.Transfers = append(tx.Transfers, tr)
				}
				log++
			}
			if r.IntN(3) == 0 {
				tx.Internal = append(tx.Internal, evmdata.InternalTx{Index: 1, Type: evmdata.Call,
					From: pick(contracts), To: pick(addrs), Value: big.NewInt(int64(r.IntN(9)))})
			}
			if r.IntN(6) == 0 && tx.Status == 1 {
				// A creation tx, shaped as evmchain makes it: no recipient,
				// the receipt's contract address, and for a contract-made
				// contract the trace's CREATE frame.
				created := pick(contracts)
				tx.To, tx.ContractAddress = nil, &created
				tx.Creations = append(tx.Creations, evmdata.ContractCreation{Address: created, Deployer: tx.From})
				if r.IntN(2) == 0 {
					factoryMade := common.HexToAddress("0xfac")
					tx.Creations = append(tx.Creations, evmdata.ContractCreation{Address: factoryMade,
						Deployer: tx.From, DeployerContract: created})
					tx.Internal = append(tx.Internal, evmdata.InternalTx{Index: 2, Type: evmdata.Create2,
						From: created, To: factoryMade, Value: new(big.Int)})
				}
			}
			txs = append(txs, tx)
		}
		b := c.block(txs...)
		if len(out) > 0 {
			b.ParentHash = out[len(out)-1].Hash
		}
		out = append(out, b)
	}
	return out
}

// dumpAll is every key and value of the store, in key order.
func dumpAll(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	require.NoError(t, s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			v, err := it.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			out = append(out, hex.EncodeToString(it.Item().Key())+" = "+hex.EncodeToString(v))
		}
		return nil
	}))
	return out
}

// A chain indexed from a later height, back-filled to genesis in batches
// while the follower keeps writing newer blocks, then re-derived (also
// while the follower writes), holds exactly the rows, byte for byte, of
// the same chain indexed from genesis.
func TestBackfillEqualsFromGenesis(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { backfillEqualsFromGenesis(t, seed) })
	}
}

func backfillEqualsFromGenesis(t *testing.T, seed uint64) {
	backfillScenario(t, evmChain, randomChain(seed, 90), nil, nil)
}

// backfillScenario indexes the 90 blocks of chain into id from genesis,
// and again from block 40, back-filled to genesis and re-derived while
// the follower writes, and requires the same rows in both. setup prepares
// each store; during, if given, checks the back-filled store while the
// re-derive runs.
func backfillScenario(t *testing.T, evmChain netinfo.Chain, chain []*evmdata.Block, setup, during func(*Store)) {
	ctx := context.Background()
	now := time.Unix(1_700_100_000, 0)
	at := func(from, to uint64) []*evmdata.Block { return chain[from-1 : to] }
	if setup == nil {
		setup = func(*Store) {}
	}

	genesis := openTest(t, t.TempDir())
	defer genesis.Close()
	setup(genesis)
	require.NoError(t, genesis.EVMWriter(evmChain).Apply(ctx, chain, now))

	s := openTest(t, t.TempDir())
	defer s.Close()
	setup(s)
	w := s.EVMWriter(evmChain)
	require.NoError(t, w.Start(ctx, 40))
	require.NoError(t, w.Apply(ctx, at(40, 55), now))
	ascending := at(30, 39)
	require.NoError(t, w.Backfill(ctx, ascending))
	from, err := s.HistoryFrom(ctx, evmChain)
	require.NoError(t, err)
	require.Equal(t, uint64(30), from)
	require.ErrorIs(t, w.Backfill(ctx, at(10, 20)), ErrNotContiguous, "a gap is refused")
	other := *chain[28]
	other.Hash = common.HexToHash("0xbad")
	require.ErrorIs(t, w.Backfill(ctx, []*evmdata.Block{&other}), ErrNotParent, "a block of another history is refused")
	require.NoError(t, w.Apply(ctx, at(56, 60), now))
	descending := []*evmdata.Block{}
	for i := 29; i >= 12; i-- {
		descending = append(descending, chain[i-1])
	}
	require.NoError(t, w.Backfill(ctx, descending))
	pending, err := s.BackfillPending(ctx, evmChain)
	require.NoError(t, err)
	require.True(t, pending)
	runningFrom, ok, err := s.RunningStateFrom(ctx, evmChain)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint64(40), runningFrom, "the running state counts from where the index began")
	require.NoError(t, w.Apply(ctx, at(61, 70), now))
	require.NoError(t, w.Backfill(ctx, at(1, 11)))
	from, err = s.HistoryFrom(ctx, evmChain)
	require.NoError(t, err)
	require.Equal(t, uint64(1), from)

	// The re-derive, one step at a time, with the follower writing between.
	next := uint64(71)
	for steps := 0; ; steps++ {
		require.Less(t, steps, 100)
		_, done, err := w.Rederive(ctx, 7)
		require.NoError(t, err)
		if done {
			break
		}
		_, ok, err := s.RunningStateFrom(ctx, evmChain)
		require.NoError(t, err)
		require.False(t, ok, "nothing of the running state holds while it is re-derived")
		if during != nil {
			during(s)
		}
		if next <= 90 {
			require.NoError(t, w.Apply(ctx, at(next, next), now))
			next++
		}
	}
	if next <= 90 {
		require.NoError(t, w.Apply(ctx, at(next, 90), now))
	}
	pending, err = s.BackfillPending(ctx, evmChain)
	require.NoError(t, err)
	require.False(t, pending)
	runningFrom, ok, err = s.RunningStateFrom(ctx, evmChain)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint64(1), runningFrom)

	want, got := dumpAll(t, genesis), dumpAll(t, s)
	if !equalDumps(t, want, got) {
		t.FailNow()
	}
}

// equalDumps reports the first rows that differ.
func equalDumps(t *testing.T, want, got []string) bool {
	t.Helper()
	i, j, shown := 0, 0, 0
	for (i < len(want) || j < len(got)) && shown < 12 {
		switch {
		case i < len(want) && j < len(got) && want[i] == got[j]:
			i++
			j++
			continue
		case j >= len(got) || (i < len(want) && bytes.Compare([]byte(want[i]), []byte(got[j])) < 0):
			t.Errorf("only from genesis: %s", want[i])
			i++
		default:
			t.Errorf("only back-filled:   %s", got[j])
			j++
		}
		shown++
	}
	return shown == 0 && len(want) == len(got)
}

// BenchmarkBackfill measures the back-fill's two phases on synthetic
// blocks of mixed activity: writing 1,000 blocks below an index of 1,000
// (in batches of 100), then re-deriving the running state of all 2,000.
func BenchmarkBackfill(b *testing.B) {
	ctx := context.Background()
	now := time.Unix(1_700_100_000, 0)
	chain := randomChain(7, 2000)
	var fill, rederive time.Duration
	for range b.N {
		b.StopTimer()
		s, err := Open(b.TempDir(), logging.NoLog{})
		require.NoError(b, err)
		w := s.EVMWriter(evmChain)
		require.NoError(b, w.Start(ctx, 1001))
		require.NoError(b, w.Apply(ctx, chain[1000:], now))
		b.StartTimer()
		started := time.Now()
		for first := 1001; first > 1; first -= 100 {
			require.NoError(b, w.Backfill(ctx, chain[first-101:first-1]))
		}
		fill += time.Since(started)
		started = time.Now()
		for {
			_, done, err := w.Rederive(ctx, 800)
			require.NoError(b, err)
			if done {
				break
			}
		}
		rederive += time.Since(started)
		b.StopTimer()
		require.NoError(b, s.Close())
	}
	b.ReportMetric(float64(1000*b.N)/fill.Seconds(), "filled-blocks/s")
	b.ReportMetric(float64(2000*b.N)/rederive.Seconds(), "rederived-blocks/s")
}
