package catomic

import (
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/c"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	ethcommon "github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/xchain"
)

// The test wallet: avalanchego's own C-chain atomic tx builder and signer.
var (
	testKey     = secp256k1.TestKeys()[0]
	otherKey    = secp256k1.TestKeys()[1]
	avaxAssetID = ids.Empty.Prefix(1789)
	xChainID    = ids.Empty.Prefix(2021)
	cChainID    = ids.Empty.Prefix(2022)
	baseFee     = big.NewInt(25 * units.GiB) // 25 gwei, in wei

	testContext = &c.Context{NetworkID: constants.UnitTestID, BlockchainID: cChainID, AVAXAssetID: avaxAssetID}

	// importable waits in the X-chain's shared memory with the C-chain.
	importable = &avax.UTXO{
		UTXOID: avax.UTXOID{TxID: ids.Empty.Prefix(100), OutputIndex: 3},
		Asset:  avax.Asset{ID: avaxAssetID},
		Out: &secp256k1fx.TransferOutput{
			Amt:          5 * units.Avax,
			OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{testKey.Address()}},
		},
	}
)

type testWallet struct {
	builder c.Builder
	signer  c.Signer
}

func newTestWallet(t *testing.T) *testWallet {
	utxos := common.NewUTXOs()
	require.NoError(t, utxos.AddUTXO(t.Context(), xChainID, cChainID, importable))
	backend := c.NewBackend(common.NewChainUTXOs(cChainID, utxos), map[ethcommon.Address]*c.Account{
		testKey.EthAddress(): {Balance: new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18)), Nonce: 4},
	})
	kc := secp256k1fx.NewKeychain(testKey)
	return &testWallet{
		builder: c.NewBuilder(set.Of(testKey.Address()), set.Of(testKey.EthAddress()), testContext, backend),
		signer:  c.NewSigner(kc, kc, backend),
	}
}

func (w *testWallet) sign(t *testing.T, utx atomic.UnsignedAtomicTx) *atomic.Tx {
	t.Helper()
	tx, err := c.SignUnsignedAtomic(t.Context(), w.signer, utx)
	require.NoError(t, err)
	return tx
}

func (w *testWallet) importTx(t *testing.T) *atomic.Tx {
	t.Helper()
	utx, err := w.builder.NewImportTx(xChainID, otherKey.EthAddress(), baseFee)
	require.NoError(t, err)
	return w.sign(t, utx)
}

func (w *testWallet) exportTx(t *testing.T) *atomic.Tx {
	t.Helper()
	utx, err := w.builder.NewExportTx(xChainID, []*secp256k1fx.TransferOutput{{
		Amt:          2 * units.Avax,
		OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{otherKey.Address()}},
	}}, baseFee)
	require.NoError(t, err)
	return w.sign(t, utx)
}

func TestDecodeImportTx(t *testing.T) {
	tx := newTestWallet(t).importTx(t)
	got, err := DecodeTx(tx.SignedBytes())
	require.NoError(t, err)

	require.Equal(t, tx.ID(), got.ID)
	require.Equal(t, tx.SignedBytes(), got.Bytes)
	require.Equal(t, TypeImportTx, got.Type)
	require.Equal(t, xChainID, got.SourceChain)
	require.Len(t, got.Consumed, 1)
	require.Equal(t, []ids.ShortID{testKey.Address()}, got.Consumed[0].Signers.Addresses())
	got.Consumed[0].Signers = nil
	require.Equal(t, []pdata.Input{{
		UTXOID:      importable.InputID(),
		TxID:        importable.TxID,
		OutputIndex: importable.OutputIndex,
		Asset:       avaxAssetID,
		Amount:      5 * units.Avax,
	}}, got.Consumed)
	require.Empty(t, got.Produced)
	require.Len(t, got.EVMOutputs, 1)
	out := got.EVMOutputs[0]
	require.Equal(t, [20]byte(otherKey.EthAddress()), out.Address)
	require.Equal(t, avaxAssetID, out.Asset)
	require.Less(t, out.Amount, 5*units.Avax, "the import pays its fee")
	require.Positive(t, out.Amount)
}

