package xchain

import (
	"encoding/hex"
	"testing"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	pchaintxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// avmGenesis returns the network's avm genesis bytes the way the node
// finds them.
func avmGenesis(t *testing.T, networkID uint32) []byte {
	t.Helper()
	b, _, err := genesis.FromConfig(genesis.GetConfig(networkID))
	require.NoError(t, err)
	tx, err := genesis.VMGenesis(b, constants.AVMID)
	require.NoError(t, err)
	return tx.Unsigned.(*pchaintxs.CreateChainTx).GenesisData
}

func TestGenesisLocal(t *testing.T) {
	g, err := Genesis(constants.LocalID)
	require.NoError(t, err)
	require.Equal(t, netinfo.X, g.Chain)
	require.Zero(t, g.Number)
	require.Equal(t, BlockType, g.Type)
	require.Equal(t, int64(genesis.LocalConfig.StartTime), g.Timestamp)
	// As a local node (avalanchego v1.14.2) reports them: avm.getBlockByHeight(0)
	// and the "generated stop vertex" and "fee asset" log lines.
	require.Equal(t, ids.FromStringOrPanic("2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst"), g.ID)
	require.Equal(t, ids.FromStringOrPanic("3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY"), g.ParentID)
	require.Nil(t, g.Proposer)

	require.Len(t, g.Txs, 1)
	avaxTx := g.Txs[0]
	wantAVAX, err := genesis.AVAXAssetID(avmGenesis(t, constants.LocalID))
	require.NoError(t, err)
	require.Equal(t, wantAVAX, avaxTx.ID, "the AVAX asset ID is its genesis tx's ID")
	require.Equal(t, ids.FromStringOrPanic("2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"), avaxTx.ID)
	require.Equal(t, TypeCreateAssetTx, avaxTx.Type)
	require.Equal(t, &pdata.Asset{ID: wantAVAX, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: AssetSECP}, avaxTx.Asset)
	require.Empty(t, avaxTx.Consumed)

	// The local genesis allocates AVAX to the EWOQ key on the X-chain.
	ewoq := genesis.EWOQKey.Address()
	var found *pdata.UTXO
	for i := range avaxTx.Produced {
		u := &avaxTx.Produced[i]
		require.Equal(t, wantAVAX.Prefix(uint64(i)), u.ID)
		require.Equal(t, wantAVAX, u.Asset)
		require.Equal(t, OutputSECPTransfer, u.OutputType)
		require.NotEmpty(t, u.Bytes)
		if len(u.Owners.Addrs) == 1 && u.Owners.Addrs[0] == ewoq {
			found = u
		}
	}
	require.NotNil(t, found, "no genesis UTXO of EWOQ's")
	var want uint64
	for _, a := range genesis.LocalConfig.Allocations {
		if a.AVAXAddr == ewoq {
			want += a.InitialAmount
		}
	}
	require.NotZero(t, want)
	require.Equal(t, want, found.Amount)
	require.Equal(t, uint32(1), found.Owners.Threshold)
	// The node's avm.getUTXOs(EWOQ) answer, less its 4-byte checksum.
	wantBytes, err := hex.DecodeString("0000dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db" +
		"00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000070429d069189e0000" +
		"000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c")
	require.NoError(t, err)
	require.Equal(t, wantBytes, found.Bytes)

	// The stored bytes decode back to the same tx (the store re-decodes them).
	d, err := NewDecoder()
	require.NoError(t, err)
	again, err := d.DecodeTx(avaxTx.Bytes)
	require.NoError(t, err)
	require.Equal(t, avaxTx, again)
}

// The AVAX asset IDs of mainnet and fuji are well known: the genesis txs'
// IDs must be the node's.
func TestGenesisPublicNetworks(t *testing.T) {
	for _, tc := range []struct {
		networkID uint32
		avax      string
	}{
		{constants.MainnetID, "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z"},
		{constants.FujiID, "U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK"},
	} {
		g, err := Genesis(tc.networkID)
		require.NoError(t, err)
		require.Equal(t, ids.FromStringOrPanic(tc.avax), g.Txs[0].ID)
		require.Equal(t, "AVAX", g.Txs[0].Asset.Symbol)
		require.Equal(t, int64(genesis.GetConfig(tc.networkID).StartTime), g.Timestamp)
		require.NotEmpty(t, g.Txs[0].Produced)
	}
}

func TestGenesisUnknownNetwork(t *testing.T) {
	_, err := Genesis(1337)
	require.Error(t, err)
}
