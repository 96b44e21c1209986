package xchain

import (
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/avm/block"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	proposerblock "github.com/ava-labs/avalanchego/vms/proposervm/block"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/ava-labs/avalanchego/wallet/chain/x/signer"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/netinfo"
)

// testBlock is an avm block at height 5 holding a BaseTx and an ExportTx
// the test wallet signs.
func testBlock(t *testing.T) *block.StandardBlock {
	t.Helper()
	w := newTestWallet(t)
	base, err := w.builder.NewBaseTx([]*avax.TransferableOutput{{
		Asset: avax.Asset{ID: avaxAssetID},
		Out:   &secp256k1fx.TransferOutput{Amt: units.Avax, OutputOwners: owners(otherKey.Address())},
	}})
	require.NoError(t, err)
	// The export spends the same UTXO: no matter, blocks are not verified.
	export, err := w.builder.NewExportTx(cChainID, []*avax.TransferableOutput{{
		Asset: avax.Asset{ID: avaxAssetID},
		Out:   &secp256k1fx.TransferOutput{Amt: units.Avax, OutputOwners: owners(otherKey.Address())},
	}})
	require.NoError(t, err)
	var signed []*txs.Tx
	for _, utx := range []txs.UnsignedTx{base, export} {
		tx, err := signer.SignUnsigned(t.Context(), w.signer, utx)
		require.NoError(t, err)
		signed = append(signed, tx)
	}
	blk, err := block.NewStandardBlock(ids.GenerateTestID(), 5, time.Unix(1_700_000_000, 0), signed, builder.Parser.Codec())
	require.NoError(t, err)
	return blk
}

func TestDecodeBlockWrapped(t *testing.T) {
	blk := testBlock(t)
	outerParent := ids.GenerateTestID()
	outer, err := proposerblock.BuildUnsigned(outerParent, time.Unix(1_700_000_001, 0), 42, proposerblock.Epoch{}, blk.Bytes())
	require.NoError(t, err)

	d, err := NewDecoder()
	require.NoError(t, err)
	got, err := d.DecodeBlock(blockindex.Unwrap(outer.ID(), outer.Bytes()))
	require.NoError(t, err)

	require.Equal(t, netinfo.X, got.Chain)
	require.Equal(t, uint64(5), got.Number)
	require.Equal(t, outer.ID(), got.ID)
	require.Equal(t, outerParent, got.ParentID, "blocks chain by their outer IDs")
	require.Equal(t, int64(1_700_000_000), got.Timestamp, "the avm block's own time")
	require.Equal(t, BlockType, got.Type)
	require.Equal(t, len(outer.Bytes()), got.Size)
	require.NotNil(t, got.Proposer)
	require.Equal(t, uint64(42), got.Proposer.PChainHeight)
	require.Len(t, got.Txs, 2)
	require.Equal(t, TypeBaseTx, got.Txs[0].Type)
	require.Equal(t, blk.Txs()[0].ID(), got.Txs[0].ID)
	require.Equal(t, TypeExportTx, got.Txs[1].Type)
	require.Equal(t, blk.Txs()[1].ID(), got.Txs[1].ID)
}

func TestDecodeBlockUnwrapped(t *testing.T) {
	blk := testBlock(t)
	d, err := NewDecoder()
	require.NoError(t, err)
	got, err := d.DecodeBlock(blockindex.Unwrap(blk.ID(), blk.Bytes()))
	require.NoError(t, err)
	require.Equal(t, blk.ID(), got.ID)
	require.Equal(t, blk.Parent(), got.ParentID)
	require.Equal(t, len(blk.Bytes()), got.Size)
	require.Nil(t, got.Proposer)
}

func TestDecodeBlockRejectsGarbage(t *testing.T) {
	d, err := NewDecoder()
	require.NoError(t, err)
	_, err = d.DecodeBlock(blockindex.Container{Inner: []byte{1, 2, 3}})
	require.Error(t, err)
}