func TestDecodeExportTx(t *testing.T) {
	tx := newTestWallet(t).exportTx(t)
	got, err := DecodeTx(tx.SignedBytes())
	require.NoError(t, err)

	require.Equal(t, tx.ID(), got.ID)
	require.Equal(t, TypeExportTx, got.Type)
	require.Equal(t, xChainID, got.DestinationChain)
	require.Empty(t, got.Consumed)
	require.Len(t, got.EVMInputs, 1)
	in := got.EVMInputs[0]
	require.Equal(t, [20]byte(testKey.EthAddress()), in.Address)
	require.Equal(t, avaxAssetID, in.Asset)
	require.Greater(t, in.Amount, 2*units.Avax, "the export pays its fee")

	// The exported UTXO is output 0 of the tx, in shared memory for X.
	require.Len(t, got.Produced, 1)
	u := got.Produced[0]
	require.Equal(t, tx.ID().Prefix(0), u.ID)
	require.Equal(t, tx.ID(), u.TxID)
	require.Zero(t, u.OutputIndex)
	require.Equal(t, avaxAssetID, u.Asset)
	require.Equal(t, 2*units.Avax, u.Amount)
	require.True(t, u.Exported)
	require.Equal(t, xChainID, u.DestinationChain)
	require.Equal(t, xchain.OutputSECPTransfer, u.OutputType)
	require.Equal(t, pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{otherKey.Address()}}, u.Owners)

	// Bytes are what coreth puts in shared memory (AtomicOps).
	chain, reqs, err := tx.AtomicOps()
	require.NoError(t, err)
	require.Equal(t, xChainID, chain)
	require.Len(t, reqs.PutRequests, 1)
	require.Equal(t, u.ID[:], reqs.PutRequests[0].Key)
	require.Equal(t, reqs.PutRequests[0].Value, u.Bytes)
}

func TestExtractTxs(t *testing.T) {
	w := newTestWallet(t)
	imp, exp := w.importTx(t), w.exportTx(t)

	// Before ApricotPhase5: the extra data is one tx.
	single, err := ExtractTxs(imp.SignedBytes(), false)
	require.NoError(t, err)
	require.Len(t, single, 1)
	require.Equal(t, imp.ID(), single[0].ID)

	// From ApricotPhase5 on: a list.
	batch, err := atomic.Codec.Marshal(atomic.CodecVersion, []*atomic.Tx{imp, exp})
	require.NoError(t, err)
	got, err := ExtractTxs(batch, true)
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, imp.ID(), got[0].ID)
	require.Equal(t, exp.ID(), got[1].ID)
	require.Equal(t, TypeExportTx, got[1].Type)
	// Each tx's bytes stand alone: DecodeTx reads them back.
	again, err := DecodeTx(got[1].Bytes)
	require.NoError(t, err)
	require.Equal(t, got[1], again)

	none, err := ExtractTxs(nil, true)
	require.NoError(t, err)
	require.Empty(t, none)

	_, err = ExtractTxs(batch, false)
	require.Error(t, err, "a list read as one tx")
}

func TestRules(t *testing.T) {
	r := RulesFor(constants.MainnetID)
	ap5 := upgrade.Mainnet.ApricotPhase5Time
	require.Equal(t, ap5, r.ApricotPhase5)
	require.False(t, r.Batch(uint64(ap5.Add(-time.Second).Unix())))
	require.True(t, r.Batch(uint64(ap5.Unix())))
	require.True(t, RulesFor(constants.LocalID).Batch(uint64(time.Now().Unix())))

	tx := newTestWallet(t).importTx(t)
	got, err := r.BlockTxs(tx.SignedBytes(), uint64(ap5.Add(-time.Hour).Unix()))
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, tx.ID(), got[0].ID)
}
