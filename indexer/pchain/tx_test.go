package pchain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"

	"github.com/avadata/avadata/indexer/pdata"
)

// decodedTx is a decoded tx next to the tx it came from.
type decodedTx struct {
	*pdata.Tx
	signed *txs.Tx
}

// requireUTXO checks that u describes the UTXO its Bytes hold, at
// (txID, index).
func requireUTXO(t *testing.T, u pdata.UTXO, txID ids.ID, index uint32) {
	t.Helper()
	var parsed avax.UTXO
	_, err := txs.Codec.Unmarshal(u.Bytes, &parsed)
	require.NoError(t, err)
	require.Equal(t, txID, parsed.TxID)
	require.Equal(t, index, parsed.OutputIndex)
	require.Equal(t, parsed.InputID(), u.ID)
	require.Equal(t, txID.Prefix(uint64(index)), u.ID)
	require.Equal(t, txID, u.TxID)
	require.Equal(t, index, u.OutputIndex)
	require.Equal(t, testAVAX, u.Asset)
	require.Equal(t, outputTypeTransfer, u.OutputType)
}

// requireBase checks what every BaseTx-derived tx decodes to: inputs in
// order, each signed by the funded key, and Outs at 0..n-1.
func requireBase(t *testing.T, w *testWallet, d *decodedTx, base *avax.BaseTx) {
	t.Helper()
	require.NotEmpty(t, base.Ins, "the fee makes every tx spend")
	require.GreaterOrEqual(t, len(d.Consumed), len(base.Ins))
	for i, in := range base.Ins {
		got := d.Consumed[i]
		require.Equal(t, in.InputID(), got.UTXOID)
		require.Equal(t, in.TxID, got.TxID)
		require.Equal(t, in.OutputIndex, got.OutputIndex)
		require.Equal(t, in.In.Amount(), got.Amount)
		require.Equal(t, []ids.ShortID{w.fundedAddr()}, got.Signers.Addresses())
	}
	for i, out := range base.Outs {
		u := d.Produced[i]
		requireUTXO(t, u, d.ID, uint32(i))
		require.Equal(t, out.Out.Amount(), u.Amount)
		require.Equal(t, pdata.KindTransfer, u.Kind)
	}
	if len(base.Memo) == 0 {
		require.Nil(t, d.Memo)
	} else {
		require.Equal(t, []byte(base.Memo), d.Memo)
	}
}

func TestDecodeBaseTx(t *testing.T) {
	w := newTestWallet(t)
	tx := w.sign(w.builder.NewBaseTx(
		[]*avax.TransferableOutput{avaxOut(3*units.Avax, w.keys[2])},
		common.WithMemo([]byte("hello")),
	))
	d := w.decode(tx)
	utx := tx.Unsigned.(*txs.BaseTx)
	require.Equal(t, "BaseTx", d.Type)
	require.Equal(t, pdata.OutcomeDecided, d.Outcome)
	requireBase(t, w, d, &utx.BaseTx)
	require.Len(t, d.Produced, len(utx.Outs))
	require.Equal(t, []byte("hello"), d.Memo)

	var paid bool
	for _, u := range d.Produced {
		if u.Amount == 3*units.Avax {
			paid = true
			require.Equal(t, pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{w.keys[2].Address()}}, u.Owners)
		}
	}
	require.True(t, paid)
}

func TestDecodeExportAndImport(t *testing.T) {
	w := newTestWallet(t)
	export := w.sign(w.builder.NewExportTx(testXChainID,
		[]*avax.TransferableOutput{avaxOut(2*units.Avax, w.keys[2]), avaxOut(units.Avax, w.keys[3])}))
	d := w.decode(export)
	utx := export.Unsigned.(*txs.ExportTx)
	require.Equal(t, "ExportTx", d.Type)
	requireBase(t, w, d, &utx.BaseTx.BaseTx)
	require.Equal(t, testXChainID, d.DestinationChain)
	require.Len(t, d.Produced, len(utx.Outs)+2)
	for i, out := range utx.ExportedOutputs {
		u := d.Produced[len(utx.Outs)+i]
		requireUTXO(t, u, d.ID, uint32(len(utx.Outs)+i))
		require.Equal(t, out.Out.Amount(), u.Amount)
		require.True(t, u.Exported)
		require.Equal(t, testXChainID, u.DestinationChain)
	}
	for _, u := range d.Produced[:len(utx.Outs)] {
		require.False(t, u.Exported, "change stays on P")
	}

	imp := w.sign(w.builder.NewImportTx(testXChainID, ownerOf(w.keys[1])))
	d = w.decode(imp)
	iutx := imp.Unsigned.(*txs.ImportTx)
	require.Equal(t, "ImportTx", d.Type)
	require.Equal(t, testXChainID, d.SourceChain)
	require.Len(t, iutx.ImportedInputs, 1)
	require.Len(t, d.Consumed, len(iutx.Ins)+1)
	imported := d.Consumed[len(iutx.Ins)]
	require.Equal(t, ids.Empty.Prefix(200).Prefix(1), imported.UTXOID)
	require.Equal(t, 10*units.Avax, imported.Amount)
	require.Equal(t, []ids.ShortID{w.fundedAddr()}, imported.Signers.Addresses())
}

