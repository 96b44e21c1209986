package xchain

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/x"
	"github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/ava-labs/avalanchego/wallet/chain/x/signer"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common/utxotest"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// The test wallet: avalanchego's own X-chain builder and signer over a
// fixed UTXO set, so the txs are exactly what a wallet would issue.
var (
	testKey     = secp256k1.TestKeys()[0]
	otherKey    = secp256k1.TestKeys()[1]
	avaxAssetID = ids.Empty.Prefix(1789)
	xChainID    = ids.Empty.Prefix(2021)
	nftAssetID  = ids.Empty.Prefix(2022)
	coinAssetID = ids.Empty.Prefix(2023)
	cChainID    = ids.Empty.Prefix(2030)

	testContext = &builder.Context{
		NetworkID:        constants.UnitTestID,
		BlockchainID:     xChainID,
		AVAXAssetID:      avaxAssetID,
		BaseTxFee:        units.MilliAvax,
		CreateAssetTxFee: 10 * units.MilliAvax,
	}
)

func owners(addrs ...ids.ShortID) secp256k1fx.OutputOwners {
	return secp256k1fx.OutputOwners{Threshold: 1, Addrs: addrs}
}

// utxo is a UTXO of testKey's.
func utxo(txSeed uint64, asset ids.ID, out verify.State) *avax.UTXO {
	return &avax.UTXO{
		UTXOID: avax.UTXOID{TxID: ids.Empty.Prefix(txSeed), OutputIndex: uint32(txSeed % 7)},
		Asset:  avax.Asset{ID: asset},
		Out:    out,
	}
}

var (
	avaxUTXO = utxo(100, avaxAssetID, &secp256k1fx.TransferOutput{Amt: 50 * units.Avax, OutputOwners: owners(testKey.Address())})
	nftMint  = utxo(101, nftAssetID, &nftfx.MintOutput{GroupID: 7, OutputOwners: owners(testKey.Address())})
	coinMint = utxo(103, coinAssetID, &secp256k1fx.MintOutput{OutputOwners: owners(testKey.Address())})
	// atomicUTXO waits in the C-chain's shared memory with the X-chain.
	atomicUTXO = utxo(102, avaxAssetID, &secp256k1fx.TransferOutput{Amt: 3 * units.Avax, OutputOwners: owners(testKey.Address())})
)

type testWallet struct {
	builder builder.Builder
	signer  signer.Signer
}

func newTestWallet(t *testing.T) *testWallet {
	backend := x.NewBackend(testContext, utxotest.NewDeterministicChainUTXOs(t, map[ids.ID][]*avax.UTXO{
		xChainID: {avaxUTXO, nftMint, coinMint},
		cChainID: {atomicUTXO},
	}))
	return &testWallet{
		builder: builder.New(set.Of(testKey.Address()), testContext, backend),
		signer:  signer.New(secp256k1fx.NewKeychain(testKey), backend),
	}
}

// sign signs utx and decodes the signed bytes.
func (w *testWallet) sign(t *testing.T, utx txs.UnsignedTx) (*txs.Tx, *pdata.Tx) {
	t.Helper()
	tx, err := signer.SignUnsigned(t.Context(), w.signer, utx)
	require.NoError(t, err)
	d, err := NewDecoder()
	require.NoError(t, err)
	got, err := d.DecodeTx(tx.Bytes())
	require.NoError(t, err)
	require.Equal(t, tx.ID(), got.ID)
	require.Equal(t, tx.Bytes(), got.Bytes)
	return tx, got
}

// requireUTXO checks a produced UTXO's identity and that its bytes are the
// avax.UTXO the node stores.
func requireUTXO(t *testing.T, got pdata.UTXO, txID ids.ID, index uint32, asset ids.ID) {
	t.Helper()
	id := avax.UTXOID{TxID: txID, OutputIndex: index}
	require.Equal(t, id.InputID(), got.ID)
	require.Equal(t, txID, got.TxID)
	require.Equal(t, index, got.OutputIndex)
	require.Equal(t, asset, got.Asset)
	require.Equal(t, pdata.KindTransfer, got.Kind)
	var u avax.UTXO
	_, err := builder.Parser.Codec().Unmarshal(got.Bytes, &u)
	require.NoError(t, err)
	require.Equal(t, txID, u.TxID)
	require.Equal(t, index, u.OutputIndex)
	require.Equal(t, asset, u.AssetID())
}

