package pchain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/vms/components/gas"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/validators/fee"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// The L1 validator fee state the P writer tracks, over platformvm-built L1
// txs in Banff blocks, against the platformvm rules (store/l1fees.go)
// worked out by hand. With fewer active validators than the target and no
// excess, the price stays at MinPrice: every second accrues exactly it.

const l1FeeMinPrice = 10

// l1FeeChain builds P-chain blocks of decoded platformvm txs.
type l1FeeChain struct {
	t       *testing.T
	w       *testWallet
	genesis time.Time
	// genesisUnknown leaves the genesis time out of the fee rules (a
	// network whose genesis is not built in, with no genesis staker left).
	genesisUnknown bool
	blocks         []*pdata.Block
	// avax, when set, has the writer total the burns (store/burns.go) and
	// write keep what the reader's AvaxSupply says in supply.
	avax   ids.ID
	supply pdata.AvaxSupply
}

// block adds a Banff standard block at genesis+secs holding txs.
func (c *l1FeeChain) block(secs int64, utxs ...txs.UnsignedTx) {
	b := &pdata.Block{
		Chain: netinfo.P, Number: uint64(len(c.blocks) + 1), ID: ids.Empty.Prefix(uint64(500 + len(c.blocks))),
		Type: "BanffStandardBlock", Timestamp: c.genesis.Unix() + secs, AdvancesTime: true, Durango: true,
	}
	for _, utx := range utxs {
		tx := c.w.sign(utx, nil)
		d, err := DecodeTx(tx.Bytes())
		require.NoError(c.t, err)
		// Every tx spends the wallet's same UTXOs; the fee state depends
		// on none of them.
		d.Consumed, d.Produced = nil, nil
		b.Txs = append(b.Txs, d)
	}
	c.blocks = append(c.blocks, b)
}

// option adds a Banff commit block, which keeps its proposal's time.
func (c *l1FeeChain) option() {
	prev := c.blocks[len(c.blocks)-1]
	c.blocks = append(c.blocks, &pdata.Block{
		Chain: netinfo.P, Number: uint64(len(c.blocks) + 1), ID: ids.Empty.Prefix(uint64(500 + len(c.blocks))),
		Type: "BanffCommitBlock", Timestamp: prev.Timestamp,
	})
}

// write indexes the chain (in one batch, or one block per batch) and
// returns the fee state after each block.
func (c *l1FeeChain) write(config fee.Config, etna time.Time, split bool) []*pdata.L1FeeState {
	t := c.t
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	upgrades := upgrade.Default
	upgrades.EtnaTime = etna
	upgrades.FortunaTime, upgrades.GraniteTime, upgrades.HeliconTime = etna, etna, etna
	rules := &store.L1FeeRules{Config: config, Upgrades: upgrades, GenesisTime: c.genesis.Unix()}
	if c.genesisUnknown {
		rules.GenesisTime = 0
	}
	st.SetPrimaryNetwork(store.PrimaryNetwork{
		Genesis:     map[netinfo.Chain]*pdata.Block{netinfo.P: {Chain: netinfo.P, ID: ids.Empty.Prefix(499), Type: "ApricotCommitBlock"}},
		GenesisTime: c.genesis.Unix(),
		L1Fees:      rules,
		AVAXAssetID: c.avax,
	})
	w := st.PrimaryWriter(netinfo.P)
	if split {
		for _, b := range c.blocks {
			require.NoError(t, w.Apply(t.Context(), []*pdata.Block{b}, time.Now()))
		}
	} else {
		require.NoError(t, w.Apply(t.Context(), c.blocks, time.Now()))
	}
	reader := st.PrimaryReader(func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) { return DecodeTx(b) })
	var out []*pdata.L1FeeState
	for h := uint64(1); h <= uint64(len(c.blocks)); h++ {
		b, ok, err := reader.Block(t.Context(), netinfo.P, h)
		require.NoError(t, err)
		require.True(t, ok, "block %d", h)
		out = append(out, b.L1Fees)
	}
	if c.avax != ids.Empty {
		c.supply, err = reader.AvaxSupply(t.Context(), 0)
		require.NoError(t, err)
	}
	return out
}

