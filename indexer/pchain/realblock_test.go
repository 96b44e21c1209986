package pchain

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/hashing"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/pdata"
)

// TestRealApricotBlock reads a real mainnet pre-Banff block (see
// testdata/README.md) as the index would serve it, and checks it against
// the node's own JSON rendering of the same block.
func TestRealApricotBlock(t *testing.T) {
	raw, err := os.ReadFile("testdata/mainnet-p-1000001.hex")
	require.NoError(t, err)
	b, err := formatting.Decode(formatting.Hex, strings.TrimSpace(string(raw)))
	require.NoError(t, err)
	id, err := ids.FromString("d7WYmb8VeZNHsny3EJCwMm6QA37s1EHwMxw1Y71V3FqPZ5EFG")
	require.NoError(t, err)
	require.Equal(t, id, ids.ID(hashing.ComputeHash256Array(b)), "a block's ID is the hash of its bytes")

	c := blockindex.Unwrap(id, b)
	require.False(t, c.Wrapped, "a pre-fork block is not a proposervm block")
	index := &fakeIndex{containers: make([]blockindex.Container, 1_000_001)}
	index.containers[1_000_000] = c
	src := New(index, newFakePlatform(), upgrade.Mainnet)
	blocks, err := src.Fetch(t.Context(), 1_000_001, 1)
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	blk := blocks[0]

	require.Equal(t, uint64(1_000_001), blk.Number)
	require.Equal(t, id, blk.ID)
	require.Equal(t, "5615di9ytxujackzaXNrVuWQy5y8Yrt8chPCscMr5Ku9YxJ1S", blk.ParentID.String())
	require.Equal(t, "ApricotStandardBlock", blk.Type)
	require.Equal(t, len(b), blk.Size)
	require.Nil(t, blk.Proposer)
	// An Apricot block has no time of its own: it is the chain time, which
	// the store tracks from the genesis and committed AdvanceTimeTxs.
	require.Zero(t, blk.Timestamp)
	require.Zero(t, blk.NextChainTime)

	require.Len(t, blk.Txs, 1)
	tx := blk.Txs[0]
	require.Equal(t, "ExportTx", tx.Type)
	require.Equal(t, pdata.OutcomeDecided, tx.Outcome)
	require.Equal(t, "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", tx.DestinationChain.String())
	require.Len(t, tx.Consumed, 1)
	in := tx.Consumed[0]
	require.Equal(t, "DTqiagiMFdqbNQ62V2Gt1GddTVLkKUk2caGr4pyza9hTtsfta", in.TxID.String())
	require.Zero(t, in.OutputIndex)
	require.Equal(t, uint64(13_839_124_063), in.Amount)
	require.Equal(t, "FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z", in.Asset.String())

	require.Len(t, tx.Produced, 1, "no Outs: the exported output is at index 0")
	out := tx.Produced[0]
	require.Zero(t, out.OutputIndex)
	require.Equal(t, tx.ID.Prefix(0), out.ID)
	require.Equal(t, uint64(13_838_124_063), out.Amount)
	require.True(t, out.Exported)
	require.Equal(t, tx.DestinationChain, out.DestinationChain)
	owner, err := address.Format("P", constants.MainnetHRP, out.Owners.Addrs[0][:])
	require.NoError(t, err)
	require.Equal(t, "P-avax1jkjyvlwclyu42n4yuegpczpfgwrf8r9lyj0d3c", owner)
	// The input's spender, recovered from the credential (pinned: the
	// recovery itself is checked against known keys in tx_test.go).
	require.Len(t, in.Signers.Addresses(), 1)
	signer, err := address.Format("P", constants.MainnetHRP, in.Signers.Addresses()[0][:])
	require.NoError(t, err)
	require.Equal(t, "P-avax1w5uedtd2sglyx05f2nm3h8l5s8s03yps88szus", signer)

	// Its time is the chain time of the chain before it.
	const chainTime = 1_620_000_000
	require.Equal(t, []int64{chainTime}, chainTimes(chainTime, blocks))
}

// chainTimes is the time of each block as the store derives it: a Banff
// block's own time; for an Apricot block (Timestamp 0) the chain time, which
// starts at start and which a committed AdvanceTimeTx moves for the blocks
// after its proposal block.
func chainTimes(start int64, blocks []*pdata.Block) []int64 {
	out := make([]int64, len(blocks))
	now := start
	for i, b := range blocks {
		if b.Timestamp != 0 {
			now = b.Timestamp
		}
		out[i] = now
		if b.NextChainTime != 0 {
			now = b.NextChainTime
		}
	}
	return out
}