// requireSpends checks a consumed input against the UTXO it spends.
func requireSpends(t *testing.T, got pdata.Input, u *avax.UTXO, amount uint64) {
	t.Helper()
	require.Equal(t, u.InputID(), got.UTXOID)
	require.Equal(t, u.TxID, got.TxID)
	require.Equal(t, u.OutputIndex, got.OutputIndex)
	require.Equal(t, u.AssetID(), got.Asset)
	require.Equal(t, amount, got.Amount)
	require.Equal(t, []ids.ShortID{testKey.Address()}, got.Signers.Addresses())
}

func TestDecodeBaseTx(t *testing.T) {
	w := newTestWallet(t)
	utx, err := w.builder.NewBaseTx([]*avax.TransferableOutput{{
		Asset: avax.Asset{ID: avaxAssetID},
		Out:   &secp256k1fx.TransferOutput{Amt: 7 * units.Avax, OutputOwners: owners(otherKey.Address())},
	}}, common.WithMemo([]byte("hello")))
	require.NoError(t, err)
	tx, got := w.sign(t, utx)

	require.Equal(t, TypeBaseTx, got.Type)
	require.Equal(t, []byte("hello"), got.Memo)
	require.Len(t, got.Consumed, 1)
	requireSpends(t, got.Consumed[0], avaxUTXO, 50*units.Avax)
	require.Len(t, got.Produced, 2) // the payment and the change
	var paid, change uint64
	for i, p := range got.Produced {
		requireUTXO(t, p, tx.ID(), uint32(i), avaxAssetID)
		require.Equal(t, OutputSECPTransfer, p.OutputType)
		require.Equal(t, uint32(1), p.Owners.Threshold)
		require.False(t, p.Exported)
		switch p.Owners.Addrs[0] {
		case otherKey.Address():
			paid += p.Amount
		case testKey.Address():
			change += p.Amount
		}
	}
	require.Equal(t, 7*units.Avax, paid)
	require.Equal(t, 50*units.Avax-7*units.Avax-units.MilliAvax, change)
	require.Nil(t, got.Asset)
}

func TestDecodeCreateAssetTx(t *testing.T) {
	w := newTestWallet(t)
	utx, err := w.builder.NewCreateAssetTx("Test NFT", "TNFT", 0, map[uint32][]verify.State{
		fxNFT: {
			&nftfx.MintOutput{GroupID: 0, OutputOwners: owners(testKey.Address())},
			&nftfx.MintOutput{GroupID: 1, OutputOwners: owners(otherKey.Address())},
		},
	})
	require.NoError(t, err)
	tx, got := w.sign(t, utx)

	require.Equal(t, TypeCreateAssetTx, got.Type)
	require.Equal(t, &pdata.Asset{ID: tx.ID(), Name: "Test NFT", Symbol: "TNFT", Type: AssetNFT}, got.Asset)
	require.Len(t, got.Consumed, 1)
	requireSpends(t, got.Consumed[0], avaxUTXO, 50*units.Avax)

	outs := len(utx.Outs)
	require.Equal(t, 1, outs) // the change
	require.Len(t, got.Produced, outs+2)
	requireUTXO(t, got.Produced[0], tx.ID(), 0, avaxAssetID)
	// The initial states follow the outputs, of the new asset.
	for k, p := range got.Produced[outs:] {
		requireUTXO(t, p, tx.ID(), uint32(outs+k), tx.ID())
		require.Equal(t, OutputNFTMint, p.OutputType)
		require.Zero(t, p.Amount)
	}
	groups := []uint32{got.Produced[1].GroupID, got.Produced[2].GroupID}
	require.ElementsMatch(t, []uint32{0, 1}, groups)
}

func TestDecodeCreateAssetTxFungible(t *testing.T) {
	w := newTestWallet(t)
	utx, err := w.builder.NewCreateAssetTx("Coin", "COIN", 6, map[uint32][]verify.State{
		0: {&secp256k1fx.TransferOutput{Amt: 1000, OutputOwners: owners(testKey.Address())}},
	})
	require.NoError(t, err)
	tx, got := w.sign(t, utx)
	require.Equal(t, &pdata.Asset{ID: tx.ID(), Name: "Coin", Symbol: "COIN", Denomination: 6, Type: AssetSECP}, got.Asset)
	last := got.Produced[len(got.Produced)-1]
	requireUTXO(t, last, tx.ID(), uint32(len(utx.Outs)), tx.ID())
	require.Equal(t, uint64(1000), last.Amount)
}