// fund gives each tx that deposits L1 validator balances an AVAX input of
// exactly that much, so that it burns nothing else.
func (c *l1FeeChain) fund() {
	for _, b := range c.blocks {
		for _, tx := range b.Txs {
			var deposit uint64
			for _, v := range tx.L1Validators {
				deposit += v.Balance + v.BalanceChange
			}
			if deposit > 0 {
				tx.Consumed = []pdata.Input{{UTXOID: tx.ID.Prefix(99), TxID: tx.ID, OutputIndex: 99, Asset: c.avax, Amount: deposit}}
			}
		}
	}
}

func (c *l1FeeChain) weight(validationID ids.ID, nonce, weight uint64) txs.UnsignedTx {
	msg, err := message.NewL1ValidatorWeight(validationID, nonce, weight)
	require.NoError(c.t, err)
	utx, err := c.w.builder.NewSetL1ValidatorWeightTx(warpMessage(c.t, msg.Bytes()))
	require.NoError(c.t, err)
	return utx
}

func (c *l1FeeChain) convert(balances ...uint64) txs.UnsignedTx {
	var vdrs []*txs.ConvertSubnetToL1Validator
	for i, balance := range balances {
		vdrs = append(vdrs, &txs.ConvertSubnetToL1Validator{
			NodeID: ids.GenerateTestNodeID().Bytes(), Weight: uint64(10 + i), Balance: balance, Signer: *newPoP(c.t),
			RemainingBalanceOwner: message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{c.w.keys[2].Address()}},
			DeactivationOwner:     message.PChainOwner{Threshold: 1, Addresses: []ids.ShortID{c.w.keys[3].Address()}},
		})
	}
	utx, err := c.w.builder.NewConvertSubnetToL1Tx(testSubnetID, ids.GenerateTestID(), []byte{1}, vdrs)
	require.NoError(c.t, err)
	return utx
}

func TestL1FeesFollowPlatformVMRules(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(map[bool]string{false: "one batch", true: "carried over batches"}[split], func(t *testing.T) {
			testL1Fees(t, split)
		})
	}
}

func testL1Fees(t *testing.T, split bool) {
	pop := newPoP(t)
	reg, err := message.NewRegisterL1Validator(testSubnetID, ids.GenerateTestNodeID(), pop.PublicKey, 1<<40,
		message.PChainOwner{}, message.PChainOwner{}, 5)
	require.NoError(t, err)
	d := reg.ValidationID()
	c := &l1FeeChain{t: t, w: newTestWallet(t, d), genesis: time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)}
	b := c.w.builder
	config := fee.Config{Capacity: 20, Target: 10, MinPrice: l1FeeMinPrice, ExcessConversionConstant: 1_000_000}

	// The conversion names A (balance 1000), B (0: inactive) and C (5).
	convert := c.convert(1000, 0, 5)
	valID := func(i uint32) ids.ID { return testSubnetID.Append(i) }
	// The builder sorts the validators by node ID: find them by balance.
	var a, bb, cc ids.ID
	for i, v := range convert.(*txs.ConvertSubnetToL1Tx).Validators {
		switch v.Balance {
		case 1000:
			a = valID(uint32(i))
		case 0:
			bb = valID(uint32(i))
		case 5:
			cc = valID(uint32(i))
		}
	}

	// 1: before Etna (at +100) nothing accrues.
	c.block(50)
	// 2: Etna: 60 s since the chain time (block 1) accrue 600. A ends at
	// 1600, C at 605: below 600 + 10 for the next second, it is evicted
	// after the txs.
	c.block(110, convert)
	// 3: 10 s: 700. D ends at 2700; B is reactivated from now and ends
	// at 710, exactly what the next second needs: it stays.
	regTx, err := b.NewRegisterL1ValidatorTx(2000, pop.ProofOfPossession, warpMessage(t, reg.Bytes()))
	require.NoError(t, err)
	incB, err := b.NewIncreaseL1ValidatorBalanceTx(bb, 10)
	require.NoError(t, err)
	c.block(120, regTx, incB)
	// 4: 6 s: 760, and B (710) runs out as the time advances. A re-weight
	// changes no balance; D is disabled.
	disD, err := b.NewDisableL1ValidatorTx(d)
	require.NoError(t, err)
	c.block(126, c.weight(a, 1, 5), disD)
	// 5: 4 s: 800. A is removed (weight 0); C, inactive, gets 100 from
	// now: it ends at 900.
	incC, err := b.NewIncreaseL1ValidatorBalanceTx(cc, 100)
	require.NoError(t, err)
	c.block(130, c.weight(a, 2, 0), incC)
	// 6: an option block keeps its proposal's state.
	c.option()
	// 7: 10 s: 900, exactly C's end: C goes inactive.
	c.block(140)

	c.avax = ids.ID{'a', 'v', 'a', 'x'}
	c.fund()
	got := c.write(config, c.genesis.Add(100*time.Second), split)
	// The fees paid: A 200 (600 to 800), B 10, C 5 (evicted with them
	// at block 2) and 100, D 60; the deposits (3115) less the refunds of
	// D (2700 - 760) and A (1600 - 800).
	require.NotNil(t, c.supply.L1ValidatorFees)
	require.Equal(t, uint64(200+10+5+100+60), *c.supply.L1ValidatorFees, "L1 validator fees")
	require.Equal(t, uint64(0), *c.supply.PTxFees, "the txs burned nothing beyond the balances")
	want := []pdata.L1FeeState{
		{},
		{AccruedFees: 600, ActiveL1Validators: 1},
		{AccruedFees: 700, ActiveL1Validators: 3},
		{AccruedFees: 760, ActiveL1Validators: 1},
		{AccruedFees: 800, ActiveL1Validators: 1},
		{AccruedFees: 800, ActiveL1Validators: 1},
		{AccruedFees: 900, ActiveL1Validators: 0},
	}
	require.Len(t, got, len(want))
	for i := range want {
		require.NotNil(t, got[i], "block %d", i+1)
		require.Equal(t, want[i], *got[i], "block %d", i+1)
	}
}

