package pchain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/components/gas"
	"github.com/ava-labs/avalanchego/vms/platformvm/fx"
	"github.com/ava-labs/avalanchego/vms/platformvm/stakeable"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/p/builder"
	walletsigner "github.com/ava-labs/avalanchego/wallet/chain/p/signer"
	"github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common/utxotest"
)

// testWallet builds and signs P-chain txs with avalanchego's own wallet
// builder and signer, over a fixed set of UTXOs.
type testWallet struct {
	t       *testing.T
	keys    []*secp256k1.PrivateKey
	builder builder.Builder
	signer  walletsigner.Signer
}

var (
	testAVAX     = ids.Empty.Prefix(1789)
	testXChainID = ids.Empty.Prefix(42)
	testSubnetID = ids.Empty.Prefix(7)
	// testValidationID is an L1 validation the test wallet may disable.
	testValidationID = ids.Empty.Prefix(8)
)

// ownerOf is a 1-of-1 owner of key.
func ownerOf(key *secp256k1.PrivateKey) *secp256k1fx.OutputOwners {
	return &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
}

// newTestWallet funds key 1 with an unlocked and a stake-locked UTXO on P,
// and an atomic UTXO exported from X; key 0 owns testSubnetID and may
// disable testValidationID and the validations in disableable.
func newTestWallet(t *testing.T, disableable ...ids.ID) *testWallet {
	keys := secp256k1.TestKeys()
	funded := keys[1]
	pUTXOs := []*avax.UTXO{
		{
			UTXOID: avax.UTXOID{TxID: ids.Empty.Prefix(100), OutputIndex: 3},
			Asset:  avax.Asset{ID: testAVAX},
			Out:    &secp256k1fx.TransferOutput{Amt: 1000 * units.Avax, OutputOwners: *ownerOf(funded)},
		},
		{
			UTXOID: avax.UTXOID{TxID: ids.Empty.Prefix(101), OutputIndex: 0},
			Asset:  avax.Asset{ID: testAVAX},
			Out: &stakeable.LockOut{
				Locktime: uint64(time.Now().Add(24 * time.Hour).Unix()),
				TransferableOut: &secp256k1fx.TransferOutput{
					Amt: 5000 * units.Avax, OutputOwners: *ownerOf(funded),
				},
			},
		},
	}
	xUTXOs := []*avax.UTXO{{
		UTXOID: avax.UTXOID{TxID: ids.Empty.Prefix(200), OutputIndex: 1},
		Asset:  avax.Asset{ID: testAVAX},
		Out:    &secp256k1fx.TransferOutput{Amt: 10 * units.Avax, OutputOwners: *ownerOf(funded)},
	}}
	chainUTXOs := utxotest.NewDeterministicChainUTXOs(t, map[ids.ID][]*avax.UTXO{
		constants.PlatformChainID: pUTXOs,
		testXChainID:              xUTXOs,
	})
	owners := map[ids.ID]fx.Owner{
		testSubnetID:     ownerOf(keys[0]),
		testValidationID: ownerOf(keys[0]),
	}
	for _, id := range disableable {
		owners[id] = ownerOf(keys[0])
	}
	backend := wallet.NewBackend(chainUTXOs, owners)
	ctx := &builder.Context{
		NetworkID:   constants.UnitTestID,
		AVAXAssetID: testAVAX,
		// A non-zero fee, so that every tx spends an input.
		ComplexityWeights: gas.Dimensions{gas.Bandwidth: 1, gas.DBRead: 10, gas.DBWrite: 100, gas.Compute: 1000},
		GasPrice:          1,
	}
	return &testWallet{
		t:       t,
		keys:    keys,
		builder: builder.New(set.Of(funded.Address(), keys[0].Address()), ctx, backend),
		signer:  walletsigner.New(secp256k1fx.NewKeychain(keys...), backend),
	}
}

// sign signs utx (built with w.builder) and returns the signed tx.
func (w *testWallet) sign(utx txs.UnsignedTx, err error) *txs.Tx {
	w.t.Helper()
	require.NoError(w.t, err, "building tx")
	tx, err := walletsigner.SignUnsigned(w.t.Context(), w.signer, utx)
	require.NoError(w.t, err, "signing tx")
	return tx
}

// decode round-trips tx through its bytes.
func (w *testWallet) decode(tx *txs.Tx) *decodedTx {
	w.t.Helper()
	got, err := DecodeTx(tx.Bytes())
	require.NoError(w.t, err)
	require.Equal(w.t, tx.ID(), got.ID)
	require.Equal(w.t, tx.Bytes(), got.Bytes)
	return &decodedTx{Tx: got, signed: tx}
}

// fundedAddr is the address the wallet's UTXOs belong to.
func (w *testWallet) fundedAddr() ids.ShortID { return w.keys[1].Address() }

// avaxOut pays amount to key.
func avaxOut(amount uint64, key *secp256k1.PrivateKey) *avax.TransferableOutput {
	return &avax.TransferableOutput{
		Asset: avax.Asset{ID: testAVAX},
		Out:   &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: *ownerOf(key)},
	}
}

// avaxOutTo pays amount to addr.
func avaxOutTo(amount uint64, addr ids.ShortID) *avax.TransferableOutput {
	return &avax.TransferableOutput{
		Asset: avax.Asset{ID: testAVAX},
		Out: &secp256k1fx.TransferOutput{
			Amt:          amount,
			OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{addr}},
		},
	}
}