func TestDecodeOperationTx(t *testing.T) {
	w := newTestWallet(t)
	payload := []byte("nft payload")
	utx, err := w.builder.NewOperationTxMintNFT(nftAssetID, payload, []*secp256k1fx.OutputOwners{
		{Threshold: 1, Addrs: []ids.ShortID{otherKey.Address()}},
	})
	require.NoError(t, err)
	tx, got := w.sign(t, utx)

	require.Equal(t, TypeOperationTx, got.Type)
	// The fee input, then the op's UTXOs (no amount: a mint output).
	require.Len(t, got.Consumed, 2)
	requireSpends(t, got.Consumed[0], avaxUTXO, 50*units.Avax)
	requireSpends(t, got.Consumed[1], nftMint, 0)

	outs := len(utx.Outs)
	// An NFT mint consumes the mint output and creates only the NFT.
	require.Len(t, got.Produced, outs+1)
	nft := got.Produced[outs]
	requireUTXO(t, nft, tx.ID(), uint32(outs), nftAssetID)
	require.Equal(t, OutputNFTTransfer, nft.OutputType)
	require.Equal(t, uint32(7), nft.GroupID)
	require.Equal(t, payload, nft.Payload)
	require.Equal(t, []ids.ShortID{otherKey.Address()}, nft.Owners.Addrs)
}

func TestDecodeOperationTxMintFT(t *testing.T) {
	w := newTestWallet(t)
	utx, err := w.builder.NewOperationTxMintFT(map[ids.ID]*secp256k1fx.TransferOutput{
		coinAssetID: {Amt: 500, OutputOwners: owners(otherKey.Address())},
	})
	require.NoError(t, err)
	tx, got := w.sign(t, utx)

	require.Len(t, got.Consumed, 2)
	requireSpends(t, got.Consumed[1], coinMint, 0)
	// A secp256k1fx mint re-creates its mint output, then the minted coins,
	// after the tx's own outputs.
	outs := len(utx.Outs)
	require.Len(t, got.Produced, outs+2)
	mint, minted := got.Produced[outs], got.Produced[outs+1]
	requireUTXO(t, mint, tx.ID(), uint32(outs), coinAssetID)
	require.Equal(t, OutputSECPMint, mint.OutputType)
	require.Equal(t, []ids.ShortID{testKey.Address()}, mint.Owners.Addrs)
	requireUTXO(t, minted, tx.ID(), uint32(outs+1), coinAssetID)
	require.Equal(t, OutputSECPTransfer, minted.OutputType)
	require.Equal(t, uint64(500), minted.Amount)
}

func TestDecodeImportTx(t *testing.T) {
	w := newTestWallet(t)
	to := owners(otherKey.Address())
	utx, err := w.builder.NewImportTx(cChainID, &to)
	require.NoError(t, err)
	tx, got := w.sign(t, utx)

	require.Equal(t, TypeImportTx, got.Type)
	require.Equal(t, cChainID, got.SourceChain)
	// The imported UTXO pays the fee too: no local input.
	require.Len(t, utx.Ins, 0)
	require.Len(t, got.Consumed, 1)
	requireSpends(t, got.Consumed[0], atomicUTXO, 3*units.Avax)
	require.Len(t, got.Produced, 1)
	requireUTXO(t, got.Produced[0], tx.ID(), 0, avaxAssetID)
	require.Equal(t, 3*units.Avax-units.MilliAvax, got.Produced[0].Amount)
}

func TestDecodeExportTx(t *testing.T) {
	w := newTestWallet(t)
	utx, err := w.builder.NewExportTx(cChainID, []*avax.TransferableOutput{{
		Asset: avax.Asset{ID: avaxAssetID},
		Out:   &secp256k1fx.TransferOutput{Amt: 2 * units.Avax, OutputOwners: owners(otherKey.Address())},
	}})
	require.NoError(t, err)
	tx, got := w.sign(t, utx)

	require.Equal(t, TypeExportTx, got.Type)
	require.Equal(t, cChainID, got.DestinationChain)
	require.Len(t, got.Consumed, 1)
	outs := len(utx.Outs)
	require.Equal(t, 1, outs) // the change
	require.Len(t, got.Produced, outs+1)
	require.False(t, got.Produced[0].Exported)
	exported := got.Produced[outs]
	requireUTXO(t, exported, tx.ID(), uint32(outs), avaxAssetID)
	require.True(t, exported.Exported)
	require.Equal(t, cChainID, exported.DestinationChain)
	require.Equal(t, 2*units.Avax, exported.Amount)
	require.Equal(t, []ids.ShortID{otherKey.Address()}, exported.Owners.Addrs)
}

func TestDecodeTxRejectsGarbage(t *testing.T) {
	d, err := NewDecoder()
	require.NoError(t, err)
	_, err = d.DecodeTx([]byte{0, 0, 1, 2, 3})
	require.Error(t, err)
}
