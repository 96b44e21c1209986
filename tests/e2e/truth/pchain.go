package truth

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"
)

// Ground truth of P-chain blocks, staking and L1 validators, read with the
// node's own JSON field names (v1.14.2, vms/platformvm/api and service.go):
// what the staking and L1 tests of several packages check against.

// PBlock reads P block h in hex and parses it with the platformvm's parser:
// the tx types and, for options, commit or abort.
func PBlock(t *testing.T, ctx context.Context, uri string, h uint64) block.Block {
	t.Helper()
	var reply struct {
		Block string `json:"block"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/P", "platform.getBlockByHeight",
		map[string]any{"height": avajson.Uint64(h), "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Block)
	require.NoError(t, err)
	blk, err := block.Parse(block.Codec, b)
	require.NoError(t, err, "P block %d", h)
	return blk
}

// PBlockTime is a Banff block's timestamp.
func PBlockTime(t *testing.T, blk block.Block) int64 {
	t.Helper()
	b, ok := blk.(block.BanffBlock)
	require.True(t, ok, "P block %d is %T, not a Banff block", blk.Height(), blk)
	return b.Timestamp().Unix()
}

// PBlockOuterID is the accepted (proposervm) ID of P block h, from the
// node's index API: container h-1 (a local network indexes from block 1),
// checked to wrap the platformvm block of height h.
func PBlockOuterID(t *testing.T, ctx context.Context, uri string, h uint64) ids.ID {
	t.Helper()
	require.NotZero(t, h, "the genesis block has no container")
	var reply struct {
		ID    ids.ID `json:"id"`
		Bytes string `json:"bytes"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/index/P/block", "index.getContainerByIndex",
		map[string]any{"index": avajson.Uint64(h - 1), "encoding": "hex"}, &reply), "P container %d", h-1)
	inner := PBlock(t, ctx, uri, h)
	b, err := formatting.Decode(formatting.Hex, reply.Bytes)
	require.NoError(t, err)
	ib := parseIndexedBlock(t, "P", reply.ID, b)
	require.Equal(t, inner.ID().String(), ib.InnerID, "P container %d wraps block %d", h-1, h)
	return reply.ID
}

// RewardUTXOs is platform.getRewardUTXOs of a staking tx, decoded (the
// node marshals them with txs.GenesisCodec; txs.Codec reads them).
func RewardUTXOs(t *testing.T, ctx context.Context, uri string, stakingTx ids.ID) []UTXO {
	t.Helper()
	var reply struct {
		UTXOs []string `json:"utxos"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/P", "platform.getRewardUTXOs",
		map[string]any{"txID": stakingTx, "encoding": "hex"}, &reply))
	out := make([]UTXO, 0, len(reply.UTXOs))
	for _, s := range reply.UTXOs {
		b, err := formatting.Decode(formatting.Hex, s)
		require.NoError(t, err)
		var u avax.UTXO
		_, err = txs.Codec.Unmarshal(b, &u)
		require.NoError(t, err, "reward UTXO of %s", stakingTx)
		out = append(out, DecodeUTXO(t, &u))
	}
	return out
}

// ParsedPTx is platform.getTx of txID in hex, parsed with the platformvm's
// codec: the tx as the node accepted it.
func ParsedPTx(t *testing.T, ctx context.Context, uri string, txID ids.ID) *txs.Tx {
	t.Helper()
	var reply struct {
		Tx string `json:"tx"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/P", "platform.getTx",
		map[string]any{"txID": txID, "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Tx)
	require.NoError(t, err)
	tx, err := txs.Parse(txs.Codec, b)
	require.NoError(t, err, "P tx %s", txID)
	require.Equal(t, txID, tx.ID())
	return tx
}

// LocatePTx finds the P block (height from..head) holding txID: its height
// and time.
func LocatePTx(t *testing.T, ctx context.Context, uri string, from uint64, txID ids.ID) (uint64, int64) {
	t.Helper()
	head := Height(t, ctx, uri, "P")
	for h := head; h >= from && h > 0; h-- {
		blk := PBlock(t, ctx, uri, h)
		for _, tx := range blk.Txs() {
			if tx.ID() == txID {
				return h, PBlockTime(t, blk)
			}
		}
	}
	t.Fatalf("P tx %s is accepted but not in blocks %d..%d", txID, from, head)
	return 0, 0
}

// RewardTx is a RewardValidatorTx the node accepted: its proposal block,
// time, and whether the option after it committed.
type RewardTx struct {
	ID        ids.ID
	Height    uint64
	BlockTime int64
	Committed bool
}

// RewardTxs scans P blocks from..head for RewardValidatorTxs and returns
// them by the staking tx they reward.
func RewardTxs(t *testing.T, ctx context.Context, uri string, from uint64) map[ids.ID]RewardTx {
	t.Helper()
	out := map[ids.ID]RewardTx{}
	head := Height(t, ctx, uri, "P")
	for h := from; h <= head; h++ {
		blk := PBlock(t, ctx, uri, h)
		for _, tx := range blk.Txs() {
			rtx, ok := tx.Unsigned.(*txs.RewardValidatorTx)
			if !ok {
				continue
			}
			require.Less(t, h, head, "reward tx %s: its option is not accepted yet", tx.ID())
			opt := PBlock(t, ctx, uri, h+1)
			_, committed := opt.(*block.BanffCommitBlock)
			out[rtx.TxID] = RewardTx{ID: tx.ID(), Height: h, BlockTime: PBlockTime(t, blk), Committed: committed}
		}
	}
	return out
}

// Owner is the node's api.Owner.
type Owner struct {
	Locktime  avajson.Uint64 `json:"locktime"`
	Threshold avajson.Uint32 `json:"threshold"`
	Addresses []string       `json:"addresses"`
}

// L1Validator is platform.getL1Validator's reply.
type L1Validator struct {
	SubnetID              ids.ID         `json:"subnetID"`
	NodeID                ids.NodeID     `json:"nodeID"`
	Weight                avajson.Uint64 `json:"weight"`
	StartTime             avajson.Uint64 `json:"startTime"`
	ValidationID          *ids.ID        `json:"validationID"`
	PublicKey             string         `json:"publicKey"`
	RemainingBalanceOwner *Owner         `json:"remainingBalanceOwner"`
	DeactivationOwner     *Owner         `json:"deactivationOwner"`
	MinNonce              avajson.Uint64 `json:"minNonce"`
	Balance               avajson.Uint64 `json:"balance"`
	Height                avajson.Uint64 `json:"height"`
}

// GetL1Validator is platform.getL1Validator: the validation as the node's
// last accepted block left it (Height).
func GetL1Validator(t *testing.T, ctx context.Context, uri string, validationID ids.ID) L1Validator {
	t.Helper()
	var reply L1Validator
	require.NoError(t, Call(ctx, uri+"/ext/bc/P", "platform.getL1Validator",
		map[string]any{"validationID": validationID}, &reply))
	return reply
}