// requireStake checks a staking tx's stake: at len(Outs)+i, staked for the
// staker's period, named in Staker.Stake.
func requireStake(t *testing.T, d *decodedTx, base *avax.BaseTx, stakeOuts []*avax.TransferableOutput) {
	t.Helper()
	require.NotNil(t, d.Staker)
	require.Len(t, d.Produced, len(base.Outs)+len(stakeOuts))
	require.Len(t, d.Staker.Stake, len(stakeOuts))
	var weight uint64
	for i, out := range stakeOuts {
		u := d.Produced[len(base.Outs)+i]
		requireUTXO(t, u, d.ID, uint32(len(base.Outs)+i))
		require.Equal(t, pdata.KindStake, u.Kind)
		require.Equal(t, d.Staker.Start, u.StakeStart)
		require.Equal(t, d.Staker.End, u.StakeEnd)
		require.Equal(t, u.ID, d.Staker.Stake[i])
		weight += u.Amount
		_ = out
	}
	require.Equal(t, d.Staker.Weight, weight)
}

func TestDecodePermissionlessStakers(t *testing.T) {
	w := newTestWallet(t)
	sk, err := localsigner.New()
	require.NoError(t, err)
	pop, err := signer.NewProofOfPossession(sk)
	require.NoError(t, err)
	nodeID := ids.GenerateTestNodeID()
	end := uint64(time.Now().Add(30 * 24 * time.Hour).Unix())
	vdr := &txs.SubnetValidator{
		Validator: txs.Validator{NodeID: nodeID, End: end, Wght: 2000 * units.Avax},
		Subnet:    constants.PrimaryNetworkID,
	}
	tx := w.sign(w.builder.NewAddPermissionlessValidatorTx(vdr, pop, testAVAX,
		ownerOf(w.keys[2]), ownerOf(w.keys[3]), 20_000))
	d := w.decode(tx)
	utx := tx.Unsigned.(*txs.AddPermissionlessValidatorTx)
	require.Equal(t, "AddPermissionlessValidatorTx", d.Type)
	requireBase(t, w, d, &utx.BaseTx.BaseTx)
	requireStake(t, d, &utx.BaseTx.BaseTx, utx.StakeOuts)
	s := d.Staker
	require.False(t, s.Delegator)
	require.Equal(t, nodeID, s.NodeID)
	require.Equal(t, constants.PrimaryNetworkID, s.Subnet)
	require.Equal(t, int64(end), s.End)
	require.Equal(t, uint32(20_000), s.DelegationShares)
	require.Equal(t, []ids.ShortID{w.keys[2].Address()}, s.RewardsOwner.Addrs)
	require.Equal(t, []ids.ShortID{w.keys[3].Address()}, s.DelegationRewardsOwner.Addrs)
	require.Equal(t, pop.PublicKey[:], s.BLSPublicKey)
	require.Equal(t, pop.ProofOfPossession[:], s.BLSProofOfPossession)
	// The builder stakes the stake-locked UTXO first: its lock carries over.
	var locked bool
	for _, u := range d.Produced {
		locked = locked || (u.Kind == pdata.KindStake && u.StakeableLocktime > 0)
	}
	require.True(t, locked, "a stake output keeps its stakeable lock")

	del := w.sign(w.builder.NewAddPermissionlessDelegatorTx(
		&txs.SubnetValidator{
			Validator: txs.Validator{NodeID: nodeID, End: end - 10, Wght: 25 * units.Avax},
			Subnet:    constants.PrimaryNetworkID,
		}, testAVAX, ownerOf(w.keys[4])))
	d = w.decode(del)
	dutx := del.Unsigned.(*txs.AddPermissionlessDelegatorTx)
	require.Equal(t, "AddPermissionlessDelegatorTx", d.Type)
	requireBase(t, w, d, &dutx.BaseTx.BaseTx)
	requireStake(t, d, &dutx.BaseTx.BaseTx, dutx.StakeOuts)
	require.True(t, d.Staker.Delegator)
	require.Equal(t, []ids.ShortID{w.keys[4].Address()}, d.Staker.RewardsOwner.Addrs)
	require.Nil(t, d.Staker.BLSPublicKey)
}

