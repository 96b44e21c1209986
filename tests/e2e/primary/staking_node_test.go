package primary

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// Ground truth for the staking tests: platform.getCurrentValidators,
// getRewardUTXOs, getStake and the P blocks holding the reward txs, read
// with the node's own JSON field names (v1.14.2,
// vms/platformvm/api/validator.go and service.go).

// nodeOwner is api.Owner.
type nodeOwner struct {
	Locktime  avajson.Uint64 `json:"locktime"`
	Threshold avajson.Uint32 `json:"threshold"`
	Addresses []string       `json:"addresses"`
}

// nodeDelegator is api.PrimaryDelegator.
type nodeDelegator struct {
	TxID            ids.ID          `json:"txID"`
	StartTime       avajson.Uint64  `json:"startTime"`
	EndTime         avajson.Uint64  `json:"endTime"`
	Weight          avajson.Uint64  `json:"weight"`
	NodeID          ids.NodeID      `json:"nodeID"`
	RewardOwner     *nodeOwner      `json:"rewardOwner"`
	PotentialReward *avajson.Uint64 `json:"potentialReward"`
}

// nodeValidator is api.PermissionlessValidator, the parts the Data API's
// validator and delegator shapes come from.
type nodeValidator struct {
	TxID                   ids.ID          `json:"txID"`
	StartTime              avajson.Uint64  `json:"startTime"`
	EndTime                avajson.Uint64  `json:"endTime"`
	Weight                 avajson.Uint64  `json:"weight"`
	NodeID                 ids.NodeID      `json:"nodeID"`
	ValidationRewardOwner  *nodeOwner      `json:"validationRewardOwner"`
	DelegationRewardOwner  *nodeOwner      `json:"delegationRewardOwner"`
	PotentialReward        *avajson.Uint64 `json:"potentialReward"`
	AccruedDelegateeReward *avajson.Uint64 `json:"accruedDelegateeReward"`
	DelegationFee          avajson.Float32 `json:"delegationFee"`
	ExactDelegationFee     *avajson.Uint32 `json:"exactDelegationFee"`

	Signer *struct {
		PublicKey         string `json:"publicKey"`
		ProofOfPossession string `json:"proofOfPossession"`
	} `json:"signer"`
	DelegatorCount  *avajson.Uint64  `json:"delegatorCount"`
	DelegatorWeight *avajson.Uint64  `json:"delegatorWeight"`
	Delegators      *[]nodeDelegator `json:"delegators"`
}

// nodeCurrentValidators is platform.getCurrentValidators of the primary
// network; with nodeIDs set the reply lists each validator's delegators.
func nodeCurrentValidators(t *testing.T, ctx context.Context, uri string, nodeIDs ...ids.NodeID) []nodeValidator {
	t.Helper()
	args := map[string]any{}
	if len(nodeIDs) > 0 {
		args["nodeIDs"] = nodeIDs
	}
	var reply struct {
		Validators []nodeValidator `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators", args, &reply))
	return reply.Validators
}

// nodeRewardUTXOs is platform.getRewardUTXOs of a staking tx, decoded (the
// node marshals them with txs.GenesisCodec; txs.Codec reads them).
func nodeRewardUTXOs(t *testing.T, ctx context.Context, uri string, stakingTx ids.ID) []truth.UTXO {
	t.Helper()
	var reply struct {
		UTXOs []string `json:"utxos"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getRewardUTXOs",
		map[string]any{"txID": stakingTx, "encoding": "hex"}, &reply))
	out := make([]truth.UTXO, 0, len(reply.UTXOs))
	for _, s := range reply.UTXOs {
		b, err := formatting.Decode(formatting.Hex, s)
		require.NoError(t, err)
		var u avax.UTXO
		_, err = txs.Codec.Unmarshal(b, &u)
		require.NoError(t, err, "reward UTXO of %s", stakingTx)
		out = append(out, truth.DecodeUTXO(t, &u))
	}
	return out
}

