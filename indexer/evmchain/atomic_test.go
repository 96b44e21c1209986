package evmchain

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/catomic"
)

// importTx is a signed C-chain import of one X-chain UTXO to EWOQ's
// account, built and signed with coreth's atomic package.
func importTx(t *testing.T) *atomic.Tx {
	t.Helper()
	key := secp256k1.TestKeys()[0]
	asset := ids.Empty.Prefix(1789)
	tx := &atomic.Tx{UnsignedAtomicTx: &atomic.UnsignedImportTx{
		NetworkID:    constants.UnitTestID,
		BlockchainID: ids.Empty.Prefix(2022),
		SourceChain:  ids.Empty.Prefix(2021),
		ImportedInputs: []*avax.TransferableInput{{
			UTXOID: avax.UTXOID{TxID: ids.Empty.Prefix(100), OutputIndex: 1},
			Asset:  avax.Asset{ID: asset},
			In:     &secp256k1fx.TransferInput{Amt: 1_000_000, Input: secp256k1fx.Input{SigIndices: []uint32{0}}},
		}},
		Outs: []atomic.EVMOutput{{Address: addrEWOQ, Amount: 900_000, AssetID: asset}},
	}}
	require.NoError(t, tx.Sign(atomic.Codec, [][]*secp256k1.PrivateKey{{key}}))
	return tx
}

// withExtraData returns the fixture node's block 42 carrying extData as
// coreth returns it.
func withExtraData(t *testing.T, n *fixtureNode, extData []byte) {
	t.Helper()
	var blk map[string]any
	require.NoError(t, json.Unmarshal(n.block, &blk))
	blk["blockExtraData"] = hexutil.Bytes(extData)
	n.block = mustJSON(t, blk)
}

func TestFetchAtomicTxs(t *testing.T) {
	tx := importTx(t)
	// The fixture block is post-ApricotPhase5: its extra data is a list.
	extData, err := atomic.Codec.Marshal(atomic.CodecVersion, []*atomic.Tx{tx})
	require.NoError(t, err)
	n := newFixtureNode(t, 43)
	withExtraData(t, n, extData)
	rules := catomic.RulesFor(constants.MainnetID)

	blocks, err := n.serve(t, true, Options{Trace: true, Atomic: &rules}).Fetch(context.Background(), 41, 3)
	require.NoError(t, err)
	require.Len(t, blocks, 3)
	require.Nil(t, blocks[0].Atomic, "no extra data, no atomic txs")
	require.Nil(t, blocks[2].Atomic)
	got := blocks[1].Atomic
	require.Len(t, got, 1)
	require.Equal(t, tx.ID(), got[0].ID)
	require.Equal(t, catomic.TypeImportTx, got[0].Type)
	require.Equal(t, [20]byte(addrEWOQ), got[0].EVMOutputs[0].Address)
	require.Len(t, blocks[1].Txs, 7, "the EVM txs are read as before")

	// Another EVM chain (no Atomic rules) ignores the field.
	blocks, err = n.serve(t, true, DefaultOptions()).Fetch(context.Background(), fixtureHeight, 1)
	require.NoError(t, err)
	require.Nil(t, blocks[0].Atomic)
}

func TestFetchFailsOnBadExtraData(t *testing.T) {
	n := newFixtureNode(t, 43)
	withExtraData(t, n, []byte{0, 0, 1, 2, 3})
	rules := catomic.RulesFor(constants.MainnetID)
	_, err := n.serve(t, false, Options{Atomic: &rules}).Fetch(context.Background(), fixtureHeight, 1)
	require.ErrorContains(t, err, "block 42")
}
