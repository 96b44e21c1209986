package pchain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

func TestGenesisLocal(t *testing.T) {
	b, ts, err := Genesis(constants.LocalID)
	require.NoError(t, err)
	require.Equal(t, netinfo.P, b.Chain)
	require.Zero(t, b.Number)
	require.Equal(t, "ApricotCommitBlock", b.Type)
	require.Equal(t, ts, b.Timestamp)
	require.Equal(t, int64(genesis.LocalConfig.StartTime), ts)

	// The pseudo tx holds the genesis UTXOs: the EWOQ key's among them.
	pseudo := b.Txs[0]
	require.Equal(t, ids.Empty, pseudo.ID)
	require.Empty(t, pseudo.Type)
	ewoq := genesis.EWOQKey.Address()
	var ewoqUTXOs int
	for _, u := range pseudo.Produced {
		var parsed avax.UTXO
		_, err := txs.Codec.Unmarshal(u.Bytes, &parsed)
		require.NoError(t, err)
		require.Equal(t, parsed.InputID(), u.ID)
		require.Equal(t, u.TxID.Prefix(uint64(u.OutputIndex)), u.ID)
		if len(u.Owners.Addrs) == 1 && u.Owners.Addrs[0] == ewoq {
			ewoqUTXOs++
			require.Positive(t, u.Amount)
		}
	}
	require.Positive(t, ewoqUTXOs, "the local genesis funds the EWOQ key on P")

	var validators, chains int
	for _, tx := range b.Txs[1:] {
		require.NotEqual(t, ids.Empty, tx.ID)
		switch {
		case tx.Staker != nil:
			validators++
			require.Equal(t, constants.PrimaryNetworkID, tx.Staker.Subnet)
			require.Equal(t, ts, tx.Staker.Start, "genesis validators start at the genesis time")
			require.NotEmpty(t, tx.Staker.Stake)
			require.NotEmpty(t, tx.Staker.BLSPublicKey)
			for _, u := range tx.Produced {
				require.Equal(t, pdata.KindStake, u.Kind)
			}
		case tx.Blockchain != nil:
			chains++
			require.Equal(t, "CreateChainTx", tx.Type)
			require.Equal(t, tx.ID, tx.Blockchain.ID)
			require.Equal(t, constants.PrimaryNetworkID, tx.Subnet)
		}
	}
	require.Equal(t, 5, validators)
	require.Equal(t, 2, chains, "X and C")
}

func TestGenesisMainnet(t *testing.T) {
	b, ts, err := Genesis(constants.MainnetID)
	require.NoError(t, err)
	require.Equal(t, time.Date(2020, 9, 10, 0, 0, 0, 0, time.UTC).Unix(), ts)
	require.NotEmpty(t, b.Txs[0].Produced)
	var validators int
	for _, tx := range b.Txs[1:] {
		if tx.Type == "AddValidatorTx" {
			validators++
		}
	}
	require.Positive(t, validators)
}

func TestGenesisUnknownNetwork(t *testing.T) {
	_, _, err := Genesis(9999)
	require.Error(t, err)
}
