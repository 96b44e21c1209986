package primary

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// Ground truth for the staking tests: platform.getCurrentValidators and
// getStake, read with the node's own JSON field names (v1.14.2,
// vms/platformvm/api/validator.go and service.go); the P blocks, reward
// txs and reward UTXOs are in truth (pchain.go), which other packages'
// staking tests share.

// nodeOwner is api.Owner.
type nodeOwner = truth.Owner

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