// Above the target the excess grows by (active - target) a second and the
// price with it: the accrued fees are fee.State.CostOf over the active
// count and excess before each block.
func TestL1FeesExcess(t *testing.T) {
	c := &l1FeeChain{t: t, w: newTestWallet(t, testSubnetID.Append(0)), genesis: time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)}
	config := fee.Config{Capacity: 20, Target: 1, MinPrice: l1FeeMinPrice, ExcessConversionConstant: 5}
	convert := c.convert(1<<36, 1<<36, 1<<36)
	c.block(10, convert)
	disable, err := c.w.builder.NewDisableL1ValidatorTx(testSubnetID.Append(0))
	require.NoError(t, err)
	c.block(30, disable)
	c.block(45)

	got := c.write(config, c.genesis, false)
	// 1: 10 s at the MinPrice with none active; 3 validators from then.
	s := fee.State{Current: 3}
	accrued := 10 * uint64(l1FeeMinPrice)
	require.Equal(t, pdata.L1FeeState{AccruedFees: accrued, ActiveL1Validators: 3}, *got[0])
	// 2: 20 s with 3 active: the excess grows by 2 a second.
	accrued += s.CostOf(config, 20)
	s = s.AdvanceTime(config.Target, 20)
	require.Equal(t, gas.Gas(40), s.Excess)
	require.Equal(t, pdata.L1FeeState{AccruedFees: accrued, Excess: 40, ActiveL1Validators: 2}, *got[1])
	// 3: 15 s with 2 active: 1 a second.
	s.Current = 2
	accrued += s.CostOf(config, 15)
	require.Greater(t, accrued, got[1].AccruedFees+15*l1FeeMinPrice, "the price rose above the minimum")
	require.Equal(t, pdata.L1FeeState{AccruedFees: accrued, Excess: 55, ActiveL1Validators: 2}, *got[2])
}

// Without the genesis time, the fees are unknown when Etna is active at
// block 1 (they accrue from the genesis), and known when it starts later
// (before it nothing accrues, and the chain time comes from the blocks).
func TestL1FeesWithoutGenesisTime(t *testing.T) {
	config := fee.Config{Capacity: 20, Target: 10, MinPrice: l1FeeMinPrice, ExcessConversionConstant: 1_000_000}
	for _, etnaAt := range []int64{0, 30} {
		c := &l1FeeChain{t: t, w: newTestWallet(t), genesis: time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC), genesisUnknown: true}
		c.block(20)
		c.block(50, c.convert(1000))
		got := c.write(config, c.genesis.Add(time.Duration(etnaAt)*time.Second), false)
		if etnaAt == 0 {
			require.Equal(t, []*pdata.L1FeeState{nil, nil}, got)
			continue
		}
		require.Equal(t, []*pdata.L1FeeState{{}, {AccruedFees: 30 * l1FeeMinPrice, ActiveL1Validators: 1}}, got)
	}
}
