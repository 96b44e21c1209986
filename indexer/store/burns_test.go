package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The fixture's burns: P t1 1000 -> 999 (1), t3 imports 499 + 7 -> 505
// (1), the staking tx and the transfer t5 burn nothing, the reward mints;
// X e1 2000 -> 1989 with its exports (11); C c1 exports all it debits,
// c2 imports 40 and credits 39 (1).
func TestBurnTotals(t *testing.T) {
	f := newFixture()
	s := openFixture(t, f)
	net := testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: f.gP, netinfo.X: f.gX})
	net.AVAXAssetID = avax
	// A network born linear, whose L1 validator fees have not started.
	net.L1Fees = &L1FeeRules{Upgrades: upgrade.Config{EtnaTime: time.Unix(1<<40, 0)}}
	s.SetPrimaryNetwork(net)
	reader := s.PrimaryReader(f.decode)
	ctx := context.Background()

	got, err := reader.AvaxSupply(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, pdata.AvaxSupply{}, got, "nothing indexed, nothing known")

	first, second := f.pBlocks()
	writeP(t, s, first)
	writeX(t, s, f)
	got, err = reader.AvaxSupply(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(1), *got.PTxFees, "P after block 2")
	require.Equal(t, uint64(11), *got.XBurned)
	require.Nil(t, got.CAtomicBurned, "C not indexed")

	writeP(t, s, second)
	writeC(t, s, f)
	got, err = reader.AvaxSupply(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(2), *got.PTxFees)
	require.Equal(t, uint64(0), *got.L1ValidatorFees, "no L1 validator before Etna")
	require.Equal(t, uint64(11), *got.XBurned)
	require.Equal(t, uint64(1), *got.CAtomicBurned)
	require.Equal(t, 0, got.CEVMBurned.Cmp(new(big.Int)), "no EVM tx")
	require.Equal(t, int64(12000), got.LastBlockTime, "the newest chain's last block: P block 5")
	require.Nil(t, got.CurrentSupply, "no supply rules")

	// The AVAX locked: genesis g2 (500, stakeable until 6000) and g3 (300,
	// until 4000), the stake s2 (100, stakeable until 20000), X's xo2 (50,
	// until 99999) and C's export cx1 to P (60, until 50000, not
	// imported).
	for at, want := range map[int64]uint64{0: 1010, 4000: 710, 5999: 710, 6000: 210, 30000: 110, 99999: 0} {
		got, err := reader.AvaxSupply(ctx, at)
		require.NoError(t, err)
		require.NotNil(t, got.Locked, "at %d", at)
		require.Equal(t, want, *got.Locked, "locked at %d", at)
	}

	// Spending g2 takes its 500 out; the tx burns 1 more.
	t6 := f.tx("t6", "BaseTx", []pdata.Input{spend(f.g2)}, out(ids.ID{'t', '6'}, 0, 499, addrA))
	writeP(t, s, []*pdata.Block{{Number: 6, ID: ids.ID{'P', 6}, Timestamp: 13000, Type: "BanffStandardBlock", Txs: []*pdata.Tx{t6}}})
	got, err = reader.AvaxSupply(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, uint64(1010-500), *got.Locked, "a spent UTXO is not locked")
	require.Equal(t, uint64(3), *got.PTxFees)
}

// Without the AVAX asset ID nothing is totalled; a network with a DAG
// history has no X-chain figure (its DAG txs are not totalled).
func TestBurnTotalsUnknown(t *testing.T) {
	f := newFixture()
	s := openFixture(t, f)
	first, _ := f.pBlocks()
	writeP(t, s, first)
	writeX(t, s, f)
	got, err := s.PrimaryReader(f.decode).AvaxSupply(context.Background(), 0)
	require.NoError(t, err)
	require.Nil(t, got.PTxFees)
	require.Nil(t, got.XBurned)

	f = newFixture()
	s = openFixture(t, f)
	net := testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: f.gP, netinfo.X: f.gX})
	net.AVAXAssetID = avax
	s.SetPrimaryNetwork(net) // no upgrades known: a DAG may precede the linear chain
	writeX(t, s, f)
	got, err = s.PrimaryReader(f.decode).AvaxSupply(context.Background(), 0)
	require.NoError(t, err)
	require.Nil(t, got.XBurned)
}

// The L1 validator fees: deposits less refunds less what the active
// validators hold, the sum of their EndAccumulatedFee kept modulo 2^64.
func TestL1ValidatorFeesFromCarriedSums(t *testing.T) {
	var b burnState
	b.l1ActiveEndMoved(0, 1_000)     // registered with 1000 at accrued 0
	b.l1ActiveEndMoved(0, 2_500)     // another with 2000 at accrued 500
	b.l1Refunded(2_500, 900)         // disabled at accrued 900, 1600 left ...
	b.l1ActiveEndMoved(2_500, 0)     // ... refunded
	b.l1ActiveEndMoved(1_000, 0)     // the first runs out at accrued 1000 (evicted)
	b.l1ActiveEndMoved(0, 1_000+300) // and is topped up with 300
	b.p.L1Deposited = 1_000 + 2_000 + 300
	paid, ok := l1FeesPaid(b.p, pdata.L1FeeState{AccruedFees: 1_100, ActiveL1Validators: 1})
	require.True(t, ok)
	require.Equal(t, uint64(1_000+400+100), paid, "the first's 1000 and 100 of its top-up, the second's 400")

	_, ok = l1FeesPaid(pBurns{L1Deposited: 10, L1Refunded: 11}, pdata.L1FeeState{})
	require.False(t, ok, "more refunded than deposited")
}
