package store

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// A C-chain indexed from block 40, back-filled to genesis and re-derived
// while the follower writes, holds the burn totals (0x62) a from-genesis
// build writes, byte for byte with every other row: its blocks carry EVM
// txs and atomic txs (exports debiting EVM accounts, imports crediting
// them, some burning nothing). While the re-derive runs the totals are
// unknown, never partial. In one seed a tx that mints (a misreading the
// writer refuses to total) leaves the totals unknown from its block on,
// in both builds alike.
func TestBackfillCBurnsEqualsFromGenesis(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { backfillCBurns(t, seed, seed == 4) })
	}
}

func backfillCBurns(t *testing.T, seed uint64, minting bool) {
	ctx := context.Background()
	chain := randomChain(seed, 90)
	txs := map[ids.ID]*pdata.Tx{}
	wantAtomic, wantEVM := addAtomicTxs(seed, chain, txs, minting)
	net := testNetwork(nil)
	net.AVAXAssetID = avax
	net.DecodeAtomic = func(b []byte) (*pdata.Tx, error) {
		id, err := ids.ToID(b)
		if err != nil {
			return nil, err
		}
		tx, ok := txs[id]
		if !ok {
			return nil, fmt.Errorf("unknown tx %s", id)
		}
		cp := *tx
		return &cp, nil
	}
	setup := func(s *Store) { s.SetPrimaryNetwork(net) }
	supply := func(s *Store) pdata.AvaxSupply {
		got, err := s.PrimaryReader(nil).AvaxSupply(ctx, 0)
		require.NoError(t, err)
		return got
	}
	during := func(s *Store) {
		got := supply(s)
		require.Nil(t, got.CAtomicBurned, "no C totals while the re-derive runs")
		require.Nil(t, got.CEVMBurned)
	}
	backfillScenario(t, netinfo.C, chain, setup, during)

	// The totals themselves, from a from-genesis build (the scenario
	// required the back-filled one to hold the same rows).
	s := openTest(t, t.TempDir())
	defer s.Close()
	setup(s)
	require.NoError(t, s.EVMWriter(netinfo.C).Apply(ctx, chain, time.Unix(1_700_100_000, 0)))
	got := supply(s)
	if minting {
		require.Nil(t, got.CAtomicBurned, "a minting tx leaves the totals unknown")
		return
	}
	require.NotNil(t, got.CAtomicBurned)
	require.Equal(t, wantAtomic, *got.CAtomicBurned)
	require.Equal(t, 0, wantEVM.Cmp(got.CEVMBurned), "EVM fees %s, want %s", got.CEVMBurned, wantEVM)
}

// addAtomicTxs gives about a third of chain's blocks one or two atomic
// txs, registered in txs by ID (their bytes are the ID), and returns what
// they and the EVM txs burn. With minting, block 60 gets an import that
// credits more than it consumes.
func addAtomicTxs(seed uint64, chain []*evmdata.Block, txs map[ids.ID]*pdata.Tx, minting bool) (uint64, *big.Int) {
	r := rand.New(rand.NewPCG(seed, 2))
	var atomicFees uint64
	evmFees := new(big.Int)
	for _, b := range chain {
		for i := range b.Txs {
			evmFees.Add(evmFees, txFee(&b.Txs[i]))
		}
		n := 0
		if r.IntN(3) == 0 {
			n = 1 + r.IntN(2)
		}
		for j := range n {
			id := ids.ID{'A', byte(b.Number >> 8), byte(b.Number), byte(j)}
			amount, fee := uint64(1000+r.IntN(9000)), uint64(r.IntN(3)*50)
			tx := &pdata.Tx{ID: id, Bytes: id[:]}
			if r.IntN(2) == 0 {
				tx.Type, tx.DestinationChain = "ExportTx", []ids.ID{ids.Empty, xChainID}[r.IntN(2)]
				tx.EVMInputs = []pdata.EVMAmount{{Address: evmE, Asset: avax, Amount: amount}}
				tx.Produced = []pdata.UTXO{exported(out(id, 0, amount-fee, addrA), tx.DestinationChain)}
			} else {
				src := out(ids.ID{'S', byte(b.Number >> 8), byte(b.Number), byte(j)}, 0, amount, addrB)
				tx.Type, tx.SourceChain = "ImportTx", xChainID
				tx.Consumed = []pdata.Input{spend(src)}
				tx.EVMOutputs = []pdata.EVMAmount{{Address: evmE, Asset: avax, Amount: amount - fee}}
			}
			if minting && b.Number == 60 && j == 0 {
				tx.Type, tx.Produced, tx.Consumed = "ImportTx", nil, nil
				tx.EVMOutputs = []pdata.EVMAmount{{Address: evmE, Asset: avax, Amount: amount}}
			}
			txs[id] = tx
			b.Atomic = append(b.Atomic, tx)
			atomicFees += fee
		}
	}
	return atomicFees, evmFees
}