// nodeStake is platform.getStake of addrs: the AVAX they have staked now.
func nodeStake(t *testing.T, ctx context.Context, uri string, addrs ...string) uint64 {
	t.Helper()
	var reply struct {
		Staked avajson.Uint64 `json:"staked"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getStake",
		map[string]any{"addresses": addrs, "encoding": "hex"}, &reply))
	return uint64(reply.Staked)
}

// nodePTxJSON is platform.getTx of txID in json encoding: the raw "tx".
func nodePTxJSON(t *testing.T, ctx context.Context, uri string, txID ids.ID) json.RawMessage {
	t.Helper()
	var reply struct {
		Tx json.RawMessage `json:"tx"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getTx",
		map[string]any{"txID": txID, "encoding": "json"}, &reply))
	return reply.Tx
}

// nodePBlock reads P block h in hex and parses it with the platformvm's
// parser: the tx types and, for options, commit or abort.
func nodePBlock(t *testing.T, ctx context.Context, uri string, h uint64) block.Block {
	t.Helper()
	var reply struct {
		Block string `json:"block"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getBlockByHeight",
		map[string]any{"height": avajson.Uint64(h), "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Block)
	require.NoError(t, err)
	blk, err := block.Parse(block.Codec, b)
	require.NoError(t, err, "P block %d", h)
	return blk
}

// pBlockTime is a Banff block's timestamp.
func pBlockTime(t *testing.T, blk block.Block) int64 {
	t.Helper()
	b, ok := blk.(block.BanffBlock)
	require.True(t, ok, "P block %d is %T, not a Banff block", blk.Height(), blk)
	return b.Timestamp().Unix()
}

// rewardTxOf is a RewardValidatorTx the node accepted: its proposal block,
// time, and whether the option after it committed.
type rewardTxOf struct {
	id        ids.ID
	height    uint64
	blockTime int64
	committed bool
}

// nodeRewardTxs scans P blocks from..head for RewardValidatorTxs and
// returns them by the staking tx they reward.
func nodeRewardTxs(t *testing.T, ctx context.Context, uri string, from uint64) map[ids.ID]rewardTxOf {
	t.Helper()
	out := map[ids.ID]rewardTxOf{}
	head := truth.Height(t, ctx, uri, "P")
	for h := from; h <= head; h++ {
		blk := nodePBlock(t, ctx, uri, h)
		for _, tx := range blk.Txs() {
			rtx, ok := tx.Unsigned.(*txs.RewardValidatorTx)
			if !ok {
				continue
			}
			require.Less(t, h, head, "reward tx %s: its option is not accepted yet", tx.ID())
			opt := nodePBlock(t, ctx, uri, h+1)
			_, committed := opt.(*block.BanffCommitBlock)
			out[rtx.TxID] = rewardTxOf{id: tx.ID(), height: h, blockTime: pBlockTime(t, blk), committed: committed}
		}
	}
	return out
}

// nodeParsedPTx is platform.getTx of txID in hex, parsed with the
// platformvm's codec: the tx as the node accepted it.
func nodeParsedPTx(t *testing.T, ctx context.Context, uri string, txID ids.ID) *txs.Tx {
	t.Helper()
	var reply struct {
		Tx string `json:"tx"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getTx",
		map[string]any{"txID": txID, "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Tx)
	require.NoError(t, err)
	tx, err := txs.Parse(txs.Codec, b)
	require.NoError(t, err, "P tx %s", txID)
	require.Equal(t, txID, tx.ID())
	return tx
}

// locatePTx finds the P block (height from..head) holding txID: its height
// and time.
func locatePTx(t *testing.T, ctx context.Context, uri string, from uint64, txID ids.ID) (uint64, int64) {
	t.Helper()
	head := truth.Height(t, ctx, uri, "P")
	for h := head; h >= from && h > 0; h-- {
		blk := nodePBlock(t, ctx, uri, h)
		for _, tx := range blk.Txs() {
			if tx.ID() == txID {
				return h, pBlockTime(t, blk)
			}
		}
	}
	t.Fatalf("P tx %s is accepted but not in blocks %d..%d", txID, from, head)
	return 0, 0
}