func TestDecodeApricotStakers(t *testing.T) {
	w := newTestWallet(t)
	nodeID := ids.GenerateTestNodeID()
	start := uint64(time.Now().Add(time.Hour).Unix())
	v := &txs.Validator{NodeID: nodeID, Start: start, End: start + 86400*20, Wght: 2000 * units.Avax}
	tx := w.sign(w.builder.NewAddValidatorTx(v, ownerOf(w.keys[2]), 30_000))
	d := w.decode(tx)
	utx := tx.Unsigned.(*txs.AddValidatorTx)
	require.Equal(t, "AddValidatorTx", d.Type)
	requireBase(t, w, d, &utx.BaseTx.BaseTx)
	requireStake(t, d, &utx.BaseTx.BaseTx, utx.StakeOuts)
	require.Equal(t, int64(start), d.Staker.Start)
	require.Equal(t, d.Staker.RewardsOwner, d.Staker.DelegationRewardsOwner)

	del := w.sign(w.builder.NewAddDelegatorTx(&txs.Validator{NodeID: nodeID, Start: start, End: start + 86400*14, Wght: 25 * units.Avax},
		ownerOf(w.keys[3])))
	d = w.decode(del)
	dutx := del.Unsigned.(*txs.AddDelegatorTx)
	require.Equal(t, "AddDelegatorTx", d.Type)
	requireStake(t, d, &dutx.BaseTx.BaseTx, dutx.StakeOuts)
	require.True(t, d.Staker.Delegator)

	sub := w.sign(w.builder.NewAddSubnetValidatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: nodeID, Start: start, End: start + 3600, Wght: 10},
		Subnet:    testSubnetID,
	}))
	d = w.decode(sub)
	require.Equal(t, "AddSubnetValidatorTx", d.Type)
	require.Equal(t, testSubnetID, d.Subnet)
	require.Equal(t, testSubnetID, d.Staker.Subnet)
	require.Empty(t, d.Staker.Stake)
	// The subnet owner's authorization is an extra credential: it names no
	// UTXO.
	require.Len(t, d.Consumed, len(sub.Unsigned.(*txs.AddSubnetValidatorTx).Ins))
	require.Len(t, sub.Creds, len(d.Consumed)+1)
}

func TestDecodeSubnetTxs(t *testing.T) {
	w := newTestWallet(t)
	create := w.sign(w.builder.NewCreateSubnetTx(ownerOf(w.keys[0])))
	d := w.decode(create)
	require.Equal(t, "CreateSubnetTx", d.Type)
	require.Equal(t, d.ID, d.Subnet)
	require.Equal(t, &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{w.keys[0].Address()}}, d.SubnetOwner)

	vmID := ids.GenerateTestID()
	chain := w.sign(w.builder.NewCreateChainTx(testSubnetID, []byte("genesis"), vmID, nil, "mychain"))
	d = w.decode(chain)
	require.Equal(t, "CreateChainTx", d.Type)
	require.Equal(t, testSubnetID, d.Subnet)
	require.Equal(t, &pdata.Blockchain{ID: d.ID, Name: "mychain", VMID: vmID, Genesis: []byte("genesis")}, d.Blockchain)

	transfer := w.sign(w.builder.NewTransferSubnetOwnershipTx(testSubnetID, ownerOf(w.keys[4])))
	d = w.decode(transfer)
	require.Equal(t, "TransferSubnetOwnershipTx", d.Type)
	require.Equal(t, testSubnetID, d.Subnet)
	require.Equal(t, []ids.ShortID{w.keys[4].Address()}, d.SubnetOwner.Addrs)

	remove := w.sign(w.builder.NewRemoveSubnetValidatorTx(ids.GenerateTestNodeID(), testSubnetID))
	d = w.decode(remove)
	require.Equal(t, "RemoveSubnetValidatorTx", d.Type)
	require.Equal(t, testSubnetID, d.Subnet)
	require.Nil(t, d.Staker)
}

func TestDecodeRewardAndAdvanceTime(t *testing.T) {
	stakingTxID := ids.GenerateTestID()
	for _, utx := range []txs.UnsignedTx{
		&txs.RewardValidatorTx{TxID: stakingTxID},
		&txs.AdvanceTimeTx{Time: 1_600_000_000},
	} {
		tx := &txs.Tx{Unsigned: utx}
		require.NoError(t, tx.Initialize(txs.Codec))
		d, err := DecodeTx(tx.Bytes())
		require.NoError(t, err)
		require.Equal(t, typeName(utx), d.Type)
		require.Empty(t, d.Consumed)
		require.Empty(t, d.Produced)
		if _, ok := utx.(*txs.RewardValidatorTx); ok {
			require.Equal(t, stakingTxID, d.RewardOf)
		}
	}
}

func TestDecodeTxRejectsGarbage(t *testing.T) {
	_, err := DecodeTx([]byte{0, 0, 0, 0, 0, 99})
	require.Error(t, err)
}
